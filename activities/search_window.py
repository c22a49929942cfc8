"""The time window of the activity search: when a window's few rows say nothing about whether
the request fits (activities/search.py judges it against every joinable row then), how a
window that holds nothing close turns from narrowing into ranking by closeness, and the one
rule every answer goes through: a result starting outside the window says so
(:func:`mark_outside`)."""

from __future__ import annotations

import dataclasses

from activities.reasons import outside_note
from activities.understanding import FILTER, RANK, QueryUnderstanding, TimePlan
from rag import relevance


def window_fits_nothing(understood: QueryUnderstanding, meta: dict) -> bool:
    """Return whether the search narrowed to a time window and the relevance gate found
    nothing in it close to the query (not noise, not a question: those are off-topic
    anywhere), or nothing of a kind the query asks for by name.

    A query the intent gate emptied is judged again over every joinable row too: that rule
    answers a query reading like one for something else when a listing stands close enough
    (``rag.relevance.close_enough``), and the window's few rows say nothing about whether one
    does ("dim sum breakfast this sunday": the dim sum brunch stands 0.3 above the background,
    the rows of Sunday morning below it). One read anywhere as a request for something else
    stays empty (issue 30, session 40).
    """
    relevance_meta = meta.get("relevance") or {}
    if understood.time.applied != FILTER:
        return False
    if relevance_meta.get("absent"):
        # Nothing in the window is of the kind asked for by name: one outside it may be.
        return True
    return (
        relevance_meta.get("offTopic", False)
        and not relevance_meta.get("noise")
        and meta.get("reason") != relevance.QUESTION_REASON
    )


def window_only_few(understood: QueryUnderstanding, semantic: str) -> bool:
    """Return whether the query's own time phrase left the few rows of the small path and the
    query asks for something besides the time (then whether anything fits is still a question:
    a window holding three rows says nothing about the request)."""
    return understood.time.applied == FILTER and bool(semantic)


def widen_time(plan: TimePlan) -> TimePlan:
    """Return ``plan`` turned from narrowing to its window(s) into ranking by closeness."""
    reason = "nothing in the window fits the request: ranked by closeness to it"
    return dataclasses.replace(plan, applied=RANK, reason=reason, rows=None)


def mark_outside(results: list[dict], understood: QueryUnderstanding) -> int:
    """Make every result starting outside the query's time window say so; return how many do.

    The one rule for every path of the search (the small path, rank mode, the widening above,
    the absent-kind answer, the sorted and degraded paths): whichever path found a row, and
    whoever wrote its reason (the offline sentences already say it, an LLM's or the plain
    default ones do not), a row outside the window is marked as the closest outside it
    (:func:`activities.reasons.outside_note`). Results need their ``_obj`` (the activity) and
    ``matchReason``.
    """
    plan = understood.time
    if not plan.windows or not plan.phrase:
        return 0
    english = understood.english
    marked = 0
    for result in results:
        activity = result["_obj"]
        if plan.contains(activity.start_at):
            continue
        marked += 1
        note = outside_note(activity, plan.phrase, english=english)
        reason = result.get("matchReason") or ""
        if note.lower() not in reason.lower():  # the offline sentence may start with it
            joiner = "; " if english else "；"
            result["matchReason"] = f"{note}{joiner}{reason}" if reason else note
    return marked
