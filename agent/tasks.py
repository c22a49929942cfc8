"""django-q2 entry points of the proactive triggers (scheduled in ``AgentConfig.ready``).

Each is safe to run twice: the triggers write at most one event per user per period. Webhook
deliveries of the events follow (``event_fanout``, ``webhook_deliveries_send``).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import timezone

from agent import triggers
from agent.models import DeliveryState, SystemEvent, WebhookDelivery
from rag.queues import current_queue, enqueue, queue_for_rows
from rag.work import Work

logger = logging.getLogger(__name__)


def daily_digest() -> str:
    """Write today's digest for every recently active user."""
    return f"{triggers.run_daily_digest()} digests"


def interest_spike() -> str:
    """Look for subjects that keep coming up."""
    return f"{triggers.run_interest_spike()} spikes"


def deadline_reminders() -> str:
    """Remind users of times they mentioned, a day ahead."""
    return f"{triggers.run_deadline_reminders()} reminders"


# --- Event delivery (queue: the queue of the work that wrote the event) ----------------------

DELIVERY_WORK = Work(
    name="agent.webhooks",
    model=WebhookDelivery,
    prefix="delivery",
    done=DeliveryState.DELIVERED,
    task="agent.tasks.webhook_deliveries_send",
    enqueue="agent.tasks.enqueue_deliveries",
    changed_field="created",
    max_attempts=settings.WEBHOOK_MAX_ATTEMPTS,
    backoff_base=settings.WEBHOOK_BACKOFF_SECONDS,
)


def enqueue_deliveries(ids: list[int], *, queue: str | None = None) -> None:
    """Send these deliveries asynchronously (queue: ``queue``, else by count)."""
    enqueue(
        "agent.tasks.webhook_deliveries_send",
        list(ids),
        queue=queue or queue_for_rows(len(ids)),
        group="agent.webhooks",
    )


def event_fanout(event_id: int) -> str:
    """Log a delivery of the event for every webhook that receives it, and send them.

    Safe to run twice: a (webhook, event) pair has one delivery, sent once it is delivered.
    """
    from agent.webhooks import deliveries_create

    event = SystemEvent.objects.filter(pk=event_id).select_related("user").first()
    if event is None:
        return "gone"
    ids = deliveries_create(event=event)
    return webhook_deliveries_send(ids) if ids else "no webhooks"


def webhook_deliveries_send(ids: list[int]) -> str:
    """POST each delivery among ``ids`` that is due; record the answer; retry with backoff.

    Each delivery is claimed (``running``, attempt counted) before its POST, so a worker killed
    mid-request leaves it for the reconciler; a failure keeps the error on the row and
    schedules the next attempt on this task's queue, until the last attempt fails it.
    """
    from agent.webhooks import delivery_post

    claimed = DELIVERY_WORK.claim(ids)
    rows = WebhookDelivery.objects.filter(pk__in=list(claimed)).select_related(
        "webhook", "event", "event__user"
    )
    sent = failed = 0
    for delivery in rows:
        attempt = claimed[delivery.pk]
        try:
            status = delivery_post(delivery)
        except Exception as exc:  # noqa: BLE001 - recorded on the row and retried
            logger.warning("webhook delivery %s failed: %s", delivery.pk, exc)
            failed += 1
            if DELIVERY_WORK.fail([delivery.pk], exc, attempt):
                DELIVERY_WORK.schedule_retry([delivery.pk], attempt, queue=current_queue())
            continue
        sent += 1
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            **DELIVERY_WORK.done_values(), status_code=status, delivered_at=timezone.now()
        )
    return f"{sent} delivered, {failed} failed"
