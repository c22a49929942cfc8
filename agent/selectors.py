"""Reads of the agent app: its live settings and the draft a chat edits."""

from __future__ import annotations

from activities.models import Activity, ActivityStatus
from agent.models import AgentSession, AgentSettings, PartnerIntent, PartnerIntentStatus
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


def partner_intents_open(*, user) -> list[tuple[PartnerIntent, int]]:
    """Return the user's open partner searches, newest first, each with how many other users
    look for company of the same kind (every open one, when the search names no kind)."""
    others = PartnerIntent.objects.filter(status=PartnerIntentStatus.OPEN).exclude(user=user)
    found = []
    for intent in PartnerIntent.objects.filter(user=user, status=PartnerIntentStatus.OPEN).order_by(
        "-created_at", "-pk"
    )[:10]:
        same = others.filter(activity_type=intent.activity_type) if intent.activity_type else others
        found.append((intent, same.count()))
    return found
