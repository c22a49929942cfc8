"""Partition the message table by user: ``PARTITION BY HASH (user_id)``, 16 partitions.

Every read and write of memory is for one user, so a search that filters on ``user_id`` (all
of them do) reads one partition: its btrees, its full-text GIN and its HNSW graph are a
sixteenth of the table's. Erasure and vacuum work on one partition's pages too.

Why 16: at the 10M-message target each partition holds about 625k rows (about 3 GB with its
indexes at the 5.4 kB per message measured at 10k), so one partition's HNSW graph builds in
the ``maintenance_work_mem`` the embedded server gets on a 24 GB machine (768 MB), and a
lookup by id alone (an ORM ``save()``, Django's delete by primary key) probes 16 small
indexes instead of one. 32 would halve the partitions again at twice the probes; Citus's
default of 32 shards is the step after this one (docs/SCALING.md). Hash partitions cannot be
split in place: changing the number means running this rebuild again.

PostgreSQL requires the partition key in every unique constraint, so the primary key in SQL is
``(id, user_id)`` (``id`` first: a lookup by id alone uses it in each partition). The model
keeps ``id`` as its primary key for Django: ids still come from one sequence, so they stay
unique. ``(user_id, message_id)`` already holds the key. The only foreign key into the table,
``memory_feedback.target_id``, cannot reference ``id`` alone any more: it becomes
``(target_id, user_id) -> (id, user_id)`` with ``ON DELETE SET NULL (target_id)``
(PostgreSQL 15+; a rating is of the user's own message, and the rating stays when the
message goes); the model's field is ``db_constraint=False`` so Django leaves it alone.

The table is rebuilt: a new partitioned table with the same columns (the generated
``search_tsv`` included), the rows copied, the old table dropped, the new one renamed, then
every constraint and index the old table had is created again under its own name (on the
parent: PostgreSQL creates one per partition, the HNSW graph included) and the id sequence
continues where it was. Writes wait for the migration (the table is locked at its start).
On a large install this takes about as long as loading the rows and building their indexes
(docs/BENCHMARKS.md, "memory-scale"): run it in a maintenance window (docs/SCALING.md says
how to do it with writes going on). Reversible: the reverse rebuilds one plain table.

``match_conversations`` fetches the rows its HNSW scan found by id and user, so that step is
pruned to the user's partition too.
"""

import importlib

from django.db import migrations, models

TABLE = "memory_chatmessage"
PARTITIONS = 16
# Set on each partition (a partitioned parent takes no storage parameters): rows up to a page
# keep their vector inline (rag.db.InlineVectors, migration 0008).
ROW_TARGET = "toast_tuple_target = 8160"
FEEDBACK_FK = "memory_feedback_target_user_fk"

FUNCTION = importlib.import_module("memory.migrations.0012_match_conversations_exact_retry").CREATE
BY_IDS = "WHERE m.id = ANY(hnsw_ids)"
assert FUNCTION.count(BY_IDS) == 1
PRUNED_FUNCTION = FUNCTION.replace(BY_IDS, "WHERE m.user_id = f_user AND m.id = ANY(hnsw_ids)")


def _one(cursor, sql, params=()):
    cursor.execute(sql, params)
    return cursor.fetchone()


