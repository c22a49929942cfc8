"""Signal receivers of the agent: schedules after migrate."""

from __future__ import annotations


def register_agent_schedules(sender, **kwargs):
    """Schedule the three triggers (idempotent: ``ensure_schedule`` updates by name).

    The digest and the spike scan every user: bulk. Deadline reminders are light and due at a
    time: interactive.
    """
    from django_q.models import Schedule

    from rag.queues import BULK, INTERACTIVE
    from rag.schedules import ensure_schedule

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
