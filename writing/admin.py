from django.contrib import admin, messages

from writing.models import Book, Chapter, ChildChunk, ParentChunk, StoryBlock
from writing.services import chapter_rechunk


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
        # Blocks edited here go through the same dirty/hash path as the API.
        from rag.embeddings import content_hash

        instances = formset.save(commit=False)
        for obj in formset.deleted_objects:
            obj.delete()
        for block in instances:
            block.content_hash = content_hash(block.content)
            block.is_dirty = True
            block.save()
        if instances or formset.deleted_objects:
            chapter_rechunk(chapter_id=form.instance.pk)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
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
