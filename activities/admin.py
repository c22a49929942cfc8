from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from activities.models import (
    INDEX_BOOKKEEPING_FIELDS,
    Activity,
    IndexState,
    Participation,
    WorkingMemory,
)
from config.admin_display import machine_text, shorten


@admin.register(Activity)
class ActivityAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "short_title",
        "type",
        "status",
        "start_at",
        "current_participants",
        "max_participants",
        "index_state",
        "indexed_at",
    )
    list_display_links = ("id", "short_title")
    list_filter = ("status", "type", "index_state")
    search_fields = ("title", "description", "location_name")
    readonly_fields = (
        *INDEX_BOOKKEEPING_FIELDS,
        "indexed_text",
        "vibes",
        "created_at",
        "updated_at",
    )
    exclude = ("embedding", "search_text")
    raw_id_fields = ("creator",)
    actions = ["reindex"]

    @admin.display(description=_("title"), ordering="title")
    def short_title(self, obj):
        return shorten(obj.title)

    @admin.display(description=_("search text"))
    def indexed_text(self, obj):
        return machine_text(obj.search_text)

    def save_model(self, request, obj, form, change):
        from activities.text import VIBE_SOURCE_FIELDS
        from activities.vibes import lexicon_vibes

        # The API's service recomputes vibes on these changes; admin edits must not skip it.
        if not change or set(form.changed_data) & set(VIBE_SOURCE_FIELDS):
            obj.vibes = lexicon_vibes(
                type=obj.type, title=obj.title, description=obj.description, tags=obj.tags
            )
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Re-index the selected activities"))
    def reindex(self, request, queryset):
        from activities.tasks import enqueue_index
        from rag.queues import queue_for_rows

        ids = list(queryset.values_list("pk", flat=True))
        # Clearing the hash makes the task re-embed even when the text is unchanged.
        queryset.update(embedding_hash="", index_state=IndexState.PENDING, index_attempts=0)
        queue = queue_for_rows(len(ids))
        for pk in ids:
            enqueue_index(pk, queue=queue)
        self.message_user(
            request,
            ngettext(
                "Queued %(count)d activity for indexing.",
                "Queued %(count)d activities for indexing.",
                len(ids),
            )
            % {"count": len(ids)},
            messages.INFO,
        )


@admin.register(Participation)
class ParticipationAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "activity_title", "joined_at", "feedback")
    list_filter = ("feedback",)
    raw_id_fields = ("user", "activity")
    search_fields = ("user__username", "activity__title")
    list_select_related = ("user", "activity")

    @admin.display(description=_("activity"), ordering="activity__title")
    def activity_title(self, obj):
        return shorten(obj.activity.title)


@admin.register(WorkingMemory)
class WorkingMemoryAdmin(admin.ModelAdmin):
    list_display = ("user", "updated_at")
    raw_id_fields = ("user",)
