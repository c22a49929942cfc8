"""The results of the activity search (activities/search.py): how a hit is shown (its
similarity, boost and score rounded as the results are ordered), where it came from
(:func:`provenance`, for an agent to cite) and why it was returned (its match reason)."""

from __future__ import annotations

from django.utils import timezone

from activities.reasons import default_reason, match_reasons


def shown_value(value) -> float:
    """Return a similarity, boost or score as a result shows it (and as results are ordered)."""
    return round(float(value), 4)


def result_of(activity, *, similarity=None, boost=0.0, score=None) -> dict:
    """Return the result of one activity (``_obj`` kept for its match reason, then popped)."""
    distance = getattr(activity, "distance_km", None)
    return {
        "id": activity.pk,
        "title": activity.title,
        "type": activity.type,
        "startAt": timezone.localtime(activity.start_at).isoformat(),
        "locationName": activity.location_name,
        "distanceKm": None if distance is None else round(float(distance), 2),
        "similarity": None if similarity is None else shown_value(similarity),
        "boost": shown_value(boost),
        "score": None if score is None else shown_value(score),
        "matchReason": "",
        "_obj": activity,
    }


def provenance(item: dict, meta: dict) -> dict:
    """Return where a result came from and why it was returned, for an agent to cite."""
    scores = {"similarity": item["similarity"], "boost": item["boost"], "score": item["score"]}
    return {
        "source": {"type": "activity", "id": item["id"]},
        "retrievedBy": meta["path"],
        "hybrid": bool(meta.get("hybrid")),
        "personalised": meta.get("personalised"),
        "scores": scores,
    }


def add_reasons(results: list[dict], query: str, activity_row, context=None) -> None:
    items = [(r["_obj"], r["distanceKm"]) for r in results]
    if not activity_row.match_reasons_enabled:
        english = bool(context and context.english)
        reasons = [default_reason(a, d, english=english) for a, d in items]
    else:
        reasons = match_reasons(
            items, query or None, use_llm=activity_row.llm_match_reasons, context=context
        )
    for result, reason in zip(results, reasons, strict=True):
        result["matchReason"] = reason
