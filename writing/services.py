"""Writes of the writing app: books, chapters and their story blocks.

Saving only stores text and marks blocks dirty; chunking runs in
``writing.tasks.chapter_chunk`` after commit. Every chapter write locks the chapter
row (``select_for_update``) and bumps ``Chapter.version`` so the chunking task can tell
whether the content it planned from is still the latest (see writing/indexing.py).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from config.errors import InvalidArgument, NotFound
from config.queues import BULK, INTERACTIVE
from rag.embeddings import content_hash
from writing import tasks
from writing.models import (
    Book,
    Chapter,
    ChildChunk,
    ChunkState,
    ParentChunk,
    ParentSegment,
    StoryBlock,
)
from writing.selectors import book_get, chapter_get, writing_settings_get

# A chapter is written whole (a PUT, the admin): at most this many blocks of at most this
# many characters (through the API, the whole body within DATA_UPLOAD_MAX_MEMORY_SIZE).
MAX_BLOCKS = 2000
MAX_BLOCK_CHARS = 50_000


def _clean_blocks(blocks) -> list[str]:
    if not isinstance(blocks, list):
        raise InvalidArgument(gettext("blocks must be a list."))
    if len(blocks) > MAX_BLOCKS:
        raise InvalidArgument(gettext("At most %(max)d blocks per chapter.") % {"max": MAX_BLOCKS})
    contents = []
    for i, block in enumerate(blocks):
        content = block.get("content") if isinstance(block, dict) else block
        if not isinstance(content, str) or not content.strip():
            raise InvalidArgument(
                gettext("blocks[%(index)d].content must be non-empty text.") % {"index": i},
                details={"index": i},
            )
        if len(content) > MAX_BLOCK_CHARS:
            raise InvalidArgument(
                gettext("blocks[%(index)d] is too long.") % {"index": i}, details={"index": i}
            )
        contents.append(content)
    return contents


def book_create(*, user, title: str) -> Book:
    title = (title or "").strip()
    if not title:
        raise InvalidArgument(gettext("title must not be empty."))
    return Book.objects.create(owner=user, title=title[:200])


def book_delete(*, user, book_id: int) -> None:
    book_get(user=user, book_id=book_id).delete()


def chapter_create_queue(book: Book) -> str:
    """Return the queue that chunks a chapter created in ``book`` now.

    A chapter created while another chapter of the same book still waits for chunking is part
    of an import (a client posting a book chapter by chapter): bulk. A writer's single new
    chapter: interactive.
    """
    importing = Chapter.objects.filter(book=book, chunk_state=ChunkState.PENDING).exists()
    return BULK if importing else INTERACTIVE


@transaction.atomic
def chapter_create(*, user, book_id: int, title: str, sequence: int, blocks) -> Chapter:
    """Create a chapter with its blocks (all dirty) and start chunking after commit, on the
    queue :func:`chapter_create_queue` picks."""
    contents = _clean_blocks(blocks)
    book = book_get(user=user, book_id=book_id)
    queue = chapter_create_queue(book)  # before the new chapter is pending too
    chapter = Chapter.objects.create(
        book=book, title=(title or "").strip()[:200], sequence=sequence
    )
    StoryBlock.objects.bulk_create(
        StoryBlock(chapter=chapter, order=i, content=c, content_hash=content_hash(c))
        for i, c in enumerate(contents)
    )
    tasks.enqueue_chunk(chapter.pk, chapter.version, queue=queue)
    return chapter


def _save_edit(chapter: Chapter, *, last_edit_at=None) -> None:
    """Save an edit of a chapter: a new version, pending with a fresh retry budget.

    ``last_edit_at``: the autosave that starts a debounce (None ends any). ``chunk_error``
    stays until the next successful run clears it, so the writer still sees why the previous
    run failed while the new one is queued.
    """
    chapter.version += 1
    chapter.last_edit_at = last_edit_at
    chapter.chunk_state = ChunkState.PENDING
    chapter.chunk_attempts = 0
    chapter.save()


def _match_blocks(old: list[StoryBlock], contents: list[str]):
    """Match new contents to existing blocks: same hash first, then same position.

    Return (assignments, removed): ``assignments[i]`` is the existing block reused for
    content i (or None for a new block), ``removed`` the blocks no content matched.
    """
    by_hash: dict[str, list[StoryBlock]] = {}
    for block in old:
        by_hash.setdefault(block.content_hash, []).append(block)
    hashes = [content_hash(c) for c in contents]
    used: set[int] = set()
    assignments: list[StoryBlock | None] = [None] * len(contents)
    for i, h in enumerate(hashes):
        candidates = [b for b in by_hash.get(h, []) if b.pk not in used]
        if candidates:
            # Prefer the block already at this position, then the nearest one.
            best = min(candidates, key=lambda b: (abs(b.order - i), b.order))
            assignments[i] = best
            used.add(best.pk)
    by_order = {b.order: b for b in old}
    for i in range(len(contents)):
        if assignments[i] is None:
            block = by_order.get(i)
            if block is not None and block.pk not in used:
                assignments[i] = block
                used.add(block.pk)
    removed = [b for b in old if b.pk not in used]
    return assignments, hashes, removed


def _detach_removed_blocks(removed: list[StoryBlock]) -> None:
    """Keep the merged parents of blocks about to be deleted until the chunking task runs.

    A parent that also holds surviving blocks keeps its text and every child (the text may
    still contain the removed blocks' text until the rebuild): its first block and the
    children that start in a removed block move to a surviving block of the parent, the
    removed blocks' segments go, and the surviving blocks become dirty. Search thus keeps
    serving those blocks, and the next run deletes and rebuilds the parent in its apply
    transaction (its segments no longer tile the blocks, and the blocks are dirty). Parents
    made only of removed blocks are deleted with them (cascade and ``signals.block_deleting``).
    """
    removed_ids = {b.pk for b in removed}
    if not removed_ids:
        return
    segments: dict[int, list[tuple[int, int]]] = {}
    for parent_id, block_id, block_start in (
        ParentSegment.objects.filter(parent__segments__block_id__in=removed_ids)
        .distinct()
        .order_by("parent_id", "position")
        .values_list("parent_id", "block_id", "block_start")
    ):
        segments.setdefault(parent_id, []).append((block_id, block_start))
    survivors: set[int] = set()
    for parent_id, segs in segments.items():
        kept = [seg for seg in segs if seg[0] not in removed_ids]
        if not kept:
            continue
        survivors.update(block_id for block_id, _ in kept)
        ParentChunk.objects.filter(pk=parent_id).update(
            first_block_id=kept[0][0], first_block_start=kept[0][1]
        )
        for i, (block_id, _) in enumerate(segs):
            if block_id in removed_ids:
                # A child belongs to the block it starts in: take the next surviving one.
                later = [seg for seg in segs[i + 1 :] if seg[0] not in removed_ids]
                target = later[0][0] if later else kept[-1][0]
                ChildChunk.objects.filter(parent_id=parent_id, story_block_id=block_id).update(
                    story_block_id=target
                )
        ParentSegment.objects.filter(parent_id=parent_id, block_id__in=removed_ids).delete()
    StoryBlock.objects.filter(pk__in=survivors).update(is_dirty=True)


@transaction.atomic
def chapter_save(
    *,
    user,
    chapter_id: int,
    book_id: int | None = None,
    title: str | None = None,
    sequence: int | None = None,
    blocks,
) -> Chapter:
    """Save the whole chapter; unchanged blocks keep their rows and chunks.

    Changed and new blocks become dirty, removed blocks are deleted; a merged parent that
    also holds surviving blocks stays searchable until the task replaces it (see
    :func:`_detach_removed_blocks`). Chunking starts on commit.
    """
    contents = _clean_blocks(blocks)
    chapter = chapter_get(user=user, chapter_id=chapter_id, for_update=True)
    if book_id is not None and book_id != chapter.book_id:
        raise InvalidArgument(
            gettext("A chapter cannot move to another book."), details={"book": book_id}
        )
    old = list(chapter.blocks.order_by("order"))
    assignments, hashes, removed = _match_blocks(old, contents)
    _detach_removed_blocks(removed)
    for block in removed:
        block.delete()
    # Orders are unique per chapter in practice; park moved blocks first to keep it simple.
    for i, (block, content, h) in enumerate(zip(assignments, contents, hashes, strict=True)):
        if block is None:
            StoryBlock.objects.create(chapter=chapter, order=i, content=content, content_hash=h)
        elif block.content_hash != h:
            StoryBlock.objects.filter(pk=block.pk).update(
                order=i, content=content, content_hash=h, is_dirty=True, updated_at=timezone.now()
            )
        elif block.order != i:
            StoryBlock.objects.filter(pk=block.pk).update(order=i)
    if title is not None:
        chapter.title = title.strip()[:200]
    if sequence is not None:
        chapter.sequence = sequence
    _save_edit(chapter)  # an explicit save ends any autosave debounce
    tasks.enqueue_chunk(chapter.pk, chapter.version)
    return chapter


@transaction.atomic
def chapter_autosave(*, user, chapter_id: int, blocks) -> Chapter:
    """Record an in-progress edit of some blocks; chunk once edits pause for the debounce.

    ``blocks`` is a list of ``{"id": block_id | "position": index, "content": text}``.
    """
    if not isinstance(blocks, list) or not blocks:
        raise InvalidArgument(gettext("blocks must be a non-empty list."))
    contents = _clean_blocks(blocks)
    chapter = chapter_get(user=user, chapter_id=chapter_id, for_update=True)
    existing = list(chapter.blocks.order_by("order"))
    by_id = {b.pk: b for b in existing}
    for i, (item, content) in enumerate(zip(blocks, contents, strict=True)):
        if item.get("id") is not None:
            block = by_id.get(item["id"])
        elif item.get("position") is not None and 0 <= item["position"] < len(existing):
            block = existing[item["position"]]
        else:
            block = None
        if block is None:
            raise NotFound(
                gettext("blocks[%(index)d]: no such block in this chapter.") % {"index": i},
                details={"index": i},
            )
        h = content_hash(content)
        if h != block.content_hash:
            StoryBlock.objects.filter(pk=block.pk).update(
                content=content, content_hash=h, is_dirty=True, updated_at=timezone.now()
            )
    now = timezone.now()
    _save_edit(chapter, last_edit_at=now)
    due = now + timedelta(seconds=float(writing_settings_get().debounce_seconds))
    chapter_pk, version = chapter.pk, chapter.version
    transaction.on_commit(lambda: tasks.enqueue_autosave_chunk(chapter_pk, version, due=due))
    return chapter


def chapter_delete(*, user, chapter_id: int) -> None:
    chapter_get(user=user, chapter_id=chapter_id).delete()


def chapter_rechunk(*, chapter_id: int) -> None:
    """Mark every block of a chapter dirty and chunk it again (admin action)."""
    with transaction.atomic():
        chapter = Chapter.objects.select_for_update().get(pk=chapter_id)
        chapter.blocks.update(is_dirty=True)
        _save_edit(chapter)
        tasks.enqueue_chunk(chapter.pk, chapter.version)
