"""Signal receivers of the agent: schedules after migrate."""

from __future__ import annotations


def register_agent_schedules(sender, **kwargs):
    """Schedule the three triggers (idempotent: ``ensure_schedule`` updates by name)."""
    from django_q.models import Schedule

    from rag.schedules import ensure_schedule

    ensure_schedule(
        "agent.tasks.daily_digest", name="agent.daily_digest", schedule_type=Schedule.DAILY
    )
    ensure_schedule(
        "agent.tasks.interest_spike", name="agent.interest_spike", schedule_type=Schedule.HOURLY
    )
    ensure_schedule(
        "agent.tasks.deadline_reminders",
        name="agent.deadline_reminders",
        schedule_type=Schedule.MINUTES,
        minutes=30,
    )
