"""The message table is partitioned by ``HASH (user_id)`` (migration 0014).

A user's search reads that user's partition only (checked on the plans PostgreSQL makes for the
queries a search runs, and on the scans ``match_conversations`` made); every constraint and
index is there on each partition; erasing a user deletes their rows and nobody else's; the
migration keeps the rows, the ids and the ratings' links, both ways.
"""

from __future__ import annotations

import importlib
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from config.userdata import user_data_erase
from memory import search, search_hybrid, search_semantic
from memory.models import ChatMessage, Feedback
from memory.services import feedback_create, messages_write
from rag.db import ROW_ESTIMATE_SQL
from rag.text import segment_for_index
from tests.memory.memory_helpers import ts

MIGRATION = importlib.import_module("memory.migrations.0014_partition_messages_by_user")
BEFORE = ("memory", "0013_memorysettings")
PARTITION = re.compile(r"memory_chatmessage_p\d\d")
READS_MESSAGES = re.compile(r'(FROM|JOIN) "?memory_chatmessage"?\b')


def _partition_of(user) -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT tableoid::regclass::text FROM memory_chatmessage WHERE user_id = %s",
            [user.pk],
        )
        names = [row[0] for row in cursor.fetchall()]
    assert len(names) == 1
    return names[0]


def _write(user, prefix: str, n: int = 3) -> None:
    items = [
        {"message_id": f"{prefix}{i}", "ts": ts(i), "role": "user", "content": f"{prefix} 火锅 {i}"}
        for i in range(n)
    ]
    messages_write(user=user, items=items)


@pytest.mark.django_db
def test_the_table_has_16_hash_partitions_each_with_every_index_and_constraint():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.partstrat, a.attname FROM pg_partitioned_table p"
            " JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]"
            " WHERE p.partrelid = 'memory_chatmessage'::regclass"
        )
        assert cursor.fetchone() == ("h", "user_id")
        cursor.execute(
            "SELECT relid::text FROM pg_partition_tree('memory_chatmessage') WHERE isleaf"
        )
        partitions = [row[0] for row in cursor.fetchall()]
        cursor.execute(
            "SELECT count(*) FROM pg_index WHERE indrelid = 'memory_chatmessage'::regclass"
        )
        parent_indexes = cursor.fetchone()[0]
        cursor.execute(
            "SELECT c.relname, count(i.indexrelid), a.attstorage, c.reloptions"
            " FROM pg_class c JOIN pg_index i ON i.indrelid = c.oid"
            " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'embedding'"
            " WHERE c.relname = ANY(%s) GROUP BY c.relname, a.attstorage, c.reloptions",
            [partitions],
        )
        per_partition = cursor.fetchall()
        cursor.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE conrelid = 'memory_chatmessage'::regclass AND contype = 'p'"
        )
        primary_key = cursor.fetchone()[0]
        cursor.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE conrelid = 'memory_feedback'::regclass AND contype = 'f'"
            " AND confrelid = 'memory_chatmessage'::regclass"
        )
        feedback_keys = [row[0] for row in cursor.fetchall()]
    assert len(partitions) == MIGRATION.PARTITIONS == 16
    # pkey, user+message_id, 4 btrees of the model, GIN on search_tsv, HNSW, the FK and
    # embed_state indexes: each on every partition.
    assert parent_indexes >= 10
    assert len(per_partition) == 16
    for name, indexes, storage, options in per_partition:
        assert indexes == parent_indexes, name
        assert storage == "m", name  # vectors stay in the row (migration 0008)
        assert "toast_tuple_target=8160" in (options or []), name
    assert primary_key == "PRIMARY KEY (id, user_id)"
    assert feedback_keys == [
        "FOREIGN KEY (target_id, user_id) REFERENCES memory_chatmessage(id, user_id)"
        " ON DELETE SET NULL (target_id) DEFERRABLE INITIALLY DEFERRED"
    ]


