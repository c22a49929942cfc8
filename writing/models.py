"""Books, chapters, story blocks and their parent/child chunks.

A chapter is a list of story blocks. Chunking groups the blocks of one chapter into
parent chunks (one block, part of an over-long block, or several short neighbouring
blocks) and packs each parent's sentences into child chunks; only children carry
vectors. See docs/writing.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from pgvector.django import HnswIndex

from rag.models import Embedded
from rag.search import fulltext_index


class Book(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="writing_books"
    )
    title = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return self.title


class ChunkState(models.TextChoices):
    PENDING = "pending", "pending"
    RUNNING = "running", "running"
    READY = "ready", "ready"
    FAILED = "failed", "failed"


class Chapter(models.Model):
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="chapters")
    title = models.CharField(max_length=200)
    sequence = models.IntegerField(default=0)
    chunk_state = models.CharField(
        max_length=16, choices=ChunkState.choices, default=ChunkState.PENDING, db_index=True
    )
    chunk_error = models.TextField(blank=True, default="")
    chunk_attempts = models.PositiveIntegerField(default=0)
    # When the chapter entered its chunk state, or was last re-queued (rag.work).
    chunk_state_at = models.DateTimeField(null=True, blank=True)
    # The django-q2 id of the task that last claimed the row: the same task, handed back by a
    # worker stop, takes its running row back at once (rag.work.Work.claim).
    chunk_task = models.CharField(max_length=64, blank=True, default="", editable=False)
    chunked_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every save/autosave (under the chapter row lock); the chunking task
    # applies its result only if the version it read is still current.
    version = models.PositiveIntegerField(default=1)
    chunked_version = models.PositiveIntegerField(default=0)
    # Set by autosave, cleared by an explicit save: chunking waits until
    # last_edit_at + debounce_seconds while it is set.
    last_edit_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["book_id", "sequence", "pk"]
        indexes = [models.Index(fields=["book", "sequence"], name="writing_chapter_book_seq")]

    def __str__(self):
        return self.title


class StoryBlock(models.Model):
    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="blocks")
    order = models.PositiveIntegerField()
    content = models.TextField()
    content_hash = models.CharField(max_length=64)
    is_dirty = models.BooleanField(default=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["chapter_id", "order"]
        indexes = [models.Index(fields=["chapter", "order"], name="writing_block_chapter_order")]

    def __str__(self):
        return f"{self.chapter_id}#{self.order}"


class ParentChunk(models.Model):
    """A unit returned by search: one block, part of a long block, or merged short blocks.

    ``text`` is the concatenation of its segments (block slices) joined by "\\n";
    :class:`ParentSegment` rows say which slice of which block sits where.
    """

    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="parents")
    first_block = models.ForeignKey(
        StoryBlock, on_delete=models.CASCADE, related_name="first_of_parents"
    )
    first_block_start = models.PositiveIntegerField(default=0)
    text = models.TextField()
    size = models.PositiveIntegerField()
    content_hash = models.CharField(max_length=64)
    # The chapter version this parent was built from (for the inspection page).
    generation = models.PositiveIntegerField(default=0)
    # Sentence spans, adjacent similarities and cuts used to build the children.
    analysis = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["chapter_id", "pk"]

    def __str__(self):
        return f"parent {self.pk} of chapter {self.chapter_id}"


class ParentSegment(models.Model):
    """The slice ``[block_start, block_end)`` of a block at ``parent_start`` in the parent."""

    parent = models.ForeignKey(ParentChunk, on_delete=models.CASCADE, related_name="segments")
    block = models.ForeignKey(StoryBlock, on_delete=models.CASCADE, related_name="segments")
    position = models.PositiveIntegerField()
    block_start = models.PositiveIntegerField()
    block_end = models.PositiveIntegerField()
    parent_start = models.PositiveIntegerField()

    class Meta:
        ordering = ["parent_id", "position"]

    def __str__(self):
        return f"{self.parent_id}:{self.block_id}[{self.block_start}:{self.block_end}]"


class ChildChunk(Embedded):
    """A small chunk of a parent; the only rows with vectors."""

    parent = models.ForeignKey(ParentChunk, on_delete=models.CASCADE, related_name="children")
    story_block = models.ForeignKey(StoryBlock, on_delete=models.CASCADE, related_name="children")
    # Denormalised so search filters (owner, book, chapters) need no join to the parent.
    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="children")
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="children")
    chunk_level = models.CharField(max_length=8, default="child")
    chunk_order = models.PositiveIntegerField()
    text = models.TextField()
    # jieba-segmented text for the full-text search that answers while the embedding
    # provider is down or slow (writing/search.py).
    search_text = models.TextField(blank=True, default="")
    start = models.PositiveIntegerField(help_text="Offset of the child in the parent text.")
    end = models.PositiveIntegerField()
    content_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
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
        return f"child {self.pk} ({self.parent_id}.{self.chunk_order})"

    def embedding_text(self) -> str:
        return self.text
