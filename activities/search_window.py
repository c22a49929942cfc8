"""The time window of the activity search: when a window's few rows say nothing about whether
the request fits (activities/search.py judges it against every joinable row then), and how a
window that holds nothing close turns from narrowing into ranking by closeness."""

from __future__ import annotations

import dataclasses

from activities.understanding import FILTER, RANK, QueryUnderstanding, TimePlan
from rag import relevance


def window_fits_nothing(understood: QueryUnderstanding, meta: dict) -> bool:
    """Return whether the search narrowed to a time window and the relevance gate found
    nothing in it close to the query (not noise, not a question, not a request for something
    else: those are off-topic anywhere), or nothing of a kind the query asks for by name.
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
        and meta.get("reason") not in (relevance.QUESTION_REASON, relevance.INTENT_REASON)
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
