"""Run the chunking plan of a chapter against the database.

Concurrency (see docs/writing.md):

* a session-level advisory lock per chapter (``pg_try_advisory_lock``) is held while a
  run plans and embeds, so a second task for the same chapter returns at once instead of
  doing the same work twice;
* planning and embedding happen outside any transaction; the result is applied in ONE
  transaction that first locks the chapter row (``select_for_update``) and checks that
  the chapter version it read is still current. Saves take the same row lock, so either
  the save is seen before planning, or the apply notices the newer version and re-plans
  (embeddings are cached, so a re-plan costs little);
* until the apply commits, searches (READ COMMITTED) keep seeing the old chunks.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from rag.embeddings import content_hash, current_model, embed_texts, provider_texts
from rag.text import segment_for_index
from writing.chunking import BlockText, BudgetSpent, ChunkConfig, ExistingParent, plan_chapter
from writing.models import Chapter, ChildChunk, ChunkState, ParentChunk, ParentSegment, StoryBlock
from writing.selectors import writing_settings_get

logger = logging.getLogger(__name__)

LOCK_NAMESPACE = 0x5752  # "WR": first key of the two-int advisory lock
MAX_REPLANS = 5
# Texts per embedding call: each call's vectors are stored in the embedding cache at once, so a
# run stopped by its time budget (or killed) leaves its progress for the next run.
EMBED_BATCH = 8


@dataclass
class ChunkResult:
    chapter_id: int
    status: str = "done"  # done | unchanged | locked | gone | superseded | continued
    version: int = 0
    parents_built: int = 0
    parents_deleted: int = 0
    parents_kept: int = 0
    children_built: int = 0


def before_apply_commit(chapter_id: int) -> None:
    """Run inside the apply transaction just before it commits (a hook for tests)."""


def _try_lock(chapter_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_NAMESPACE, chapter_id])
        return bool(cursor.fetchone()[0])


def _unlock(chapter_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_NAMESPACE, chapter_id])


def _existing_parents(chapter_id: int) -> list[ExistingParent]:
    keys: dict[int, list[tuple]] = {}
    rows = ParentSegment.objects.filter(parent__chapter_id=chapter_id).order_by(
        "parent_id", "position"
    )
    for parent_id, block_id, start, end in rows.values_list(
        "parent_id", "block_id", "block_start", "block_end"
    ):
        keys.setdefault(parent_id, []).append((block_id, start, end))
    ids = ParentChunk.objects.filter(chapter_id=chapter_id).values_list("pk", flat=True)
    return [ExistingParent(id=pk, key=tuple(keys.get(pk, ()))) for pk in ids]


def chunk_chapter(
    chapter_id: int,
    *,
    force: bool = False,
    deadline: float | None = None,
):
    """Bring the chunks of a chapter up to date with its latest committed blocks.

    Return a :class:`ChunkResult`; ``status`` "locked" means another run holds the
    chapter (it re-checks for newer edits before it lets go, see :func:`_run`);
    "continued" means ``deadline`` (a ``time.monotonic()`` value) passed before every new
    child was embedded: the vectors made so far are cached, the caller runs it again.
    """
    result = ChunkResult(chapter_id, status="locked")
    for _ in range(MAX_REPLANS):
        if not _try_lock(chapter_id):
            return result
        try:
            result = _run(chapter_id, force=force, deadline=deadline)
        finally:
            _unlock(chapter_id)
        # A task that found the lock taken returned at once; an edit it was started for
        # committed before it tried the lock, hence before this unlock: look once more.
        if result.status in ("gone", "unchanged", "continued") or not needs_chunking(chapter_id):
            return result
        force = False
    return result


def needs_chunking(chapter_id: int) -> bool:
    """Return whether the chapter has unprocessed edits and no debounce is pending."""
    chapter = Chapter.objects.filter(pk=chapter_id).first()
    if chapter is None or debounce_remaining(chapter) > 0:
        return False
    return (
        chapter.chunked_version < chapter.version or chapter.blocks.filter(is_dirty=True).exists()
    )


def debounce_remaining(chapter) -> float:
    """Return the seconds until the debounce after the last autosave has passed (0 if none)."""
    if chapter.last_edit_at is None:
        return 0.0
    due = chapter.last_edit_at.timestamp() + float(writing_settings_get().debounce_seconds)
    return max(0.0, due - timezone.now().timestamp())


def _budget(deadline: float | None):
    """Return ``should_stop()``: the deadline passed and this run has embedded something new.

    Cache hits do not count as progress, so a run stopped by its budget has always left new
    vectors in the cache for the next one: successive runs finish.
    """
    start = provider_texts()

    def should_stop() -> bool:
        return deadline is not None and time.monotonic() > deadline and provider_texts() > start

    return should_stop


def _embed_within(texts: list[str], should_stop) -> list | None:
    """Embed in batches (each cached as it is made); return None when the budget ran out."""
    vectors: list = []
    for start in range(0, len(texts), EMBED_BATCH):
        if should_stop():
            return None
        vectors.extend(embed_texts(texts[start : start + EMBED_BATCH]))
    return vectors


def _run(chapter_id: int, *, force: bool, deadline: float | None = None) -> ChunkResult:
    cfg = ChunkConfig.from_live()  # read once: a changed threshold applies next run
    should_stop = _budget(deadline)
    for _ in range(MAX_REPLANS):
        chapter = Chapter.objects.filter(pk=chapter_id).first()
        if chapter is None:
            return ChunkResult(chapter_id, status="gone")
        version = chapter.version
        blocks = list(StoryBlock.objects.filter(chapter_id=chapter_id).order_by("order"))
        dirty = any(b.is_dirty for b in blocks)
        up_to_date = chapter.chunked_version >= version and chapter.chunk_state == ChunkState.READY
        if not force and not dirty and up_to_date:
            return ChunkResult(chapter_id, status="unchanged", version=version)
        texts = [BlockText(b.id, b.content, b.is_dirty or force) for b in blocks]
        try:
            plan = plan_chapter(texts, _existing_parents(chapter_id), cfg, should_stop)
        except BudgetSpent:
            return ChunkResult(chapter_id, status="continued", version=version)
        child_texts = [c.text for p in plan.build for c in p.children]
        # Cached by content hash: an unchanged child text costs no provider call.
        vectors = _embed_within(child_texts, should_stop)
        if vectors is None:
            return ChunkResult(chapter_id, status="continued", version=version)
        result = _apply(chapter, version, plan, vectors)
        if result is not None:
            return result
        force = False  # a newer version arrived: re-plan with its dirty flags
    return ChunkResult(chapter_id, status="superseded")


def _apply(chapter, version, plan, vectors) -> ChunkResult | None:
    """Replace the chunks in one transaction; return None when the chapter changed meanwhile."""
    model = current_model()
    with transaction.atomic():
        locked = Chapter.objects.select_for_update().filter(pk=chapter.pk).first()
        if locked is None:
            return ChunkResult(chapter.pk, status="gone")
        if locked.version != version:
            return None
        deleted = ParentChunk.objects.filter(pk__in=plan.delete).delete()[1]
        result = ChunkResult(
            chapter.pk,
            version=version,
            parents_built=len(plan.build),
            parents_deleted=deleted.get("writing.ParentChunk", 0),
            parents_kept=len(plan.keep),
        )
        vector_iter = iter(vectors)
        children = []
        for parent_plan in plan.build:
            first = parent_plan.segments[0]
            parent = ParentChunk.objects.create(
                chapter_id=chapter.pk,
                first_block_id=first.block_id,
                first_block_start=first.block_start,
                text=parent_plan.text,
                size=len(parent_plan.text),
                content_hash=content_hash(parent_plan.text),
                generation=version,
                analysis=parent_plan.analysis(),
            )
            ParentSegment.objects.bulk_create(
                ParentSegment(
                    parent=parent,
                    block_id=s.block_id,
                    position=i,
                    block_start=s.block_start,
                    block_end=s.block_end,
                    parent_start=s.parent_start,
                )
                for i, s in enumerate(parent_plan.segments)
            )
            for order, child in enumerate(parent_plan.children):
                text_hash = content_hash(child.text)
                children.append(
                    ChildChunk(
                        parent=parent,
                        story_block_id=child.block_id,
                        chapter_id=chapter.pk,
                        book_id=chapter.book_id,
                        chunk_order=order,
                        text=child.text,
                        search_text=segment_for_index(child.text),
                        start=child.span.start,
                        end=child.span.end,
                        content_hash=text_hash,
                        embedding=next(vector_iter),
                        embedding_model=model,
                        embedding_hash=text_hash,
                    )
                )
        created = ChildChunk.objects.bulk_create(children, batch_size=500)
        result.children_built = len(created)
        StoryBlock.objects.filter(chapter_id=chapter.pk, is_dirty=True).update(is_dirty=False)
        Chapter.objects.filter(pk=chapter.pk).update(
            chunk_state=ChunkState.READY,
            chunk_error="",
            chunk_attempts=0,
            chunk_state_at=timezone.now(),
            chunked_version=version,
            chunked_at=timezone.now(),
        )
        before_apply_commit(chapter.pk)
    logger.info(
        "chunked chapter %s v%s: %s parents built, %s kept, %s deleted, %s children",
        chapter.pk,
        version,
        result.parents_built,
        result.parents_kept,
        result.parents_deleted,
        result.children_built,
    )
    return result
