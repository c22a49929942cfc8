"""Signal receivers of the agent: schedules after migrate; webhook fan-out of a new event."""

from __future__ import annotations

from django.db import transaction
from django_q.models import Schedule

from agent.models import Webhook
from config.queues import BULK, INTERACTIVE, WEBHOOKS, enqueue_now
from config.schedules import ensure_schedule


def register_agent_schedules(sender, **kwargs):
    """Schedule the four triggers (idempotent: ``ensure_schedule`` updates by name).

    The digest and the spike scan every user: bulk. Deadline and activity reminders are light
    and due at a time: interactive.
    """
    ensure_schedule(
        "agent.tasks.daily_digest",
        name="agent.daily_digest",
        queue=BULK,
        schedule_type=Schedule.DAILY,
    )
    ensure_schedule(
        "agent.tasks.interest_spike",
        name="agent.interest_spike",
        queue=BULK,
        schedule_type=Schedule.HOURLY,
    )
    ensure_schedule(
        "agent.tasks.deadline_reminders",
        name="agent.deadline_reminders",
        queue=INTERACTIVE,
        schedule_type=Schedule.MINUTES,
        minutes=30,
    )
    ensure_schedule(
        "agent.tasks.activity_reminders",
        name="agent.activity_reminders",
        queue=INTERACTIVE,
        schedule_type=Schedule.MINUTES,
        minutes=30,
    )


def event_created(sender, instance, created, **kwargs):
    """Queue the webhook deliveries of a new event once it commits (when any webhook exists).

    Queue: webhooks, whatever wrote the event: receivers, slow or not, never hold an
    interactive or a bulk worker.
    """
    if not created:
        return
    event_id = instance.pk

    def fanout():
        if Webhook.objects.filter(active=True).exists():
            enqueue_now(
                "agent.tasks.event_fanout", event_id, queue=WEBHOOKS, group="agent.webhooks"
            )

    transaction.on_commit(fanout)
