"""django-q2 tasks: index one activity, retried with backoff when the provider fails.

The row is claimed (``running``, attempt counted) before any work, so a task ended by the
worker timeout or a killed worker leaves evidence the reconciler acts on (``config.work``).
"""

from __future__ import annotations

import logging

from activities.indexing import embed_activities, refresh_vibes_with_llm
from activities.models import Activity, IndexState
from activities.selectors import is_current
from config.queues import INTERACTIVE, current_queue, enqueue, queue_for_rows
from config.work import Work, backoff_seconds  # noqa: F401  (backoff_seconds: part of this API)

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
BACKOFF_BASE_SECONDS = 30.0

INDEX_WORK = Work(
    name="activities.index",
    model=Activity,
    prefix="index",
    done=IndexState.INDEXED,
    task="activities.tasks.activity_index",
    enqueue="activities.tasks.enqueue_index_many",
    changed_field="updated_at",
    max_attempts=MAX_ATTEMPTS,
    backoff_base=BACKOFF_BASE_SECONDS,
)


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


def enqueue_index_many(activity_ids: list[int], *, queue: str | None = None) -> None:
    """Index each of these activities (the reconciler's and the retries' entry point).

    Queue: ``queue`` when given (the reconciler and retries say), else by count
    (``config.queues.queue_for_rows``): a few rows interactive, many bulk.
    """
    queue = queue or queue_for_rows(len(activity_ids))
    for activity_id in activity_ids:
        enqueue_index(activity_id, queue=queue)


def activity_index(activity_id: int) -> str:
    """Embed the activity unless its vector is current; return a short status string.

    Safe to run twice: the content hash makes a second run for the same text a no-op, and a
    row another task is running is not claimed. Never raises: failures are logged, recorded
    on the row and retried with backoff, at most ``MAX_ATTEMPTS`` attempts in all.
    """
    activity = Activity.objects.filter(pk=activity_id).first()
    if activity is None:
        return "gone"
    if is_current(activity):
        # A re-queued row whose vector a previous run already wrote: settle its state.
        Activity.objects.filter(pk=activity_id, index_state=IndexState.PENDING).update(
            **INDEX_WORK.done_values()
        )
        return "unchanged"
    claimed = INDEX_WORK.claim([activity_id])
    if not claimed:
        return "not claimed (running elsewhere, or attempts exhausted)"
    attempt = claimed[activity_id]
    try:
        refresh_vibes_with_llm(activity)
        embed_activities([activity])
        return "indexed"
    except Exception as exc:  # noqa: BLE001 - any failure is recorded, never raised into the write
        logger.warning("indexing activity %s failed: %s", activity_id, exc)
        if INDEX_WORK.fail([activity_id], exc, attempt):
            # On the queue the failed task ran on (its cluster runs the schedule).
            INDEX_WORK.schedule_retry([activity_id], attempt, queue=current_queue())
            return f"failed (retry {attempt} of {MAX_ATTEMPTS - 1} scheduled)"
        return "failed (giving up)"
