from django.contrib import admin

from agent.models import AgentSession, PartnerIntent, SystemEvent


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