@pytest.mark.django_db
def test_the_models_match_the_migrations():
    # Feedback.target is db_constraint=False in the state too (the key is the migration's).
    call_command("makemigrations", "memory", "--check", "--dry-run", stdout=StringIO())


@pytest.mark.django_db
def test_every_query_of_a_users_search_reads_only_that_users_partition(
    user, make_user, fake_vectors
):
    vectors = fake_vectors(user, 40, chat_of=lambda i: f"c{i % 3}")
    own = _partition_of(user)
    # Ids come from a sequence that the tests run before this one in the process advanced: the
    # other user is the first new one whose rows land in another partition.
    for n in range(20):
        other = make_user(f"bob{n}")
        fake_vectors(other, 40, seed=1)
        if _partition_of(other) != own:
            break
    assert own != _partition_of(other)  # so a scan of the other's rows would show
    vector = vectors[5].tolist()
    with CaptureQueriesContext(connection) as queries:
        search_hybrid.hybrid_search(user=user, query_text="row 5", flt={}, top_k=5, vector=vector)
        search_semantic.semantic_search(
            user=user, flt={"chat_id": "c1"}, top_k=5, vector=vector, min_score=-1.0
        )
        search.lexical_search(user=user, query_text="row", flt={}, page_size=5)
    reads = [q["sql"] for q in queries if READS_MESSAGES.search(q["sql"])]
    assert len(reads) >= 6
    with connection.cursor() as cursor:
        for sql in reads:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
            assert set(PARTITION.findall(plan)) == {own}, (sql, plan)


@pytest.mark.django_db
def test_match_conversations_scans_only_the_users_partition(user, other_user, fake_vectors):
    vectors = fake_vectors(user, 30)
    fake_vectors(other_user, 30, seed=1)
    scans = (
        "SELECT relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0)"
        " FROM pg_stat_xact_user_tables WHERE relname LIKE 'memory\\_chatmessage\\_p%%'"
    )
    with connection.cursor() as cursor:
        cursor.execute(scans)
        before = dict(cursor.fetchall())
        for path in ("exact", "hnsw"):
            cursor.execute(
                "SELECT count(*) FROM match_conversations(%s::vector, 5, %s::jsonb)",
                [str(vectors[0].tolist()), json.dumps({"user_id": user.pk, "path": path})],
            )
            assert cursor.fetchone()[0] == 5
        cursor.execute(scans)
        after = dict(cursor.fetchall())
    scanned = {name for name, count in after.items() if count > before.get(name, 0)}
    assert scanned == {_partition_of(user)}


@pytest.mark.django_db
def test_the_row_estimate_is_the_sum_of_the_partitions_autovacuum_analyses(user, fake_vectors):
    fake_vectors(user, 30)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {_partition_of(user)}")  # as autovacuum does: never the parent
        cursor.execute(ROW_ESTIMATE_SQL, ["memory_chatmessage"])
        assert cursor.fetchone()[0] == 30


@pytest.mark.django_db
def test_erasing_a_user_deletes_their_rows_and_no_one_elses(user, other_user):
    _write(user, "u")
    _write(other_user, "o")
    feedback_create(user=other_user, target_message_id="o1", rating=1)
    kept = sorted(ChatMessage.objects.filter(user=other_user).values_list("pk", "content"))

    user_data_erase(user=user)

    assert not ChatMessage.objects.filter(user_id=user.pk).exists()
    assert sorted(ChatMessage.objects.values_list("pk", "content")) == kept
    rating = Feedback.objects.get(user=other_user)
    assert rating.target.message_id == "o1"


@pytest.mark.django_db
def test_a_deleted_message_leaves_its_rating_with_no_target_in_sql_too(user):
    _write(user, "u")
    rating = feedback_create(user=user, target_message_id="u1", rating=1)
    with connection.cursor() as cursor:  # below the ORM: the database's own ON DELETE
        cursor.execute(
            "DELETE FROM memory_chatmessage WHERE user_id = %s AND message_id = 'u1'", [user.pk]
        )
    rating.refresh_from_db()
    assert rating.target_id is None
    assert rating.user_id == user.pk
    assert rating.target_message_id == "u1"


