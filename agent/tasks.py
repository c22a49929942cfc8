"""django-q2 entry points of the proactive triggers (scheduled in ``AgentConfig.ready``).

Each is safe to run twice: the triggers write at most one event per user per period.
"""

from __future__ import annotations

from agent import triggers


def daily_digest() -> str:
    """Write today's digest for every recently active user."""
    return f"{triggers.run_daily_digest()} digests"


def interest_spike() -> str:
    """Look for subjects that keep coming up."""
    return f"{triggers.run_interest_spike()} spikes"


def deadline_reminders() -> str:
    """Remind users of times they mentioned, a day ahead."""
    return f"{triggers.run_deadline_reminders()} reminders"
