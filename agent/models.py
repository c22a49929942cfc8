"""Rows the agent owns: proactive events, partner intents, and per-chat state.

- :class:`SystemEvent`: something a background trigger tells the user first (a daily digest,
  an interest spike, a deadline reminder). ``period_key`` plus the unique constraint makes
  every trigger idempotent: a second run in the same period inserts nothing.
- :class:`PartnerIntent`: "looking for someone to do X with", created by the PARTNER mode.
- :class:`ReminderMute`: an activity a user asked not to be reminded of (不用提醒我).
- :class:`AgentSession`: what the agent remembers about one chat between turns (the last
  intent, the draft being edited, the last location the client sent).
- :class:`AgentSettings`: the triggers' live settings (config.live: one row, edited in the admin).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.live import LiveSettings


class EventKind(models.TextChoices):
    DAILY_DIGEST = "daily_digest", _("daily digest")
    INTEREST_SPIKE = "interest_spike", _("interest spike")
    DEADLINE_REMINDER = "deadline_reminder", _("deadline reminder")
    ACTIVITY_REMINDER = "activity_reminder", _("activity reminder")


class SystemEvent(models.Model):
    """One proactive message for a user; unique per (user, kind, period)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="agent_events",
        verbose_name=_("user"),
    )
    kind = models.CharField(max_length=32, choices=EventKind.choices, verbose_name=_("kind"))
    # E.g. "2026-11-22" for a digest or a spike, "2026-11-27T09:00" (the local due time) for
    # a reminder: whatever makes one event per user per trigger per period.
    period_key = models.CharField(max_length=200, verbose_name=_("period"))
    payload = models.JSONField(default=dict, blank=True, verbose_name=_("payload"))
    read_at = models.DateTimeField(null=True, blank=True, verbose_name=_("read at"))
    created = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("system event")
        verbose_name_plural = _("system events")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "period_key"], name="agent_event_once_per_period"
            )
        ]
        indexes = [models.Index(fields=["user", "-created"], name="agent_event_user_created")]
        ordering = ["-created", "-pk"]

    def __str__(self):
        return gettext("%(kind)s for %(user)s (%(period)s)") % {
            "kind": self.get_kind_display(),
            "user": self.user_id,
            "period": self.period_key,
        }


class PartnerIntentStatus(models.TextChoices):
    OPEN = "open", _("open")
    MATCHED = "matched", _("matched")
    CLOSED = "closed", _("closed")


