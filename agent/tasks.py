"""django-q2 entry points of the proactive triggers (scheduled in ``AgentConfig.ready``).

Each is safe to run twice: the triggers write at most one event per user per period. Webhook
deliveries of the events follow (``event_fanout``, ``webhook_deliveries_send``).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import timezone

from agent import triggers
from agent.activity_reminders import run_activity_reminders
from agent.models import DeliveryState, SystemEvent, WebhookDelivery
from agent.webhooks import (
    deliveries_create,
    delivery_post,
    enqueue_deliveries,
    owner_slot,
    webhook_record_failure,
    webhook_record_success,
)
from config.queues import WEBHOOKS, enqueue_later
from config.work import Work

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


def activity_reminders() -> str:
    """Remind users of the activities they are on, a day ahead."""
    return f"{run_activity_reminders()} reminders"


# --- Event delivery (queue: webhooks, its own cluster) -----------------------------------------

# A delivery whose owner has every slot taken waits this long before it is queued again.
SLOT_WAIT_SECONDS = 5

DELIVERY_WORK = Work(
    name="agent.webhooks",
    model=WebhookDelivery,
    prefix="delivery",
    done=DeliveryState.DELIVERED,
    task="agent.tasks.webhook_deliveries_send",
    enqueue="agent.webhooks.enqueue_deliveries",
    changed_field="created",
    max_attempts=settings.WEBHOOK_MAX_ATTEMPTS,
    backoff_base=settings.WEBHOOK_BACKOFF_SECONDS,
)


def _wait_for_slot(pk: int) -> None:
    """Queue the delivery again in a few seconds (its owner's slots are all busy)."""
    enqueue_later(
        DELIVERY_WORK.enqueue,
        [pk],
        queue=WEBHOOKS,
        key=f"agent.webhooks.wait:{pk}",
        delay=SLOT_WAIT_SECONDS,
    )


def event_fanout(event_id: int) -> str:
    """Log a delivery of the event for every webhook that receives it, and queue them.

    Safe to run twice: a (webhook, event) pair has one delivery, sent once it is delivered.
    """
    event = SystemEvent.objects.filter(pk=event_id).select_related("user").first()
    if event is None:
        return "gone"
    ids = deliveries_create(event=event)
    enqueue_deliveries(ids)
    return f"{len(ids)} queued" if ids else "no webhooks"


def webhook_deliveries_send(ids: list[int]) -> str:
    """POST each delivery among ``ids`` that is due; record the answer; retry with backoff.

    A delivery of a disabled webhook is failed at once (no POST, no retry). Each POST holds one
    of its owner's slots (``WEBHOOK_MAX_CONCURRENT_PER_OWNER``); with none free the delivery
    waits a few seconds, no attempt counted. Each delivery is claimed (``running``, attempt
    counted) before its POST, so a worker killed mid-request leaves it for the reconciler; a
    failure keeps the error on the row (admin and log only) and schedules the next attempt,
    until the last attempt fails it.
    """
    WebhookDelivery.objects.filter(
        pk__in=list(ids),
        webhook__active=False,
        delivery_state__in=[DeliveryState.PENDING, DeliveryState.FAILED],
    ).update(
        delivery_state=DeliveryState.FAILED,
        # Attempts exhausted: the reconciler must not queue it again (admin: retry).
        delivery_attempts=DELIVERY_WORK.max_attempts,
        delivery_error="webhook disabled",
        delivery_state_at=timezone.now(),
    )
    due = WebhookDelivery.objects.filter(pk__in=list(ids), webhook__active=True).values_list(
        "pk", "webhook__owner_id"
    )
    sent = failed = waiting = 0
    for pk, owner_id in due:
        with owner_slot(owner_id) as free:
            if not free:
                waiting += 1
                _wait_for_slot(pk)
                continue
            claimed = DELIVERY_WORK.claim([pk])
            if pk not in claimed:
                continue
            delivery = WebhookDelivery.objects.select_related(
                "webhook", "event", "event__user"
            ).get(pk=pk)
            try:
                status = delivery_post(delivery)
            except Exception as exc:  # noqa: BLE001 - recorded on the row and retried
                logger.warning("webhook delivery %s failed: %s", pk, exc)
                failed += 1
                disabled = webhook_record_failure(webhook_id=delivery.webhook_id)
                retry = DELIVERY_WORK.fail([pk], exc, claimed[pk])
                if retry and not disabled:
                    DELIVERY_WORK.schedule_retry([pk], claimed[pk], queue=WEBHOOKS)
                continue
        sent += 1
        webhook_record_success(webhook_id=delivery.webhook_id)
        WebhookDelivery.objects.filter(pk=pk).update(
            **DELIVERY_WORK.done_values(), status_code=status, delivered_at=timezone.now()
        )
    return f"{sent} delivered, {failed} failed, {waiting} waiting for a slot"
