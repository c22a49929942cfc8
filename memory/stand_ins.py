"""The summaries that stand in for chat turns retention deleted, for every memory search.

Retention deletes the turns a summary covers (memory/retention.py), leaving the summary as the
only record of them. The lexical, semantic and hybrid searches (memory/search.py) return chat
turns, and with them these stand-in summaries unless the filter names a ``kind``.
"""

from __future__ import annotations

from django.db import connections

from config.replicas import read_alias
from memory.models import ChatMessage, Kind
from memory.validation import filter_sql
from rag.search import similarity_expression


def with_stand_ins(flt: dict) -> bool:
    """Return whether a search under ``flt`` also returns the stand-in summaries.

    Every search (lexical, semantic, hybrid) does unless the filter names a ``kind``: after
    retention a summary is the only record of its chat's old turns (:func:`stand_in_summaries`).
    """
    return not flt.get("kind")


def stand_in_summaries(*, user, flt: dict) -> list[int]:
    """Return the ids of the user's summaries that stand in for turns no longer stored.

    Retention deletes the turns a summary covers (memory/retention.py), leaving the summary
    as the only record of them: the newest summary of a chat (it folds in the earlier ones)
    whose chat keeps fewer turns up to ``covers_until_ts`` than it covers. While the turns
    are all there, they answer, and the summary (which repeats them) stays out.
    """
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(*stand_in_query(user=user, flt=flt))
        return [pk for pk, *_ in cursor.fetchall()]


def stand_in_query(*, user, flt: dict) -> tuple[str, list]:
    """Return the SQL and parameters of :func:`stand_in_summaries`.

    Its rows have the columns of every list memory.search reads in one statement
    (``memory.search.LIST_COLUMNS``: ``id``, then NULLs, ``ts, message_id``). Raw SQL: every
    search without a ``kind`` asks this, and the ORM took about 4 ms of CPU per search to
    compile its two correlated subqueries (issue 34, 1M messages), more than PostgreSQL took
    to answer; the summaries are read through ``memory_msg_user_summaries``.
    """
    conditions, params = filter_sql({**flt, "kind": Kind.SUMMARY}, "s")
    sql = (
        "SELECT s.id, NULL::float8 AS rank, NULL::numeric AS score, NULL::text AS content,"
        " s.ts, s.message_id FROM memory_chatmessage s"
        f" WHERE s.user_id = %s{conditions}"
        " AND NOT EXISTS (SELECT 1 FROM memory_chatmessage w WHERE w.user_id = %s"
        "  AND w.kind = %s AND w.chat_id = s.chat_id AND w.ts > s.ts)"
        " AND (SELECT count(*) FROM memory_chatmessage k WHERE k.user_id = %s"
        "  AND k.kind = %s AND k.chat_id = s.chat_id AND k.ts <= s.covers_until_ts)"
        " < s.covered_count"
    )
    return sql, [user.pk, *params, user.pk, Kind.SUMMARY, user.pk, Kind.MESSAGE]


def summary_similarities(ids: list[int], vector: list[float], *, user) -> dict[int, float]:
    """Return ``{id: similarity to vector}`` of the rows of ``ids`` that have a vector.

    ``user``: the rows' owner, which prunes the read to that user's partition.
    """
    if not ids:
        return {}
    rows = ChatMessage.objects.filter(pk__in=ids, embedding__isnull=False, user=user)
    rows = rows.annotate(similarity=similarity_expression("embedding", vector))
    return {pk: float(sim) for pk, sim in rows.values_list("pk", "similarity")}
