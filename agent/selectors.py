"""Reads of the agent app: its live settings."""

from __future__ import annotations

from agent.models import AgentSettings
from config import live


def agent_settings_get() -> AgentSettings:
    """Return the live settings of the proactive triggers (config.live: cached, dropped on save)."""
    return live.read(AgentSettings)
