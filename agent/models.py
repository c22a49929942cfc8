"""Rows the agent owns: proactive events, partner intents, and per-chat state.

- :class:`SystemEvent`: something a background trigger tells the user first (a daily digest,
  an interest spike, a deadline reminder). ``period_key`` plus the unique constraint makes
  every trigger idempotent: a second run in the same period inserts nothing.
- :class:`PartnerIntent`: "looking for someone to do X with", created by the PARTNER mode.
- :class:`AgentSession`: what the agent remembers about one chat between turns (the last
  intent, the draft being edited, the last location the client sent).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EventKind(models.TextChoices):
    DAILY_DIGEST = "daily_digest", "daily digest"
    INTEREST_SPIKE = "interest_spike", "interest spike"
    DEADLINE_REMINDER = "deadline_reminder", "deadline reminder"


class SystemEvent(models.Model):
    """One proactive message for a user; unique per (user, kind, period)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agent_events"
    )
    kind = models.CharField(max_length=32, choices=EventKind.choices)
    # E.g. "2026-11-22" for a digest or a spike, "2026-11-27T09:00" (the local due time) for
    # a reminder: whatever makes one event per user per trigger per period.
    period_key = models.CharField(max_length=200)
    payload = models.JSONField(default=dict, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "period_key"], name="agent_event_once_per_period"
            )
        ]
        indexes = [models.Index(fields=["user", "-created"], name="agent_event_user_created")]
        ordering = ["-created", "-pk"]

    def __str__(self):
        return f"{self.kind} for {self.user_id} ({self.period_key})"


class PartnerIntentStatus(models.TextChoices):
    OPEN = "open", "open"
    MATCHED = "matched", "matched"
    CLOSED = "closed", "closed"


class PartnerIntent(models.Model):
    """A user looking for company for an activity type, at an optional time."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="partner_intents"
    )
    activity_type = models.CharField(max_length=50, blank=True, default="")
    description = models.TextField(blank=True, default="")
    time_range = models.JSONField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=PartnerIntentStatus.choices, default=PartnerIntentStatus.OPEN
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.user_id} looks for {self.activity_type or 'company'}"


class AgentSession(models.Model):
    """The agent's state of one chat of one user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agent_sessions"
    )
    chat_id = models.CharField(max_length=200)
    last_intent = models.CharField(max_length=16, blank=True, default="")
    draft_activity_id = models.BigIntegerField(null=True, blank=True)
    lat = models.FloatField(null=True, blank=True)
    lng = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "chat_id"], name="agent_session_user_chat")
        ]

    def __str__(self):
        return f"{self.user_id}/{self.chat_id}"
