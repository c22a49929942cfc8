"""django-q2 tasks of the writing app: chunk a chapter, debounced and retried.

The autosave debounce is one mechanism: the chapter's ``last_edit_at`` and a task queued to
run no earlier than ``last_edit_at + debounce_seconds`` (:func:`enqueue_autosave_chunk`). A
task never sleeps or polls in a worker: one that finds the writer still typing queues itself
for the end of the debounce and returns.

Tasks take ids, re-read the rows and are safe to run twice: the dirty flags, the
chapter version and the per-chapter advisory lock (``writing.indexing``) make a
second run for the same content a no-op. A run claims the chapter (``running``, attempt
counted, ``config.work``) before it chunks, and stops within a time budget well below the worker
timeout, queueing its continuation: embeddings already made are cached, so no work is lost.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.utils import timezone

from config.queues import (
    INTERACTIVE,
    current_queue,
    enqueue,
    enqueue_at,
    enqueue_later,
    queue_for_rows,
)
from config.work import Work, task_timeout
from writing.indexing import ChunkResult, chunk_chapter, debounce_remaining
from writing.models import Chapter, ChunkState

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
BACKOFF_BASE_SECONDS = 10.0
# A run stops starting new embedding batches after this share of the worker timeout and
# queues its continuation; a batch started before then (EMBED_BATCH texts) still fits.
BUDGET_SHARE = 0.4

CHUNK_WORK = Work(
    name="writing.chunk",
    model=Chapter,
    prefix="chunk",
    done=ChunkState.READY,
    task="writing.tasks.chapter_chunk",
    enqueue="writing.tasks.enqueue_chunk_many",
    changed_field="updated_at",
    max_attempts=MAX_ATTEMPTS,
    backoff_base=BACKOFF_BASE_SECONDS,
)


def schedule_name(chapter_id: int) -> str:
    return f"writing.chapter_chunk:{chapter_id}"


def schedule_chunk(chapter_id: int, *, delay: float) -> None:
    """Run :func:`chapter_chunk` for the chapter once in ``delay`` seconds (one row per chapter).

    For retries after a failure and after a run superseded by edits (a backoff of 10 s or
    more: the scheduler's 30 s look is precise enough); the debounce does not use it. A retry
    stays on its task's queue.
    """
    enqueue_later(
        "writing.tasks.chapter_chunk",
        chapter_id,
        queue=current_queue(),
        key=schedule_name(chapter_id),
        delay=delay,
        kwargs={"source": "schedule"},
    )


def enqueue_chunk(chapter_id: int, version: int | None = None, *, queue: str = INTERACTIVE) -> None:
    """Start :func:`chapter_chunk` now, once the current transaction commits.

    Queue: interactive for a writer's save; bulk for imports and demo loads (the caller says,
    see ``writing.services.chapter_create``).
    """
    enqueue(
        "writing.tasks.chapter_chunk",
        chapter_id,
        version,
        queue=queue,
        group="writing.chunk",
        task_name=f"writing.chunk:{chapter_id}",
    )


def enqueue_chunk_many(chapter_ids: list[int], *, queue: str | None = None) -> None:
    """Chunk each of these chapters (the reconciler's and the retries' entry point).

    Queue: ``queue`` when given (the reconciler and retries say), else by count
    (``config.queues.queue_for_rows``): a few chapters interactive, many bulk.
    """
    queue = queue or queue_for_rows(len(chapter_ids))
    for chapter_id in chapter_ids:
        enqueue_chunk(chapter_id, queue=queue)


def debounce_key(chapter_id: int) -> str:
    return f"writing.chapter_chunk.debounce:{chapter_id}"


def enqueue_autosave_chunk(chapter_id: int, version: int, *, due, queue: str = INTERACTIVE) -> None:
    """Chunk the chapter once the writer has paused: the autosave debounce (the only one).

    Call from ``transaction.on_commit`` (or a task). Queues ``chapter_chunk(id, version,
    "autosave")`` to run no earlier than ``due`` (``last_edit_at + debounce_seconds``,
    ``config.queues.enqueue_at``): nothing waits in a worker. Each autosave queues its own; when
    one runs, a newer edit (version moved on) makes it return ``superseded`` at once, leaving
    the work to that edit's task; one run early (a broker lock released by a stop) queues
    itself again for the end of the debounce. Queue: interactive for a writer's autosave; a
    deferral stays on its task's queue.
    """
    enqueue_at(
        "writing.tasks.chapter_chunk",
        chapter_id,
        version,
        "autosave",
        queue=queue,
        at=due,
        key=debounce_key(chapter_id),
        group="writing.chunk",
        task_name=f"writing.autosave:{chapter_id}:{version}",
    )


def chapter_chunk(chapter_id: int, requested_version: int | None = None, source: str = "save"):
    """Chunk the chapter's dirty blocks, unless the writer is still typing; never waits.

    ``source="autosave"``: the task an autosave queued for the end of its debounce
    (:func:`enqueue_autosave_chunk`). Any task that finds the debounce still running (the
    chapter was autosaved less than ``debounce_seconds`` ago) queues a task for its end and
    returns ``deferred`` at once. Return a short status string (the django-q2 task result).
    """
    chapter = Chapter.objects.filter(pk=chapter_id).first()
    if chapter is None:
        return "gone"
    if source == "autosave":
        if requested_version is not None and chapter.version != requested_version:
            return "superseded"  # a newer edit queued its own task
        requested_version = None  # the edit is not chunked yet: do not take "up to date"
    wait = debounce_remaining(chapter)
    if wait > 0:
        # The writer is still typing: come back when the debounce has passed.
        due = timezone.now() + timedelta(seconds=wait)
        enqueue_autosave_chunk(chapter_id, chapter.version, due=due, queue=current_queue())
        return "deferred"
    up_to_date = (
        requested_version is not None
        and chapter.chunked_version >= requested_version
        and chapter.chunk_state == ChunkState.READY
    )
    if up_to_date and not chapter.blocks.filter(is_dirty=True).exists():
        return "unchanged"
    if chapter.chunk_state == ChunkState.READY and not _has_edits(chapter):
        return "unchanged"
    claimed = CHUNK_WORK.claim([chapter_id])
    if not claimed:
        return "not claimed (running elsewhere, or attempts exhausted)"
    attempt = claimed[chapter_id]
    deadline = time.monotonic() + task_timeout() * BUDGET_SHARE
    try:
        result: ChunkResult = chunk_chapter(chapter_id, deadline=deadline)
    except Exception as exc:
        return _record_failure(chapter_id, exc, attempt)
    if result.status in ("locked", "superseded", "continued"):
        # This run did not finish the chapter: its attempt does not count. "locked": the run
        # holding the chapter re-checks for edits before it lets go; "superseded": edits kept
        # coming, try again after a pause; "continued": the budget ran out, go on at once.
        CHUNK_WORK.release([chapter_id])
        # The follow-up stays on this task's queue: a bulk chapter's continuation stays bulk.
        if result.status == "continued":
            enqueue_chunk(chapter_id, queue=current_queue())
        elif result.status == "superseded":
            schedule_chunk(chapter_id, delay=BACKOFF_BASE_SECONDS)
    return result.status


def _has_edits(chapter: Chapter) -> bool:
    if chapter.chunked_version < chapter.version:
        return True
    return chapter.blocks.filter(is_dirty=True).exists()


def _record_failure(chapter_id: int, exc: Exception, attempt: int) -> str:
    """Mark the chapter failed, log, and schedule a retry with exponential backoff."""
    logger.exception("chunking chapter %s failed", chapter_id)
    if CHUNK_WORK.fail([chapter_id], exc, attempt):
        delay = CHUNK_WORK.retry_in(attempt)
        schedule_chunk(chapter_id, delay=delay)
        return f"failed (attempt {attempt}, retry in {delay:.0f}s)"
    return f"failed (attempt {attempt}, giving up)"
