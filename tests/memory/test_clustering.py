"""``manage.py memory_cluster`` puts each partition's rows in (user, ts desc, message_id) order.

Rows written round-robin across users lie interleaved; after the command every partition's
physical order (ctid) is its users' order, its part of ``memory_msg_user_ts`` is the one
CLUSTER used, and the rows, ids and searches are unchanged.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import OperationalError, connection
from psycopg.errors import DiskFull, LockNotAvailable

from memory.clustering import partitions, user_order
from memory.management.commands import memory_cluster
from memory.models import ChatMessage
from rag.text import segment_for_index
from tests.memory.memory_helpers import ts

USERS = 24  # over 16 partitions: some hold several users, whose rows then interleave
TURNS = 5


def _interleaved_users() -> list:
    users = [get_user_model().objects.create(username=f"cluster{j}") for j in range(USERS)]
    for i in range(TURNS):  # one turn of every user, then the next: arrival order
        ChatMessage.objects.bulk_create(
            ChatMessage(
                user=user,
                message_id=f"m{i}",
                ts=ts(i),
                role="user",
                kind="message",
                content=f"火锅 {j} {i}",
                search_text=segment_for_index(f"火锅 {j} {i}"),
            )
            for j, user in enumerate(users)
        )
    # The foreign keys' checks are deferred to the commit; CLUSTER refuses a table with
    # pending ones (as in the test's transaction): run them now.
    connection.check_constraints()
    return users


def _physical_and_user_order() -> list[tuple[list, list]]:
    """Return, per partition, its rows' ids in physical order and in the index's order."""
    out = []
    with connection.cursor() as cursor:
        for partition in partitions():
            cursor.execute(f"SELECT id FROM {partition.table} ORDER BY ctid")
            physical = [pk for (pk,) in cursor.fetchall()]
            cursor.execute(
                f"SELECT id FROM {partition.table} ORDER BY user_id, ts DESC, message_id"
            )
            out.append((physical, [pk for (pk,) in cursor.fetchall()]))
    return out


@pytest.mark.django_db
def test_the_command_orders_every_partition_by_user():
    _interleaved_users()
    before = _physical_and_user_order()
    assert any(physical != ordered for physical, ordered in before)  # interleaved to begin with
    rows = sorted(ChatMessage.objects.values_list("id", "user_id", "message_id"))

    call_command("memory_cluster", stdout=StringIO(), stderr=StringIO())

    after = _physical_and_user_order()
    assert all(physical == ordered for physical, ordered in after)
    assert sorted(ChatMessage.objects.values_list("id", "user_id", "message_id")) == rows
    assert len(partitions()) == 16
    assert all(partition.clustered for partition in partitions())


@pytest.mark.django_db
def test_check_changes_nothing_and_names_every_partition():
    _interleaved_users()
    before = _physical_and_user_order()
    out = StringIO()

    call_command("memory_cluster", "--check", stdout=out, stderr=StringIO())

    assert _physical_and_user_order() == before
    assert not any(partition.clustered for partition in partitions())
    assert sorted(line.split(":")[0] for line in out.getvalue().splitlines()) == sorted(
        user_order()
    )


@pytest.mark.django_db
def test_below_skips_the_partitions_already_ordered():
    _interleaved_users()
    call_command("memory_cluster", stdout=StringIO(), stderr=StringIO())  # ANALYZEs each
    ordered = {table for table, corr in user_order().items() if corr is not None and corr >= 0.5}
    assert ordered  # clustered partitions of several rows correlate with user_id
    out = StringIO()

    call_command("memory_cluster", "--below", "0.5", stdout=out, stderr=StringIO())

    clustered_again = {line.split(":")[0] for line in out.getvalue().splitlines() if "in " in line}
    assert not clustered_again & ordered


def _failing(cause):
    """Return a stand-in for ``cluster_partition`` raising Django's error over ``cause``."""

    def fail(partition):
        try:
            raise cause
        except Exception as exc:
            raise OperationalError(str(exc)) from exc

    return fail


@pytest.mark.django_db
def test_a_partition_whose_lock_is_not_had_is_skipped_and_named(monkeypatch):
    monkeypatch.setattr(memory_cluster, "cluster_partition", _failing(LockNotAvailable("busy")))
    err = StringIO()
    call_command("memory_cluster", stdout=StringIO(), stderr=err)
    assert "16 partition(s) skipped" in err.getvalue()


@pytest.mark.django_db
def test_any_other_database_error_stops_the_command(monkeypatch):
    monkeypatch.setattr(memory_cluster, "cluster_partition", _failing(DiskFull("no space")))
    with pytest.raises(OperationalError):
        call_command("memory_cluster", stdout=StringIO(), stderr=StringIO())