class PartnerIntent(models.Model):
    """A user looking for company for an activity type, at an optional time."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="partner_intents",
        verbose_name=_("user"),
    )
    activity_type = models.CharField(
        max_length=50, blank=True, default="", verbose_name=_("activity type")
    )
    description = models.TextField(blank=True, default="", verbose_name=_("description"))
    time_range = models.JSONField(null=True, blank=True, verbose_name=_("time range"))
    status = models.CharField(
        max_length=16,
        choices=PartnerIntentStatus.choices,
        default=PartnerIntentStatus.OPEN,
        verbose_name=_("status"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("partner intent")
        verbose_name_plural = _("partner intents")
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        if self.activity_type:
            return gettext("%(user)s looks for company for %(type)s") % {
                "user": self.user_id,
                "type": self.activity_type,
            }
        return gettext("%(user)s looks for company") % {"user": self.user_id}


class ReminderMute(models.Model):
    """A user's "don't remind me" of one activity: the activity reminder
    (``agent.activity_reminders``) writes no reminder of it to them. Saying "remind me" of it
    again removes the row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="agent_reminder_mutes",
        verbose_name=_("user"),
    )
    activity = models.ForeignKey(
        "activities.Activity",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("activity"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("muted reminder")
        verbose_name_plural = _("muted reminders")
        constraints = [
            models.UniqueConstraint(fields=["user", "activity"], name="agent_reminder_mute_once")
        ]

    def __str__(self):
        return gettext("no reminder of %(activity)s for %(user)s") % {
            "activity": self.activity_id,
            "user": self.user_id,
        }


class TaskReminderMute(models.Model):
    """A user's "cancel the reminder about my pills": the reminder of a time their messages told
    (``agent.triggers.told_times``), keyed as the reminder is (``deadline_reminder_key``), is
    not sent. Told again after ``created`` ("remind me to take my pills at 9" once more), it is.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="agent_task_reminder_mutes",
        verbose_name=_("user"),
    )
    period_key = models.CharField(max_length=200, verbose_name=_("period"))
    said = models.TextField(blank=True, verbose_name=_("said"))
    created = models.DateTimeField(verbose_name=_("created"))

    class Meta:
        verbose_name = _("cancelled reminder")
        verbose_name_plural = _("cancelled reminders")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "period_key"], name="agent_task_reminder_mute_once"
            )
        ]

    def __str__(self):
        return gettext("no reminder at %(period)s for %(user)s") % {
            "period": self.period_key,
            "user": self.user_id,
        }


class AgentSession(models.Model):
    """The agent's state of one chat of one user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="agent_sessions",
        verbose_name=_("user"),
    )
    chat_id = models.CharField(max_length=200, verbose_name=_("chat id"))
    last_intent = models.CharField(
        max_length=16, blank=True, default="", verbose_name=_("last intent")
    )
    draft_activity_id = models.BigIntegerField(
        null=True, blank=True, verbose_name=_("draft activity id")
    )
    lat = models.FloatField(null=True, blank=True, verbose_name=_("latitude"))
    lng = models.FloatField(null=True, blank=True, verbose_name=_("longitude"))
    # A state-changing tool call the model proposed, waiting for the user's "确认" next turn:
    # {"name", "arguments", "proposed_at"} (agent/chat.py); any other answer drops it.
    pending_action = models.JSONField(null=True, blank=True, verbose_name=_("pending action"))
    # What the next message can name (agent/references.py): {"ids": the activities the chat's
    # last listing reply showed, in its order ("the first one", 第二个), "for": "cancel" when it
    # asked which to cancel, "focus": the one a later reply was about (报名这个), "search" and
    # "seen": the last search's arguments and the ids it showed (换一批)}.
    shown = models.JSONField(default=dict, blank=True, verbose_name=_("activities shown"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("agent session")
        verbose_name_plural = _("agent sessions")
        constraints = [
            models.UniqueConstraint(fields=["user", "chat_id"], name="agent_session_user_chat")
        ]

    def __str__(self):
        return f"{self.user_id}/{self.chat_id}"


class DisabledReason(models.TextChoices):
    """Why the service turned a webhook off (stored as the code; shown translated)."""

    CONSECUTIVE_FAILURES = "consecutive_failures", _("consecutive failed deliveries")


class Webhook(models.Model):
    """Where to POST a user's proactive events (HMAC-signed), as they are written.

    A user's webhook receives that user's events; a staff client's webhook with ``all_users``
    receives every user's (a service that fans digests out to its own users).
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="agent_webhooks",
        verbose_name=_("owner"),
    )
    url = models.URLField(max_length=2000, verbose_name=_("URL"))
    # Shared with the receiver once, at creation; signs every body (HMAC-SHA256).
    secret = models.CharField(max_length=128, verbose_name=_("secret"))
    all_users = models.BooleanField(
        default=False, help_text=_("Staff only: every user's events."), verbose_name=_("all users")
    )
    kinds = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Event kinds; empty = all."),
        verbose_name=_("event kinds"),
    )
    active = models.BooleanField(default=True, verbose_name=_("active"))
    # POSTs failed in a row (reset by a success); at WEBHOOK_DISABLE_AFTER_FAILURES the webhook
    # is disabled: active false, with when and why, until its owner turns it back on.
    consecutive_failures = models.PositiveIntegerField(
        default=0, verbose_name=_("consecutive failures")
    )
    disabled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("disabled at"))
    # A code (DisabledReason), never text: the owner reads it in their language at read time.
    disabled_reason = models.CharField(
        max_length=200,
        blank=True,
        default="",
        choices=DisabledReason.choices,
        verbose_name=_("disabled reason"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["-created", "-pk"]

    def __str__(self):
        return f"{self.owner_id} -> {self.url}"

    def wants(self, kind: str) -> bool:
        """Return whether this webhook subscribes to events of ``kind``."""
        return not self.kinds or kind in self.kinds

    def disabled_message(self) -> str:
        """Return why the webhook was disabled, in the active language; empty when it was not."""
        if self.disabled_reason == DisabledReason.CONSECUTIVE_FAILURES:
            count = self.consecutive_failures
            return ngettext(
                "Disabled after %(count)d consecutive failed delivery.",
                "Disabled after %(count)d consecutive failed deliveries.",
                count,
            ) % {"count": count}
        return str(self.get_disabled_reason_display()) if self.disabled_reason else ""


class DeliveryState(models.TextChoices):
    PENDING = "pending", _("pending")
    RUNNING = "running", _("running")
    DELIVERED = "delivered", _("delivered")
    FAILED = "failed", _("failed")


class WebhookDelivery(models.Model):
    """One event sent (or to be sent) to one webhook: the delivery log, with retries.

    The ``delivery_*`` columns are the ``config.work`` state machine: claimed before the POST,
    retried with backoff on failure, failed with a visible error after the last attempt.
    """

    webhook = models.ForeignKey(
        Webhook, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("webhook")
    )
    event = models.ForeignKey(
        SystemEvent, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("event")
    )
    delivery_state = models.CharField(
        max_length=16,
        choices=DeliveryState.choices,
        default=DeliveryState.PENDING,
        verbose_name=_("delivery state"),
    )
    delivery_attempts = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("delivery attempts")
    )
    delivery_error = models.TextField(blank=True, default="", verbose_name=_("delivery error"))
    delivery_state_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("delivery state since")
    )
    delivery_task = models.CharField(
        max_length=64, blank=True, default="", verbose_name=_("delivery task")
    )
    status_code = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("status code")
    )
    delivered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("delivered at"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        constraints = [
            models.UniqueConstraint(fields=["webhook", "event"], name="agent_delivery_once")
        ]
        indexes = [
            models.Index(fields=["delivery_state", "delivery_state_at"], name="agent_delivery_st")
        ]
        ordering = ["-created", "-pk"]

    def __str__(self):
        return gettext("event %(event)s -> webhook %(webhook)s: %(state)s") % {
            "event": self.event_id,
            "webhook": self.webhook_id,
            "state": self.get_delivery_state_display(),
        }


class AgentSettings(LiveSettings):
    """The live settings of the proactive triggers: one row, edited in the admin."""

    interest_spike_count = models.PositiveIntegerField(
        default=3, verbose_name=_("interest spike count")
    )
    interest_spike_days = models.PositiveIntegerField(
        default=3, verbose_name=_("interest spike days")
    )
