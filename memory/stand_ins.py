"""The summaries that stand in for chat turns retention deleted, for every memory search.

Retention deletes the turns a summary covers (memory/retention.py), leaving the summary as the
only record of them. The lexical, semantic and hybrid searches (memory/search.py) return chat
turns, and with them these stand-in summaries unless the filter names a ``kind``.
"""

from __future__ import annotations

from django.db.models import Count, Exists, F, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from memory.models import ChatMessage, Kind
from memory.validation import apply_filter
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
    kept = (
        ChatMessage.objects.filter(
            user=user,
            kind=Kind.MESSAGE,
            chat_id=OuterRef("chat_id"),
            ts__lte=OuterRef("covers_until_ts"),
        )
        .order_by()
        .values("chat_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    newer = ChatMessage.objects.filter(
        user=user, kind=Kind.SUMMARY, chat_id=OuterRef("chat_id"), ts__gt=OuterRef("ts")
    )
    summaries = apply_filter(ChatMessage.objects.filter(user=user), {**flt, "kind": Kind.SUMMARY})
    return list(
        summaries.annotate(
            kept=Coalesce(Subquery(kept, output_field=IntegerField()), 0),
        )
        .filter(~Exists(newer), kept__lt=F("covered_count"))
        .values_list("pk", flat=True)
    )


def summary_similarities(ids: list[int], vector: list[float], *, user=None) -> dict[int, float]:
    """Return ``{id: similarity to vector}`` of the rows of ``ids`` that have a vector.

    ``user``: the rows' owner, which prunes the read to that user's partition.
    """
    if not ids:
        return {}
    rows = ChatMessage.objects.filter(pk__in=ids, embedding__isnull=False)
    if user is not None:
        rows = rows.filter(user=user)
    rows = rows.annotate(similarity=similarity_expression("embedding", vector))
    return {pk: float(sim) for pk, sim in rows.values_list("pk", "similarity")}
