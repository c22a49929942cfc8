"""Reads of the agent app: its live settings and the draft a chat edits."""

from __future__ import annotations

from activities.models import Activity, ActivityStatus
from agent.models import AgentSession, AgentSettings
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