def _rebuild(schema_editor, *, partitioned: bool) -> None:
    """Rebuild the message table, partitioned by user or as one table, keeping its rows."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {TABLE} IN SHARE ROW EXCLUSIVE MODE")
        sequence = _one(cursor, "SELECT pg_get_serial_sequence(%s, 'id')", [TABLE])[0]
        last_value, is_called = _one(cursor, f"SELECT last_value, is_called FROM {sequence}")
        # What the table has now, to create again on the new one under the same names.
        cursor.execute(
            "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE conrelid = %s::regclass AND contype IN ('c', 'f', 'u')"
            " AND coninhcount = 0 ORDER BY conname",
            [TABLE],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i"
            " WHERE i.indrelid = %s::regclass AND NOT EXISTS"
            " (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid"
            "  AND c.conrelid = i.indrelid)"
            " ORDER BY i.indexrelid::regclass::text",
            [TABLE],
        )
        # A partitioned parent's index reads "ON ONLY <table>": created plainly, it propagates.
        indexes = [row[0].replace(" ON ONLY ", " ON ") for row in cursor.fetchall()]
        if partitioned:
            for name, kind, definition in constraints:
                if kind == "u" and "user_id" not in definition:
                    raise RuntimeError(f"{name}: a unique constraint without user_id ({definition})")
        cursor.execute(
            "SELECT conrelid::regclass::text, conname FROM pg_constraint"
            " WHERE confrelid = %s::regclass AND contype = 'f' AND coninhcount = 0",
            [TABLE],
        )
        for table, name in cursor.fetchall():
            if table != "memory_feedback":
                raise RuntimeError(f"{table}.{name} references {TABLE}: not handled here")
            cursor.execute(f'ALTER TABLE memory_feedback DROP CONSTRAINT "{name}"')
        cursor.execute(
            "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute"
            " WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped"
            " AND attgenerated = ''",
            [TABLE],
        )
        columns = cursor.fetchone()[0]

        new = f"{TABLE}_new"
        tail = " PARTITION BY HASH (user_id)" if partitioned else f" WITH ({ROW_TARGET})"
        cursor.execute(
            f"CREATE TABLE {new} (LIKE {TABLE} INCLUDING DEFAULTS INCLUDING GENERATED"
            f" INCLUDING STORAGE INCLUDING COMMENTS){tail}"
        )
        # The id's default is the old table's sequence, which goes with the old table.
        cursor.execute(f"ALTER TABLE {new} ALTER COLUMN id DROP DEFAULT")
        if partitioned:
            for remainder in range(PARTITIONS):
                cursor.execute(
                    f"CREATE TABLE {TABLE}_p{remainder:02d} PARTITION OF {new}"
                    f" FOR VALUES WITH (MODULUS {PARTITIONS}, REMAINDER {remainder})"
                    f" WITH ({ROW_TARGET})"
                )
        cursor.execute(f"INSERT INTO {new} ({columns}) SELECT {columns} FROM {TABLE}")
        cursor.execute(f"DROP TABLE {TABLE}")  # its identity sequence goes with it
        cursor.execute(f"ALTER TABLE {new} RENAME TO {TABLE}")

        # Ids continue from the old sequence. A plain sequence owned by the column (as serial
        # makes) on the partitioned table: identity columns need PostgreSQL 17 there.
        if partitioned:
            cursor.execute(f"CREATE SEQUENCE {TABLE}_id_seq AS bigint OWNED BY {TABLE}.id")
            cursor.execute(
                f"ALTER TABLE {TABLE} ALTER COLUMN id SET DEFAULT nextval('{TABLE}_id_seq')"
            )
        else:
            cursor.execute(
                f"ALTER TABLE {TABLE} ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY"
            )
        new_sequence = _one(cursor, "SELECT pg_get_serial_sequence(%s, 'id')", [TABLE])[0]
        cursor.execute("SELECT setval(%s, %s, %s)", [new_sequence, last_value, is_called])

        key = "(id, user_id)" if partitioned else "(id)"
        cursor.execute(f"ALTER TABLE {TABLE} ADD CONSTRAINT {TABLE}_pkey PRIMARY KEY {key}")
        for name, _kind, definition in constraints:
            cursor.execute(f'ALTER TABLE {TABLE} ADD CONSTRAINT "{name}" {definition}')
        for definition in indexes:
            cursor.execute(definition)

        if partitioned:
            # Ratings that name another user's message (none are written so) lose the link.
            cursor.execute(
                "UPDATE memory_feedback f SET target_id = NULL WHERE target_id IS NOT NULL"
                f" AND NOT EXISTS (SELECT 1 FROM {TABLE} m"
                " WHERE m.id = f.target_id AND m.user_id = f.user_id)"
            )
            # Checks the UPDATE left deferred would stop the ALTER ("pending trigger events").
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(
                f"ALTER TABLE memory_feedback ADD CONSTRAINT {FEEDBACK_FK}"
                f" FOREIGN KEY (target_id, user_id) REFERENCES {TABLE} (id, user_id)"
                " ON DELETE SET NULL (target_id) DEFERRABLE INITIALLY DEFERRED"
            )
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        cursor.execute(f"ANALYZE {TABLE}")


def partition(apps, schema_editor):
    _rebuild(schema_editor, partitioned=True)


def unpartition(apps, schema_editor):
    _rebuild(schema_editor, partitioned=False)
    # Django's own foreign key again, named as Django names it.
    feedback = apps.get_model("memory", "Feedback")
    schema_editor.execute(
        schema_editor._create_fk_sql(
            feedback, feedback._meta.get_field("target"), "_fk_%(to_table)s_%(to_column)s"
        )
    )


class Migration(migrations.Migration):
    # The rebuild locks, copies and indexes in one transaction: it commits whole or not at all.
    atomic = True

    dependencies = [("memory", "0013_memorysettings")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="feedback",
                    name="target",
                    field=models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=models.deletion.SET_NULL,
                        related_name="feedback",
                        to="memory.chatmessage",
                        verbose_name="rated message",
                    ),
                ),
            ],
        ),
        migrations.RunPython(partition, unpartition),
        migrations.RunSQL(PRUNED_FUNCTION, FUNCTION),
    ]
