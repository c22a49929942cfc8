from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from rag.models import EmbeddingCache, RagSettings


@admin.register(RagSettings)
class RagSettingsAdmin(admin.ModelAdmin):
    """The live settings: one row; saving it takes effect on the next call."""

    fieldsets = [
        (_("Similarity floors"), {"fields": ["similarity_floors"]}),
        (_("Relevance cut"), {"fields": ["relevance_cuts", "activities_hybrid"]}),
        (_("Vector search"), {"fields": ["ef_search", "exact_search_max_rows", "fusion_k"]}),
        (
            _("Chunking"),
            {
                "fields": [
                    "cliff_mode",
                    "cliff_threshold",
                    "cliff_percentile",
                    "child_min_chars",
                    "child_max_chars",
                    "parent_min_chars",
                    "parent_max_chars",
                    "context_window_chars",
                    "parent_size_normalization",
                    "debounce_seconds",
                ]
            },
        ),
        (
            _("Activities"),
            {"fields": ["match_reasons_enabled", "llm_match_reasons", "personal_boost_max"]},
        ),
        (
            _("Memory and triggers"),
            {
                "fields": [
                    "summary_trigger_messages",
                    "summary_max_chars",
                    "retention_enabled",
                    "retention_days",
                    "interest_spike_count",
                    "interest_spike_days",
                ]
            },
        ),
    ]
    readonly_fields = ["updated_at"]

    def has_add_permission(self, request):
        return not RagSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        # One row: go straight to its form.
        from django.shortcuts import redirect

        from rag.live import get_settings

        return redirect("admin:rag_ragsettings_change", get_settings().pk)


@admin.register(EmbeddingCache)
class EmbeddingCacheAdmin(admin.ModelAdmin):
    list_display = ["model", "role", "content_hash", "created_at"]
    list_filter = ["model", "role"]
    search_fields = ["content_hash"]
    exclude = ["vector"]
    readonly_fields = ["model", "role", "content_hash", "created_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
