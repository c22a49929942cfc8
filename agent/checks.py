"""System checks of the agent app, one id per configuration rule."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register

MIN_PROMPT_BUDGET = 200


@register("agent")
def check_prompt_budget(app_configs=None, **kwargs):
    """agent.E001: the prompt budget must leave room for the system prompt and the message."""
    budget = getattr(settings, "AGENT_PROMPT_BUDGET", None)
    if not isinstance(budget, int) or budget < MIN_PROMPT_BUDGET:
        return [
            Error(
                f"AGENT_PROMPT_BUDGET is {budget!r}; it must be an integer of at least "
                f"{MIN_PROMPT_BUDGET} tokens.",
                hint="Set the AGENT_PROMPT_BUDGET environment variable, e.g. 3000.",
                id="agent.E001",
            )
        ]
    return []