@pytest.mark.django_db
def test_a_rating_cannot_point_at_another_users_message(user, other_user):
    from django.db import IntegrityError, transaction

    _write(other_user, "o")
    theirs = ChatMessage.objects.get(user=other_user, message_id="o1")
    with pytest.raises(IntegrityError), transaction.atomic():
        Feedback.objects.create(user=user, target=theirs, target_message_id="o1", rating=1)
        connection.check_constraints()  # the key is deferred to the commit: check it now


def _model_before(name: str):
    """Return memory's model ``name`` as it was at BEFORE.

    The current models carry the columns of later migrations (the speaker, 0016), which the
    table at BEFORE does not have: rows written or read whole there go through the historical
    model, as a data migration would.
    """
    state = MigrationExecutor(connection).loader.project_state([BEFORE])
    return state.apps.get_model("memory", name)


def _write_before(user, prefix: str, n: int = 3) -> None:
    """Write ``n`` messages at BEFORE as messages_write stores them (the text segmented)."""
    message = _model_before("ChatMessage")
    contents = [f"{prefix} 火锅 {i}" for i in range(n)]
    message.objects.bulk_create(
        message(
            user_id=user.pk,
            message_id=f"{prefix}{i}",
            ts=ts(i),
            role="user",
            kind="message",
            content=content,
            search_text=segment_for_index(content),
        )
        for i, content in enumerate(contents)
    )


def _rate_before(user, message_id: str) -> None:
    """Rate one of the user's messages at BEFORE, as feedback_create does."""
    target = _model_before("ChatMessage").objects.get(user_id=user.pk, message_id=message_id)
    _model_before("Feedback").objects.create(
        user_id=user.pk, target_id=target.pk, target_message_id=message_id, rating=1
    )


def _rated_message(user) -> str:
    """Return the message_id of the message the user's one rating points to (a join, so any
    schema state reads it)."""
    return Feedback.objects.values_list("target__message_id", flat=True).get(user=user)


def _migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def _snapshot() -> list[tuple]:
    return sorted(
        ChatMessage.objects.values_list(
            "pk", "user_id", "message_id", "content", "search_text", "embedding_hash"
        )
    )


def _partitioned() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE relname = 'memory_chatmessage'")
        return cursor.fetchone()[0] == "p"


@pytest.mark.slow  # migrates back and forth, rendering every migration's state: 12 s under load
@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_rows_ids_and_ratings_both_ways(user, other_user):
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        _migrate([BEFORE])
        assert not _partitioned()
        _write_before(user, "u")
        _write_before(other_user, "o")
        # The newest row goes: the sequence is ahead of the rows.
        _model_before("ChatMessage").objects.filter(message_id="o2").delete()
        _rate_before(user, "u1")
        rows = _snapshot()
        vectors = _tsvectors()
        assert len(rows) == 5 and all(vectors.values())

        _migrate(latest)

        assert _partitioned()
        assert _snapshot() == rows
        assert _tsvectors() == vectors  # the generated column, computed again from the text
        assert _rated_message(user) == "u1"
        _write(user, "n", 1)
        new = ChatMessage.objects.get(message_id="n0")
        assert new.pk > max(pk for pk, *_ in rows) + 1  # the deleted row's id is not reused

        _migrate([BEFORE])  # and back: one table, the same rows

        assert not _partitioned()
        assert _snapshot() == sorted([*rows, *_snapshot_of(new)])
        assert _rated_message(user) == "u1"
    finally:
        _migrate(latest)
    assert _partitioned()


def _snapshot_of(row) -> list[tuple]:
    return [(row.pk, row.user_id, row.message_id, row.content, row.search_text, row.embedding_hash)]


def _tsvectors() -> dict[int, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, search_tsv::text FROM memory_chatmessage")
        return dict(cursor.fetchall())
