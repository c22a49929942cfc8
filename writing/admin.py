from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from config.admin_display import ReadOnlyMixin, compact_text, short_column
from config.admin_live import LiveSettingsAdmin
from writing.models import Book, Chapter, ChildChunk, ParentChunk, StoryBlock, WritingSettings
from writing.services import chapter_rechunk, chapter_save


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ["short_title", "owner", "created_at"]
    search_fields = ["title", "owner__username"]
    raw_id_fields = ["owner"]

    short_title = short_column("title", _("title"), ordering="title")


class StoryBlockInline(admin.TabularInline):
    """The chapter's blocks: collapsed, each in a small text box (a chapter has dozens)."""

    model = StoryBlock
    fields = ["order", "content", "length", "is_dirty"]
    readonly_fields = ["length", "is_dirty"]
    extra = 0
    show_change_link = False
    classes = ["collapse"]
    formfield_overrides = compact_text(70)

    @admin.display(description=_("characters"))
    def length(self, obj):
        return len(obj.content or "")


@admin.register(Chapter)
class ChapterAdmin(admin.ModelAdmin):
    list_display = [
        "short_title",
        "book_title",
        "sequence",
        "chunk_state",
        "chunked_version",
        "version",
    ]
    list_select_related = ["book"]
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

    short_title = short_column("title", _("title"), ordering="title")

    book_title = short_column("book.title", _("book"), limit=40, ordering="book__title")

    @admin.action(description=_("Re-chunk the selected chapters"))
    def rechunk(self, request, queryset):
        count = 0
        for chapter in queryset:
            chapter_rechunk(chapter_id=chapter.pk)
            count += 1
        messages.info(
            request,
            ngettext("Re-chunking %(count)d chapter.", "Re-chunking %(count)d chapters.", count)
            % {"count": count},
        )

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


class ReadOnlyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    def has_delete_permission(self, request, obj=None):
        # Chunks follow their blocks; only the chunking task removes them.
        return False


@admin.register(ParentChunk)
class ParentChunkAdmin(ReadOnlyAdmin):
    list_display = [
        "pk",
        "chapter",
        "first_block",
        "size",
        "short_text",
        "generation",
        "created_at",
    ]
    list_select_related = ["chapter"]
    search_fields = ["text"]
    exclude = ["analysis"]

    short_text = short_column("text", _("text"))


@admin.register(ChildChunk)
class ChildChunkAdmin(ReadOnlyAdmin):
    list_display = ["pk", "parent", "chunk_order", "start", "end", "short_text", "embedding_model"]
    search_fields = ["text"]
    exclude = ["embedding", "chunk_level"]

    short_text = short_column("text", _("text"))


@admin.register(WritingSettings)
class WritingSettingsAdmin(LiveSettingsAdmin):
    """Writing's live settings: the next chunking run, search or autosave reads a saved change."""

    fieldsets = [
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
    ]
