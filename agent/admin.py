from django.contrib import admin

from agent.models import AgentSession, PartnerIntent, SystemEvent, Webhook, WebhookDelivery


@admin.register(SystemEvent)
class SystemEventAdmin(admin.ModelAdmin):
    """Proactive events the triggers wrote (one per user, kind and period)."""

    list_display = ["created", "user", "kind", "period_key", "read_at"]
    list_filter = ["kind"]
    search_fields = ["user__username", "period_key"]
    readonly_fields = ["created"]
    date_hierarchy = "created"


@admin.register(PartnerIntent)
class PartnerIntentAdmin(admin.ModelAdmin):
    list_display = ["created_at", "user", "activity_type", "status"]
    list_filter = ["status", "activity_type"]
    search_fields = ["user__username", "description"]


@admin.register(AgentSession)
class AgentSessionAdmin(admin.ModelAdmin):
    list_display = ["updated_at", "user", "chat_id", "last_intent", "draft_activity_id"]
    search_fields = ["user__username", "chat_id"]


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """Where users' events are POSTed; the secret is shown read-only (it signs each body)."""

    list_display = ["created", "owner", "url", "all_users", "active"]
    list_filter = ["active", "all_users"]
    search_fields = ["owner__username", "url"]
    readonly_fields = ["secret", "created"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    """The delivery log: each event sent to each webhook, its attempts and last error."""

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

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # a log: read it, retry it, never edit it

    @admin.action(description="Retry the selected failed deliveries")
    def retry(self, request, queryset):
        from agent.tasks import enqueue_deliveries
        from agent.webhooks import delivery_retry

        ids = list(queryset.values_list("pk", flat=True))
        count = delivery_retry(delivery_ids=ids)
        if count:
            enqueue_deliveries(ids)
        self.message_user(request, f"{count} deliveries queued again.")
