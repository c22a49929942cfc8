"""Rebuild a user's working memory (interest vectors and learned preferences) from their likes.

Kept out of services.py: indexing calls it after embedding, and services reaches indexing
through tasks (``enqueue_index``), so living in services would make an import cycle.
"""

from __future__ import annotations

from django.db import transaction

from activities.models import Participation, WorkingMemory
from activities.personalize import MIN_POSITIVES
from activities.text import local_time, part_of_day

MAX_INTEREST_VECTORS = 3
MAX_PREFERENCE_ITEMS = 5


def _push(values: list, new_items: list, limit: int) -> list:
    """Return values with new_items moved to the front, unique, at most limit long."""
    out = [v for v in new_items if v]
    out += [v for v in values if v not in out]
    return out[:limit]


def working_memory_refresh(*, user_id: int) -> WorkingMemory:
    """Rebuild ``interestVectors`` from the user's 3 latest +1 participations.

    Vectors are stored only once the user has at least ``MIN_POSITIVES`` (3) +1 participations
    (seed 000): below that the list stays empty and search ranks by preferences. ``positives``
    records the count, so the reader applies the same rule.

    Each entry stores that activity's own embedding and the model that made it: vectors are
    never averaged, so MaxSim can match any one interest, and a vector of another model can be
    told apart (and ignored) after a provider switch. Liked activities not yet embedded are
    skipped; indexing them calls :func:`working_memory_refresh_for_activities`. Liked types,
    vibes and times of day become preferences.
    """
    liked = list(
        Participation.objects.filter(user_id=user_id, feedback=1)
        .select_related("activity")
        .order_by("-joined_at", "-pk")
    )
    entries = []
    for participation in liked if len(liked) >= MIN_POSITIVES else []:
        activity = participation.activity
        if activity.embedding is None:
            continue
        entries.append(
            {
                "activityId": activity.pk,
                "embedding": [float(x) for x in activity.embedding],
                "model": activity.embedding_model,
                "participatedAt": participation.joined_at.isoformat(),
            }
        )
        if len(entries) == MAX_INTEREST_VECTORS:
            break
    memory, _ = WorkingMemory.objects.select_for_update().get_or_create(user_id=user_id)
    data = dict(memory.data or {})
    prefs = dict(data.get("preferences") or {})
    recent = [p.activity for p in liked[:MAX_PREFERENCE_ITEMS]]
    prefs["likedTypes"] = _push(
        prefs.get("likedTypes", []), [a.type for a in recent], MAX_PREFERENCE_ITEMS
    )
    prefs["vibes"] = _push(
        prefs.get("vibes", []), [v for a in recent for v in (a.vibes or [])], MAX_PREFERENCE_ITEMS
    )
    prefs["timesOfDay"] = _push(
        prefs.get("timesOfDay", []),
        [part_of_day(local_time(a.start_at, a.time_zone).hour) for a in recent],
        MAX_PREFERENCE_ITEMS,
    )
    data["interestVectors"] = entries
    data["positives"] = len(liked)
    data["preferences"] = prefs
    memory.data = data
    memory.save()
    return memory


def working_memory_refresh_for_activities(*, activity_ids) -> int:
    """Rebuild the working memory of every user who rated one of these activities +1.

    Called after the activities were (re-)embedded, so a like given before the first embedding
    gains its vector and a re-embedded activity leaves no stale copy. Return the users refreshed.
    """
    user_ids = sorted(
        set(
            Participation.objects.filter(activity_id__in=list(activity_ids), feedback=1)
            .values_list("user_id", flat=True)
            .distinct()
        )
    )
    with transaction.atomic():
        for user_id in user_ids:
            working_memory_refresh(user_id=user_id)
    return len(user_ids)
