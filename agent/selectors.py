"""Reads of the agent app: its live settings and the draft a chat edits."""

from __future__ import annotations

from datetime import datetime

from activities.models import Activity, ActivityStatus
from agent.models import (
    AgentSession,
    AgentSettings,
    PartnerIntent,
    PartnerIntentStatus,
    ReminderMute,
    SystemEvent,
    TaskReminderMute,
)
from config import live


def agent_settings_get() -> AgentSettings:
    """Return the live settings of the proactive triggers (config.live: cached, dropped on save)."""
    return live.read(AgentSettings)


def chat_draft(*, user, chat_id: str) -> Activity | None:
    """Return the draft this chat edits: still a draft, the user's (None when it edits none)."""
    draft_id = (
        AgentSession.objects.filter(user=user, chat_id=chat_id)
        .values_list("draft_activity_id", flat=True)
        .first()
    )
    if draft_id is None:
        return None
    return Activity.objects.filter(pk=draft_id, creator=user, status=ActivityStatus.DRAFT).first()


def others_looking(*, user, activity_type: str) -> int:
    """Return how many other users have an open search for company of ``activity_type`` (of
    any kind, when it names none): people, not searches (one asking twice counts once)."""
    others = PartnerIntent.objects.filter(status=PartnerIntentStatus.OPEN).exclude(user=user)
    if activity_type:
        others = others.filter(activity_type=activity_type)
    return others.values("user").distinct().count()


def partner_intents_open(*, user) -> list[tuple[PartnerIntent, int]]:
    """Return the user's open searches for company, newest first (at most ten), each with
    :func:`others_looking` for its kind."""
    intents = PartnerIntent.objects.filter(user=user, status=PartnerIntentStatus.OPEN)
    return [
        (intent, others_looking(user=user, activity_type=intent.activity_type))
        for intent in intents.order_by("-created_at", "-pk")[:10]
    ]


def events_recorded(*, user, kind: str, period_keys) -> set[str]:
    """Return which of these periods already hold an event of ``kind`` for the user."""
    return set(
        SystemEvent.objects.filter(
            user=user, kind=kind, period_key__in=list(period_keys)
        ).values_list("period_key", flat=True)
    )


def reminders_muted(*, activity_ids) -> set[tuple[int, int]]:
    """Return ``(user id, activity id)`` of every muted reminder of these activities."""
    return set(
        ReminderMute.objects.filter(activity_id__in=list(activity_ids)).values_list(
            "user_id", "activity_id"
        )
    )


def task_reminders_cancelled(*, user, period_keys) -> dict[str, datetime]:
    """Return when the user cancelled each of these told reminders (by period key)."""
    return dict(
        TaskReminderMute.objects.filter(user=user, period_key__in=list(period_keys)).values_list(
            "period_key", "created"
        )
    )
