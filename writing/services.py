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

from config.errors import InvalidArgument, NotFound
from rag.embeddings import content_hash
from writing.models import Book, Chapter, ChunkState, StoryBlock
from writing.selectors import book_get, chapter_get

MAX_BLOCK_CHARS = 100_000
MAX_BLOCKS = 5_000


def _clean_blocks(blocks) -> list[str]:
    if not isinstance(blocks, list):
        raise InvalidArgument("blocks must be a list.")
    if len(blocks) > MAX_BLOCKS:
        raise InvalidArgument(f"At most {MAX_BLOCKS} blocks per chapter.")
    contents = []
    for i, block in enumerate(blocks):
        content = block.get("content") if isinstance(block, dict) else block
        if not isinstance(content, str) or not content.strip():
            raise InvalidArgument(
                f"blocks[{i}].content must be non-empty text.", details={"index": i}
            )
        if len(content) > MAX_BLOCK_CHARS:
            raise InvalidArgument(f"blocks[{i}] is too long.", details={"index": i})
        contents.append(content)
    return contents


def book_create(*, user, title: str) -> Book:
    title = (title or "").strip()
    if not title:
        raise InvalidArgument("title must not be empty.")
    return Book.objects.create(owner=user, title=title[:200])


def book_delete(*, user, book_id: int) -> None:
    book_get(user=user, book_id=book_id).delete()


@transaction.atomic
def chapter_create(*, user, book_id: int, title: str, sequence: int, blocks) -> Chapter:
    """Create a chapter with its blocks (all dirty) and start chunking after commit."""
    from writing.tasks import enqueue_chunk

    contents = _clean_blocks(blocks)
    book = book_get(user=user, book_id=book_id)
    chapter = Chapter.objects.create(
        book=book, title=(title or "").strip()[:200], sequence=sequence
    )
    StoryBlock.objects.bulk_create(
        StoryBlock(chapter=chapter, order=i, content=c, content_hash=content_hash(c))
        for i, c in enumerate(contents)
    )
    enqueue_chunk(chapter.pk, chapter.version)
    return chapter


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

    Changed and new blocks become dirty, removed blocks are deleted (with the parents
    that include them; their other blocks become dirty). Chunking starts on commit.
    """
    from writing.tasks import enqueue_chunk

    contents = _clean_blocks(blocks)
    chapter = chapter_get(user=user, chapter_id=chapter_id, for_update=True)
    if book_id is not None and book_id != chapter.book_id:
        raise InvalidArgument("A chapter cannot move to another book.", details={"book": book_id})
    old = list(chapter.blocks.order_by("order"))
    assignments, hashes, removed = _match_blocks(old, contents)
    for block in removed:
        block.delete()  # the pre_delete receiver drops parents that include it
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
    chapter.version += 1
    chapter.last_edit_at = None  # an explicit save ends any autosave debounce
    if chapter.chunk_state != ChunkState.FAILED:
        chapter.chunk_state = ChunkState.PENDING
    chapter.chunk_attempts = 0
    chapter.save()
    enqueue_chunk(chapter.pk, chapter.version)
    return chapter


@transaction.atomic
def chapter_autosave(*, user, chapter_id: int, blocks) -> Chapter:
    """Record an in-progress edit of some blocks; chunk once edits pause for the debounce.

    ``blocks`` is a list of ``{"id": block_id | "position": index, "content": text}``.
    """
    from rag.live import get_settings
    from writing.tasks import enqueue_autosave_chunk

    if not isinstance(blocks, list) or not blocks:
        raise InvalidArgument("blocks must be a non-empty list.")
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
            raise NotFound(f"blocks[{i}]: no such block in this chapter.", details={"index": i})
        h = content_hash(content)
        if h != block.content_hash:
            StoryBlock.objects.filter(pk=block.pk).update(
                content=content, content_hash=h, is_dirty=True, updated_at=timezone.now()
            )
    now = timezone.now()
    chapter.version += 1
    chapter.last_edit_at = now
    if chapter.chunk_state != ChunkState.FAILED:
        chapter.chunk_state = ChunkState.PENDING
    chapter.save()
    due = now + timedelta(seconds=float(get_settings().debounce_seconds))
    chapter_pk, version = chapter.pk, chapter.version
    transaction.on_commit(lambda: enqueue_autosave_chunk(chapter_pk, version, due=due))
    return chapter


def chapter_delete(*, user, chapter_id: int) -> None:
    chapter_get(user=user, chapter_id=chapter_id).delete()


def chapter_rechunk(*, chapter_id: int) -> None:
    """Mark every block of a chapter dirty and chunk it again (admin action)."""
    from writing.tasks import enqueue_chunk

    with transaction.atomic():
        chapter = Chapter.objects.select_for_update().get(pk=chapter_id)
        chapter.blocks.update(is_dirty=True)
        chapter.version += 1
        chapter.last_edit_at = None
        chapter.chunk_state = ChunkState.PENDING
        chapter.chunk_attempts = 0
        chapter.save()
        enqueue_chunk(chapter.pk, chapter.version)
