from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from agent.models import (
    AgentSession,
    AgentSettings,
    PartnerIntent,
    ReminderMute,
    SystemEvent,
    TaskReminderMute,
    Webhook,
    WebhookDelivery,
)
from agent.webhooks import delivery_retry
from config.admin_display import ReadOnlyMixin, short_column
from config.admin_live import LiveSettingsAdmin


@admin.register(SystemEvent)
class SystemEventAdmin(admin.ModelAdmin):
    """Proactive events the triggers wrote (one per user, kind and period)."""

    list_display = ["created", "user", "kind", "short_period", "read_at"]
    list_filter = ["kind"]
    search_fields = ["user__username", "period_key"]
    readonly_fields = ["created"]
    date_hierarchy = "created"

    short_period = short_column("period_key", _("period"), ordering="period_key")


@admin.register(PartnerIntent)
class PartnerIntentAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "activity_type", "short_description", "status"]
    list_filter = ["status", "activity_type"]
    search_fields = ["user__username", "description"]

    short_description = short_column("description", _("description"))


@admin.register(ReminderMute)
class ReminderMuteAdmin(admin.ModelAdmin):
    """Activities a user asked not to be reminded of (不用提醒我); deleting a row reminds again."""

    list_display = ["created", "user", "activity"]
    search_fields = ["user__username", "activity__title"]
    raw_id_fields = ["user", "activity"]
    readonly_fields = ["created"]


@admin.register(TaskReminderMute)
class TaskReminderMuteAdmin(admin.ModelAdmin):
    """Reminders of told times a user cancelled ("cancel the reminder about my pills"); deleting
    a row sends the reminder again."""

    list_display = ["created", "user", "period_key", "said"]
    search_fields = ["user__username", "said"]
    raw_id_fields = ["user"]
    readonly_fields = ["created"]


@admin.register(AgentSession)
class AgentSessionAdmin(admin.ModelAdmin):
    list_display = ["updated_at", "user", "short_chat_id", "last_intent", "draft_activity_id"]
    search_fields = ["user__username", "chat_id"]

    short_chat_id = short_column("chat_id", _("chat id"), ordering="chat_id")


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """Where users' events are POSTed; the secret is shown read-only (it signs each body)."""

    list_display = ["created", "owner", "short_url", "all_users", "active"]
    list_filter = ["active", "all_users"]
    search_fields = ["owner__username", "url"]
    readonly_fields = ["secret", "created"]

    short_url = short_column("url", _("URL"), ordering="url")


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The delivery log: each event sent to each webhook, its attempts and last error.

    A log: read it, retry it, never edit it.
    """

    list_display = [
        "created",
        "webhook",
        "event",
        "delivery_state",
        "delivery_attempts",
        "status_code",
        "delivered_at",
    ]
    list_filter = ["delivery_state"]
    search_fields = ["webhook__url", "webhook__owner__username", "delivery_error"]
    actions = ["retry"]

    @admin.action(description=_("Retry the selected failed deliveries"))
    def retry(self, request, queryset):
        count = delivery_retry(delivery_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext(
                "%(count)d delivery queued again.", "%(count)d deliveries queued again.", count
            )
            % {"count": count},
        )


@admin.register(AgentSettings)
class AgentSettingsAdmin(LiveSettingsAdmin):
    """The triggers' live settings: the next trigger run reads a saved change."""

    fields = ["interest_spike_count", "interest_spike_days"]
