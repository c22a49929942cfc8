from django.contrib import admin, messages

from writing.models import Book, Chapter, ChildChunk, ParentChunk, StoryBlock
from writing.services import chapter_rechunk, chapter_save


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "created_at"]
    search_fields = ["title", "owner__username"]
    raw_id_fields = ["owner"]


class StoryBlockInline(admin.TabularInline):
    model = StoryBlock
    fields = ["order", "content", "is_dirty", "content_hash"]
    readonly_fields = ["is_dirty", "content_hash"]
    extra = 0
    show_change_link = False


@admin.register(Chapter)
class ChapterAdmin(admin.ModelAdmin):
    list_display = ["title", "book", "sequence", "chunk_state", "chunked_version", "version"]
    list_filter = ["chunk_state"]
    search_fields = ["title", "book__title"]
    readonly_fields = [
        "chunk_state",
        "chunk_error",
        "chunk_attempts",
        "chunk_state_at",
        "chunked_at",
        "version",
        "chunked_version",
        "last_edit_at",
    ]
    inlines = [StoryBlockInline]
    actions = ["rechunk"]

    @admin.action(description="Re-chunk the selected chapters")
    def rechunk(self, request, queryset):
        for chapter in queryset:
            chapter_rechunk(chapter_id=chapter.pk)
        messages.info(request, f"Re-chunking {queryset.count()} chapters.")

    def save_formset(self, request, form, formset, change):
        # Blocks edited here go through chapter_save, like a PUT: only changed blocks become
        # dirty and unchanged ones keep their chunks (ids). save(commit=False) writes nothing;
        # it fills the lists the admin's change message reads.
        formset.save(commit=False)
        if not (formset.new_objects or formset.changed_objects or formset.deleted_objects):
            return
        kept = [
            (f.cleaned_data["order"], i, f.cleaned_data["content"])
            for i, f in enumerate(formset.forms)
            if f not in formset.deleted_forms and (f.instance.pk is not None or f.has_changed())
        ]
        chapter_save(
            user=request.user,
            chapter_id=form.instance.pk,
            blocks=[{"content": content} for _, _, content in sorted(kept)],
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        # Chunks follow their blocks; only the chunking task removes them.
        return False


@admin.register(ParentChunk)
class ParentChunkAdmin(ReadOnlyAdmin):
    list_display = ["pk", "chapter", "first_block", "size", "generation", "created_at"]
    search_fields = ["text"]
    exclude = ["analysis"]


@admin.register(ChildChunk)
class ChildChunkAdmin(ReadOnlyAdmin):
    list_display = ["pk", "parent", "chunk_order", "start", "end", "embedding_model"]
    search_fields = ["text"]
    exclude = ["embedding"]
