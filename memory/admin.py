"""Admin: messages (read-only, searchable by user and chat), summaries, preferences, contexts.

Retention and summary thresholds are live settings, edited on the rag settings page.
"""

from django.contrib import admin

from memory.models import (
    ChatMessageProxy,
    ContextEntry,
    Feedback,
    Kind,
    Preference,
    SharedContext,
    SummaryProxy,
)

READ_ONLY_FIELDS = [
    "user",
    "message_id",
    "chat_id",
    "ts",
    "role",
    "kind",
    "content",
    "context_text",
    "summarised",
    "covers_until_ts",
    "covered_count",
    "embed_state",
    "embed_error",
    "embed_attempts",
    "embed_state_at",
    "embedding_model",
    "created_at",
]


class ReadOnlyMixin:
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ChatMessageProxy)
class MessageAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["message_id", "user", "chat_id", "ts", "role", "summarised", "embed_state"]
    list_filter = ["role", "embed_state", "summarised"]
    search_fields = ["user__username", "chat_id", "message_id"]
    fields = READ_ONLY_FIELDS
    readonly_fields = READ_ONLY_FIELDS
    ordering = ["-ts", "message_id"]
    list_select_related = ["user"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(kind=Kind.MESSAGE)


@admin.register(SummaryProxy)
class SummaryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["message_id", "user", "chat_id", "covers_until_ts", "covered_count"]
    search_fields = ["user__username", "chat_id"]
    fields = READ_ONLY_FIELDS
    readonly_fields = READ_ONLY_FIELDS
    ordering = ["-ts"]
    list_select_related = ["user"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(kind=Kind.SUMMARY)


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "category", "value", "updated_at"]
    search_fields = ["user__username", "category", "value"]


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ["user", "target_message_id", "rating", "created_at"]
    search_fields = ["user__username", "target_message_id"]
    raw_id_fields = ["target"]


class ContextEntryInline(admin.TabularInline):
    model = ContextEntry
    extra = 0


@admin.register(SharedContext)
class SharedContextAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "created_at", "updated_at"]
    search_fields = ["title", "owner__username"]
    inlines = [ContextEntryInline]
