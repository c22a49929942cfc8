from django.contrib import admin, messages

from activities.models import (
    INDEX_BOOKKEEPING_FIELDS,
    Activity,
    IndexState,
    Participation,
    WorkingMemory,
)


@admin.register(Activity)
class ActivityAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "title",
        "type",
        "status",
        "start_at",
        "current_participants",
        "max_participants",
        "index_state",
        "indexed_at",
    )
    list_filter = ("status", "type", "index_state")
    search_fields = ("title", "description", "location_name")
    readonly_fields = (
        *INDEX_BOOKKEEPING_FIELDS,
        "search_text",
        "vibes",
        "created_at",
        "updated_at",
    )
    exclude = ("embedding",)
    raw_id_fields = ("creator",)
    actions = ["reindex"]

    def save_model(self, request, obj, form, change):
        from activities.text import VIBE_SOURCE_FIELDS
        from activities.vibes import lexicon_vibes

        # The API's service recomputes vibes on these changes; admin edits must not skip it.
        if not change or set(form.changed_data) & set(VIBE_SOURCE_FIELDS):
            obj.vibes = lexicon_vibes(
                type=obj.type, title=obj.title, description=obj.description, tags=obj.tags
            )
        super().save_model(request, obj, form, change)

    @admin.action(description="Re-index the selected activities")
    def reindex(self, request, queryset):
        from activities.tasks import enqueue_index
        from rag.queues import queue_for_rows

        ids = list(queryset.values_list("pk", flat=True))
        # Clearing the hash makes the task re-embed even when the text is unchanged.
        queryset.update(embedding_hash="", index_state=IndexState.PENDING, index_attempts=0)
        queue = queue_for_rows(len(ids))
        for pk in ids:
            enqueue_index(pk, queue=queue)
        self.message_user(request, f"Queued {len(ids)} activities for indexing.", messages.INFO)


@admin.register(Participation)
class ParticipationAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "activity", "joined_at", "feedback")
    list_filter = ("feedback",)
    raw_id_fields = ("user", "activity")
    search_fields = ("user__username", "activity__title")


@admin.register(WorkingMemory)
class WorkingMemoryAdmin(admin.ModelAdmin):
    list_display = ("user", "updated_at")
    raw_id_fields = ("user",)
