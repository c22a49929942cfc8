from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from config.admin_display import ReadOnlyMixin
from config.admin_live import LiveSettingsAdmin
from rag.models import EmbeddingCache, RagSettings


@admin.register(RagSettings)
class RagSettingsAdmin(LiveSettingsAdmin):
    """The engine's live settings; each app's own are on that app's live settings page."""

    fieldsets = [
        (_("Similarity floors"), {"fields": ["similarity_floors"]}),
        (_("Relevance cut"), {"fields": ["relevance_cuts"]}),
        (_("Vector search"), {"fields": ["ef_search", "exact_search_max_rows", "fusion_k"]}),
    ]


@admin.register(EmbeddingCache)
class EmbeddingCacheAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["model", "role", "content_hash", "created_at"]
    list_filter = ["model", "role"]
    search_fields = ["content_hash"]
    exclude = ["vector"]
    readonly_fields = ["model", "role", "content_hash", "created_at"]
