"""Books, chapters, story blocks and their parent/child chunks.

A chapter is a list of story blocks. Chunking groups the blocks of one chapter into
parent chunks (one block, part of an over-long block, or several short neighbouring
blocks) and packs each parent's sentences into child chunks; only children carry
vectors. See docs/writing.md.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex

from config.live import LiveSettings
from rag.chunking import child_hard_max
from rag.models import Embedded
from rag.search import fulltext_index


class Book(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="writing_books",
        verbose_name=_("owner"),
    )
    title = models.CharField(max_length=200, verbose_name=_("title"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("book")
        verbose_name_plural = _("books")
        ordering = ["pk"]

    def __str__(self):
        return self.title


class ChunkState(models.TextChoices):
    PENDING = "pending", _("pending")
    RUNNING = "running", _("running")
    READY = "ready", _("ready")
    FAILED = "failed", _("failed")


class Chapter(models.Model):
    book = models.ForeignKey(
        Book, on_delete=models.CASCADE, related_name="chapters", verbose_name=_("book")
    )
    title = models.CharField(max_length=200, verbose_name=_("title"))
    sequence = models.IntegerField(default=0, verbose_name=_("sequence"))
    chunk_state = models.CharField(
        max_length=16,
        choices=ChunkState.choices,
        default=ChunkState.PENDING,
        db_index=True,
        verbose_name=_("chunking state"),
    )
    chunk_error = models.TextField(blank=True, default="", verbose_name=_("chunking error"))
    chunk_attempts = models.PositiveIntegerField(default=0, verbose_name=_("chunking attempts"))
    # When the chapter entered its chunk state, or was last re-queued (config.work).
    chunk_state_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("chunking state since")
    )
    # The django-q2 id of the task that last claimed the row: the same task, handed back by a
    # worker stop, takes its running row back at once (config.work.Work.claim).
    chunk_task = models.CharField(
        max_length=64, blank=True, default="", editable=False, verbose_name=_("chunking task")
    )
    chunked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("chunked at"))
    # Bumped by every save/autosave (under the chapter row lock); the chunking task
    # applies its result only if the version it read is still current.
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))
    chunked_version = models.PositiveIntegerField(default=0, verbose_name=_("chunked version"))
    # Set by autosave, cleared by an explicit save: chunking waits until
    # last_edit_at + debounce_seconds while it is set.
    last_edit_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last edited at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("chapter")
        verbose_name_plural = _("chapters")
        ordering = ["book_id", "sequence", "pk"]
        indexes = [models.Index(fields=["book", "sequence"], name="writing_chapter_book_seq")]

    def __str__(self):
        return self.title


class StoryBlock(models.Model):
    chapter = models.ForeignKey(
        Chapter, on_delete=models.CASCADE, related_name="blocks", verbose_name=_("chapter")
    )
    order = models.PositiveIntegerField(verbose_name=_("order"))
    content = models.TextField(verbose_name=_("content"))
    content_hash = models.CharField(max_length=64, verbose_name=_("content hash"))
    is_dirty = models.BooleanField(
        default=True, db_index=True, verbose_name=_("changed since chunking")
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("story block")
        verbose_name_plural = _("story blocks")
        ordering = ["chapter_id", "order"]
        indexes = [models.Index(fields=["chapter", "order"], name="writing_block_chapter_order")]

    def __str__(self):
        return f"{self.chapter_id}#{self.order}"


class ParentChunk(models.Model):
    """A unit returned by search: one block, part of a long block, or merged short blocks.

    ``text`` is the concatenation of its segments (block slices) joined by "\\n";
    :class:`ParentSegment` rows say which slice of which block sits where.
    """

    chapter = models.ForeignKey(
        Chapter, on_delete=models.CASCADE, related_name="parents", verbose_name=_("chapter")
    )
    first_block = models.ForeignKey(
        StoryBlock,
        on_delete=models.CASCADE,
        related_name="first_of_parents",
        verbose_name=_("first block"),
    )
    first_block_start = models.PositiveIntegerField(default=0, verbose_name=_("first block start"))
    text = models.TextField(verbose_name=_("text"))
    size = models.PositiveIntegerField(verbose_name=_("size"))
    content_hash = models.CharField(max_length=64, verbose_name=_("content hash"))
    # The chapter version this parent was built from (for the inspection page).
    generation = models.PositiveIntegerField(default=0, verbose_name=_("generation"))
    # Sentence spans, adjacent similarities and cuts used to build the children.
    analysis = models.JSONField(default=dict, blank=True, verbose_name=_("analysis"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("parent chunk")
        verbose_name_plural = _("parent chunks")
        ordering = ["chapter_id", "pk"]

    def __str__(self):
        return gettext("parent %(pk)s of chapter %(chapter)s") % {
            "pk": self.pk,
            "chapter": self.chapter_id,
        }


class ParentSegment(models.Model):
    """The slice ``[block_start, block_end)`` of a block at ``parent_start`` in the parent."""

    parent = models.ForeignKey(
        ParentChunk,
        on_delete=models.CASCADE,
        related_name="segments",
        verbose_name=_("parent chunk"),
    )
    block = models.ForeignKey(
        StoryBlock, on_delete=models.CASCADE, related_name="segments", verbose_name=_("block")
    )
    position = models.PositiveIntegerField(verbose_name=_("position"))
    block_start = models.PositiveIntegerField(verbose_name=_("block start"))
    block_end = models.PositiveIntegerField(verbose_name=_("block end"))
    parent_start = models.PositiveIntegerField(verbose_name=_("position in parent"))

    class Meta:
        verbose_name = _("parent segment")
        verbose_name_plural = _("parent segments")
        ordering = ["parent_id", "position"]

    def __str__(self):
        return f"{self.parent_id}:{self.block_id}[{self.block_start}:{self.block_end}]"


class ChildChunk(Embedded):
    """A small chunk of a parent; the only rows with vectors."""

    parent = models.ForeignKey(
        ParentChunk,
        on_delete=models.CASCADE,
        related_name="children",
        verbose_name=_("parent chunk"),
    )
    story_block = models.ForeignKey(
        StoryBlock, on_delete=models.CASCADE, related_name="children", verbose_name=_("story block")
    )
    # Denormalised so search filters (owner, book, chapters) need no join to the parent.
    chapter = models.ForeignKey(
        Chapter, on_delete=models.CASCADE, related_name="children", verbose_name=_("chapter")
    )
    book = models.ForeignKey(
        Book, on_delete=models.CASCADE, related_name="children", verbose_name=_("book")
    )
    chunk_level = models.CharField(max_length=8, default="child", verbose_name=_("chunk level"))
    chunk_order = models.PositiveIntegerField(verbose_name=_("chunk order"))
    text = models.TextField(verbose_name=_("text"))
    # jieba-segmented text for the full-text search that answers while the embedding
    # provider is down or slow (writing/search.py).
    search_text = models.TextField(blank=True, default="", verbose_name=_("search text"))
    start = models.PositiveIntegerField(
        help_text=_("Offset of the child in the parent text."), verbose_name=_("start")
    )
    end = models.PositiveIntegerField(verbose_name=_("end"))
    content_hash = models.CharField(max_length=64, verbose_name=_("content hash"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("child chunk")
        verbose_name_plural = _("child chunks")
        ordering = ["parent_id", "chunk_order"]
        indexes = [
            fulltext_index("search_text", "writing_child_search_text_gin"),
            HnswIndex(
                name="writing_child_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self):
        return gettext("child %(pk)s (%(parent)s.%(order)s)") % {
            "pk": self.pk,
            "parent": self.parent_id,
            "order": self.chunk_order,
        }

    def embedding_text(self) -> str:
        return self.text


CLIFF_MODES = [
    ("drop", _("drop (scaled valley depth)")),
    ("percentile", _("percentile of distances")),
]


class WritingSettings(LiveSettings):
    """The live settings of writing: chunking, search and the autosave debounce. One row."""

    cliff_threshold = models.FloatField(
        default=0.3,
        help_text=_("Semantic-cliff threshold (0-1); see docs/CHUNKING.md."),
        verbose_name=_("cliff threshold"),
    )
    cliff_mode = models.CharField(
        max_length=16, choices=CLIFF_MODES, default="drop", verbose_name=_("cliff mode")
    )
    cliff_percentile = models.FloatField(
        default=90.0,
        help_text=_("Used when the mode is percentile."),
        verbose_name=_("cliff percentile"),
    )
    child_min_chars = models.PositiveIntegerField(
        default=200, verbose_name=_("child minimum characters")
    )
    child_max_chars = models.PositiveIntegerField(
        default=300, verbose_name=_("child maximum characters")
    )
    parent_max_chars = models.PositiveIntegerField(
        default=1500, verbose_name=_("parent maximum characters")
    )
    parent_min_chars = models.PositiveIntegerField(
        default=150, verbose_name=_("parent minimum characters")
    )
    context_window_chars = models.PositiveIntegerField(
        default=1000, verbose_name=_("context window characters")
    )
    parent_size_normalization = models.BooleanField(
        default=False,
        help_text=_(
            "Multiply child scores by sqrt(median parent size / parent size). "
            "Off by default: with multilingual-e5-small the factor swamps the similarity "
            "(docs/writing.md)."
        ),
        verbose_name=_("parent size normalisation"),
    )
    debounce_seconds = models.FloatField(default=3.0, verbose_name=_("debounce seconds"))

    def clean(self):
        errors = {}
        if not 0.0 <= self.cliff_threshold <= 1.0:
            errors["cliff_threshold"] = gettext("Use a value between 0 and 1.")
        if not 0.0 < self.cliff_percentile < 100.0:
            errors["cliff_percentile"] = gettext("Use a value between 0 and 100.")
        if self.child_min_chars < 20:
            errors["child_min_chars"] = gettext("Use at least 20 characters.")
        if self.child_min_chars >= self.child_max_chars:
            errors["child_max_chars"] = gettext("The maximum must be above the minimum.")
        if self.parent_min_chars >= self.parent_max_chars:
            errors["parent_max_chars"] = gettext("The maximum must be above the minimum.")
        if self.parent_max_chars < self.child_max_chars:
            errors["parent_max_chars"] = gettext(
                "A parent must be able to hold a whole child chunk."
            )
        longest_child = child_hard_max(self.child_min_chars, self.child_max_chars)
        if self.context_window_chars < longest_child:
            errors["context_window_chars"] = gettext(
                "The window must be able to hold a whole child chunk: a child can be up to "
                "%(longest)d characters (the larger of the child maximum and twice the child "
                "minimum), so use at least %(longest)d."
            ) % {"longest": longest_child}
        if self.debounce_seconds < 0 or self.debounce_seconds > 600:
            errors["debounce_seconds"] = gettext("Use a value between 0 and 600 seconds.")
        if errors:
            raise ValidationError(errors)
