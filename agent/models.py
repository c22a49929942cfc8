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
    # A state-changing tool call the model proposed, waiting for the user's "确认" next turn:
    # {"name", "arguments", "proposed_at"} (agent/chat.py); any other answer drops it.
    pending_action = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "chat_id"], name="agent_session_user_chat")
        ]

    def __str__(self):
        return f"{self.user_id}/{self.chat_id}"


class Webhook(models.Model):
    """Where to POST a user's proactive events (HMAC-signed), as they are written.

    A user's webhook receives that user's events; a staff client's webhook with ``all_users``
    receives every user's (a service that fans digests out to its own users).
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agent_webhooks"
    )
    url = models.URLField(max_length=2000)
    # Shared with the receiver once, at creation; signs every body (HMAC-SHA256).
    secret = models.CharField(max_length=128)
    all_users = models.BooleanField(default=False, help_text="Staff only: every user's events.")
    kinds = models.JSONField(default=list, blank=True, help_text="Event kinds; empty = all.")
    active = models.BooleanField(default=True)
    # POSTs failed in a row (reset by a success); at WEBHOOK_DISABLE_AFTER_FAILURES the webhook
    # is disabled: active false, with when and why, until its owner turns it back on.
    consecutive_failures = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self):
        return f"{self.owner_id} -> {self.url}"

    def wants(self, kind: str) -> bool:
        """Return whether this webhook subscribes to events of ``kind``."""
        return not self.kinds or kind in self.kinds


class DeliveryState(models.TextChoices):
    PENDING = "pending", "pending"
    RUNNING = "running", "running"
    DELIVERED = "delivered", "delivered"
    FAILED = "failed", "failed"


class WebhookDelivery(models.Model):
    """One event sent (or to be sent) to one webhook: the delivery log, with retries.

    The ``delivery_*`` columns are the ``rag.work`` state machine: claimed before the POST,
    retried with backoff on failure, failed with a visible error after the last attempt.
    """

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(SystemEvent, on_delete=models.CASCADE, related_name="deliveries")
    delivery_state = models.CharField(
        max_length=16, choices=DeliveryState.choices, default=DeliveryState.PENDING
    )
    delivery_attempts = models.PositiveSmallIntegerField(default=0)
    delivery_error = models.TextField(blank=True, default="")
    delivery_state_at = models.DateTimeField(null=True, blank=True)
    delivery_task = models.CharField(max_length=64, blank=True, default="")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["webhook", "event"], name="agent_delivery_once")
        ]
        indexes = [
            models.Index(fields=["delivery_state", "delivery_state_at"], name="agent_delivery_st")
        ]
        ordering = ["-created", "-pk"]
        verbose_name_plural = "webhook deliveries"

    def __str__(self):
        return f"event {self.event_id} -> webhook {self.webhook_id}: {self.delivery_state}"
