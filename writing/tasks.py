"""django-q2 tasks of the writing app: chunk a chapter, debounced and retried.

Tasks take ids, re-read the rows and are safe to run twice: the dirty flags, the
chapter version and the per-chapter advisory lock (``writing.indexing``) make a
second run for the same content a no-op.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from writing.indexing import ChunkResult, chunk_chapter, debounce_remaining
from writing.models import Chapter, ChunkState

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
BACKOFF_BASE_SECONDS = 10.0


def schedule_name(chapter_id: int) -> str:
    return f"writing.chapter_chunk:{chapter_id}"


def schedule_chunk(chapter_id: int, *, at) -> None:
    """Run :func:`chapter_chunk` for the chapter once at ``at`` (one schedule row per chapter).

    Repeated autosaves move the same row's ``next_run`` instead of piling up tasks.
    """
    from django_q.models import Schedule

    Schedule.objects.update_or_create(
        name=schedule_name(chapter_id),
        defaults={
            "func": "writing.tasks.chapter_chunk",
            "args": repr((chapter_id,)),
            "kwargs": repr({"source": "schedule"}),
            "schedule_type": Schedule.ONCE,
            "repeats": -1,  # a ONCE schedule with negative repeats is deleted after it runs
            "next_run": at,
        },
    )


def enqueue_chunk(chapter_id: int, version: int | None = None) -> None:
    """Start :func:`chapter_chunk` now, once the current transaction commits."""
    from django_q.tasks import async_task

    transaction.on_commit(
        lambda: async_task(
            "writing.tasks.chapter_chunk",
            chapter_id,
            version,
            group="writing.chunk",
            task_name=f"writing.chunk:{chapter_id}",
        )
    )


def chapter_chunk(chapter_id: int, requested_version: int | None = None, source: str = "save"):
    """Chunk the chapter's dirty blocks, unless an autosave debounce is still running.

    Return a short status string (recorded by django-q2 as the task result).
    """
    chapter = Chapter.objects.filter(pk=chapter_id).first()
    if chapter is None:
        return "gone"
    up_to_date = (
        requested_version is not None
        and chapter.chunked_version >= requested_version
        and chapter.chunk_state == ChunkState.READY
    )
    if up_to_date and not chapter.blocks.filter(is_dirty=True).exists():
        return "unchanged"
    wait = debounce_remaining(chapter)
    if wait > 0:
        # The writer is still typing: come back when the debounce has passed.
        schedule_chunk(chapter_id, at=timezone.now() + timedelta(seconds=wait))
        return "deferred"
    try:
        result: ChunkResult = chunk_chapter(chapter_id)
    except Exception as exc:
        return _record_failure(chapter_id, exc)
    return result.status


def _record_failure(chapter_id: int, exc: Exception) -> str:
    """Mark the chapter failed, log, and schedule a retry with exponential backoff."""
    logger.exception("chunking chapter %s failed", chapter_id)
    chapter = Chapter.objects.filter(pk=chapter_id).first()
    if chapter is None:
        return "gone"
    attempts = chapter.chunk_attempts + 1
    Chapter.objects.filter(pk=chapter_id).update(
        chunk_state=ChunkState.FAILED,
        chunk_error=f"{type(exc).__name__}: {exc}"[:2000],
        chunk_attempts=attempts,
    )
    if attempts < MAX_ATTEMPTS:
        delay = BACKOFF_BASE_SECONDS * 2 ** (attempts - 1)
        schedule_chunk(chapter_id, at=timezone.now() + timedelta(seconds=delay))
        return f"failed (attempt {attempts}, retry in {delay:.0f}s)"
    return f"failed (attempt {attempts}, giving up)"
