"""Put each user's messages on consecutive pages again: ``CLUSTER`` of the message table, one
partition at a time (``manage.py memory_cluster``; docs/SCALING.md "What a one-user search reads
at 10M messages").

Messages arrive interleaved across users, so one user's rows lie on hundreds of scattered
pages: at 10M messages a user's 1,000 rows on about 450 pages, each read on its own when not
cached. A hybrid search reads all of them (the term counts, the exact nearest neighbours), so
at that size a search costs what reading its user's pages costs. ``CLUSTER ... USING`` the
``(user, ts desc, message_id)`` index rewrites a partition in that order: the same rows on
about as many pages, but consecutive ones, read in a few large reads (at 10M messages over
10,000 users: docs/SCALING.md, "Fewer statements" and "What a one-user search reads").

What it costs, stated for the operator who runs it:

- **The lock.** ``CLUSTER`` holds an ACCESS EXCLUSIVE lock on the partition (and its indexes)
  while it rewrites it: every read and write of that partition's users (a sixteenth of them)
  waits until it ends: 31-58 s per partition at 10M messages on the 2-core machine of
  docs/BENCHMARKS.md, 11 minutes for the 16. The other partitions are not locked. The
  lock is asked with ``lock_timeout`` (``LOCK_TIMEOUT_SECONDS``): behind a long transaction it
  gives up on that partition instead of queueing every request of its users behind itself.
- **Disk.** A partition is written anew beside the old one: free space of its size with its
  indexes (about 1.8 GB a partition at 10M messages) is needed while it runs.
- **How long it holds.** New messages are appended where there is room, not by user, so the
  order decays as a user writes; :func:`user_order` reads how ordered each partition still is
  (``pg_stats.correlation`` of ``user_id``, 1 when clustered, near 0 in arrival order), and
  ``--below`` clusters only the partitions under a given value: run it in a quiet hour.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db import connection

TABLE = "memory_chatmessage"
# The index whose order the rows are put in: (user, ts desc, message_id), the order a user's
# searches and listings read them in (memory.models.ChatMessage.Meta.indexes).
ORDER_INDEX = "memory_msg_user_ts"
# How long a partition's lock is waited for before it is skipped (a long transaction holding
# it would otherwise queue every request of the partition's users behind the CLUSTER).
LOCK_TIMEOUT_SECONDS = 5


@dataclass(frozen=True)
class Partition:
    """A leaf table of the message table, the index ordering it, and how ordered it is."""

    table: str
    index: str
    correlation: float | None  # pg_stats.correlation of user_id (None: not analysed)
    clustered: bool  # the index is the one CLUSTER last used


def partitions() -> list[Partition]:
    """Return every leaf table of the message table (the table itself when not partitioned)
    with its part of ``ORDER_INDEX``, in name order."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT t.relid::regclass::text, x.indexrelid::regclass::text,"
            " (SELECT s.correlation FROM pg_stats s WHERE s.schemaname = n.nspname"
            "   AND s.tablename = c.relname AND s.attname = 'user_id'), x.indisclustered"
            " FROM pg_partition_tree(%s::regclass) t"
            " JOIN pg_class c ON c.oid = t.relid JOIN pg_namespace n ON n.oid = c.relnamespace"
            " JOIN pg_partition_tree(%s::regclass) i ON i.isleaf"
            " JOIN pg_index x ON x.indexrelid = i.relid AND x.indrelid = t.relid"
            " WHERE t.isleaf ORDER BY 1",
            [TABLE, ORDER_INDEX],
        )
        return [
            Partition(table=table, index=index, correlation=corr, clustered=clustered)
            for table, index, corr, clustered in cursor.fetchall()
        ]


def user_order() -> dict[str, float | None]:
    """Return each partition's ``pg_stats.correlation`` of ``user_id`` (how ordered by user
    its rows are: 1 clustered, near 0 in arrival order; None before its first ANALYZE)."""
    return {p.table: p.correlation for p in partitions()}


def cluster_partition(partition: Partition) -> float:
    """``CLUSTER`` one partition by ``ORDER_INDEX``, then ANALYZE it; return the seconds taken.

    Raises the database's lock-timeout error when its lock is not had within
    ``LOCK_TIMEOUT_SECONDS`` (nothing is changed then).
    """
    started = time.monotonic()
    with connection.cursor() as cursor:
        # The names come from the catalog (partitions()), never from the caller's text.
        cursor.execute(f"SET lock_timeout = '{int(LOCK_TIMEOUT_SECONDS)}s'")
        try:
            cursor.execute(f"CLUSTER {partition.table} USING {partition.index}")
        finally:
            cursor.execute("RESET lock_timeout")
        # The planner's statistics (and user_order) describe the new order.
        cursor.execute(f"ANALYZE {partition.table}")
    return time.monotonic() - started
