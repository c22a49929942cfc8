"""System check agent.E001 (prompt budget)."""

from __future__ import annotations

from django.test import override_settings

from agent.checks import check_prompt_budget


def test_default_budget_passes():
    """The configured default budget raises no error."""
    assert check_prompt_budget() == []


@override_settings(AGENT_PROMPT_BUDGET=50)
def test_tiny_budget_is_e001():
    """A budget too small for a prompt is agent.E001 and names the variable to set."""
    errors = check_prompt_budget()
    assert [e.id for e in errors] == ["agent.E001"]
    assert "AGENT_PROMPT_BUDGET" in errors[0].hint
