"""django-q2 tasks: index one activity, retried with backoff when the provider fails."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.utils import timezone

from activities.indexing import embed_activities, is_current, mark_failed, refresh_vibes_with_llm
from activities.models import Activity
from rag.queues import INTERACTIVE, enqueue

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
BACKOFF_BASE_SECONDS = 30.0
BACKOFF_MAX_SECONDS = 3600.0


def backoff_seconds(attempt: int) -> float:
    """Return the wait before retry number ``attempt`` (1-based): 30 s, 60 s, 120 s, ..."""
    return min(BACKOFF_BASE_SECONDS * 2 ** max(attempt - 1, 0), BACKOFF_MAX_SECONDS)


def enqueue_index(activity_id: int, *, queue: str = INTERACTIVE) -> None:
    """Index the activity asynchronously once the current transaction commits.

    Queue: interactive (someone just created or edited it); bulk for re-indexing many.
    """
    enqueue(
        "activities.tasks.activity_index",
        activity_id,
        queue=queue,
        group="activities.index",
        task_name=f"activities.index:{activity_id}",
    )


def schedule_retry(activity_id: int, attempt: int) -> None:
    """Run :func:`activity_index` again after a backoff (one schedule row per activity)."""
    from django_q.models import Schedule

    Schedule.objects.update_or_create(
        name=f"activities.index_retry:{activity_id}",
        defaults={
            "func": "activities.tasks.activity_index",
            "args": repr((activity_id,)),
            "schedule_type": Schedule.ONCE,
            "repeats": -1,  # a ONCE schedule with negative repeats is deleted after it runs
            "next_run": timezone.now() + timedelta(seconds=backoff_seconds(attempt)),
        },
    )


def activity_index(activity_id: int) -> str:
    """Embed the activity unless its vector is current; return a short status string.

    Safe to run twice: the content hash makes a second run for the same text a no-op.
    Never raises: failures are logged, recorded on the row and retried with backoff.
    """
    activity = Activity.objects.filter(pk=activity_id).first()
    if activity is None:
        return "gone"
    try:
        if is_current(activity):
            return "unchanged"
        refresh_vibes_with_llm(activity)
        embed_activities([activity])
        return "indexed"
    except Exception as exc:  # noqa: BLE001 - any failure is recorded, never raised into the write
        logger.warning("indexing activity %s failed: %s", activity_id, exc)
        mark_failed([activity_id], f"{type(exc).__name__}: {exc}")
        attempts = Activity.objects.filter(pk=activity_id).values_list("index_attempts", flat=True)
        attempt = next(iter(attempts), MAX_ATTEMPTS)
        if attempt < MAX_ATTEMPTS:
            schedule_retry(activity_id, attempt)
            return f"failed (retry {attempt} of {MAX_ATTEMPTS - 1} scheduled)"
        return "failed (giving up)"
