"""Chunking tasks end ready or visibly failed: killed runs, exhausted attempts, long chapters."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from config.queues import BULK, INTERACTIVE, QUEUES, enqueue_now
from config.work import reconcile_all
from writing import indexing, tasks
from writing.models import Chapter, ChildChunk, ChunkState, StoryBlock

pytestmark = pytest.mark.django_db


def _killed_mid_chunking(chapter, *, attempts=1, ago=timedelta(hours=1)):
    """Leave the chapter as a chunking task killed mid-work leaves it (its edit not chunked)."""
    StoryBlock.objects.filter(chapter=chapter).update(is_dirty=True)
    Chapter.objects.filter(pk=chapter.pk).update(
        version=chapter.version + 1,
        chunk_state=ChunkState.RUNNING,
        chunk_attempts=attempts,
        chunk_state_at=timezone.now() - ago,
    )


def test_killed_chunking_task_is_requeued_and_the_chapter_ends_ready(
    make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks
):
    chapter = make_chapter(blocks)
    _killed_mid_chunking(chapter)
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile_all()["writing.chunk"]["requeued_running"] == 1
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.READY
    assert chapter.chunked_version == chapter.version and chapter.chunk_attempts == 0
    assert not StoryBlock.objects.filter(chapter=chapter, is_dirty=True).exists()


def test_chapter_killed_on_every_attempt_ends_failed_with_its_error(
    make_chapter, blocks, small_chunks, api_client
):
    chapter = make_chapter(blocks)
    _killed_mid_chunking(chapter, attempts=tasks.MAX_ATTEMPTS)
    assert reconcile_all()["writing.chunk"]["failed"] == 1
    body = api_client.get(f"/api/chapters/{chapter.pk}/").json()
    assert body["chunk_state"] == "failed"
    assert body["chunk_error"] == f"timed out or worker lost after {tasks.MAX_ATTEMPTS} attempts"
    assert tasks.chapter_chunk(chapter.pk).startswith("not claimed")


def test_chunking_claims_the_chapter_before_embedding(
    make_chapter, blocks, small_chunks, monkeypatch
):
    chapter = make_chapter(blocks)
    StoryBlock.objects.filter(chapter=chapter).update(is_dirty=True)
    seen = []
    embed = indexing.embed_texts

    def spy(texts, **kwargs):
        row = Chapter.objects.get(pk=chapter.pk)
        seen.append((row.chunk_state, row.chunk_attempts))
        return embed(texts, **kwargs)

    monkeypatch.setattr(indexing, "embed_texts", spy)
    assert tasks.chapter_chunk(chapter.pk) == "done"
    assert seen and set(seen) == {(ChunkState.RUNNING, 1)}


def test_long_chapter_is_chunked_by_successive_tasks_within_their_budget(
    user, make_chapter, blocks, small_chunks, monkeypatch
):
    from writing.services import chapter_save

    chapter = make_chapter(blocks)
    marker = uuid.uuid4().hex[:8]  # texts no cache has seen: every batch is new work
    new = [f"{b}（{marker}第{i}稿）" for i, b in enumerate(blocks)]
    chapter_save(user=user, chapter_id=chapter.pk, blocks=[{"content": c} for c in new])
    monkeypatch.setattr(indexing, "EMBED_BATCH", 2)
    monkeypatch.setattr(tasks, "BUDGET_SHARE", 0)  # every run's budget is spent after one batch
    queued = []
    monkeypatch.setattr(
        tasks, "enqueue_chunk", lambda pk, version=None, queue=None: queued.append(pk)
    )
    statuses = [tasks.chapter_chunk(chapter.pk)]
    while statuses[-1] == "continued":
        row = Chapter.objects.get(pk=chapter.pk)
        # A continued run gives the chapter back, its attempt not counted, and queues the rest.
        assert (row.chunk_state, row.chunk_attempts) == (ChunkState.PENDING, 0)
        assert queued.pop() == chapter.pk
        statuses.append(tasks.chapter_chunk(chapter.pk))
    assert len(statuses) > 2 and statuses[-1] == "done"
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.READY
    texts = "".join(ChildChunk.objects.filter(chapter=chapter).values_list("text", flat=True))
    assert marker in texts


def test_book_import_enqueues_one_task_per_chapter(user, book, monkeypatch):
    from writing.services import chapter_create

    queued = []
    monkeypatch.setattr(
        tasks, "enqueue_chunk", lambda pk, version=None, queue=None: queued.append(pk)
    )
    ids = [
        chapter_create(
            user=user, book_id=book.pk, title=f"第{i}回", sequence=i, blocks=[{"content": "一段。"}]
        ).pk
        for i in range(1, 4)
    ]
    assert queued == ids


def _chunk_schedule(chapter):
    from django_q.models import Schedule

    return Schedule.objects.get(name=tasks.schedule_name(chapter.pk))


@pytest.mark.parametrize("queue", QUEUES)
def test_a_failed_chunking_retries_on_the_queue_it_ran_on(make_chapter, blocks, monkeypatch, queue):
    chapter = make_chapter(blocks)
    _killed_mid_chunking(chapter, attempts=0, ago=timedelta(hours=1))
    Chapter.objects.filter(pk=chapter.pk).update(chunk_state=ChunkState.PENDING)

    def boom(chapter_id, **kwargs):
        raise RuntimeError("provider down")

    monkeypatch.setattr(tasks, "chunk_chapter", boom)
    enqueue_now("writing.tasks.chapter_chunk", chapter.pk, queue=queue)
    assert Chapter.objects.get(pk=chapter.pk).chunk_state == ChunkState.FAILED
    assert _chunk_schedule(chapter).cluster == queue


@pytest.mark.parametrize("status", ["continued", "superseded"])
def test_a_bulk_chapter_follow_up_stays_on_bulk(make_chapter, blocks, monkeypatch, status):
    from writing.indexing import ChunkResult

    chapter = make_chapter(blocks)
    _killed_mid_chunking(chapter, attempts=0)
    Chapter.objects.filter(pk=chapter.pk).update(chunk_state=ChunkState.PENDING)
    monkeypatch.setattr(
        tasks, "chunk_chapter", lambda pk, **kw: ChunkResult(chapter_id=pk, status=status)
    )
    queued = []
    monkeypatch.setattr(
        tasks, "enqueue_chunk", lambda pk, version=None, queue=None: queued.append(queue)
    )
    enqueue_now("writing.tasks.chapter_chunk", chapter.pk, queue=BULK)
    if status == "continued":
        assert queued == [BULK]
    else:
        assert _chunk_schedule(chapter).cluster == BULK


def test_an_autosave_debounced_task_is_interactive(make_chapter, blocks):
    from django_q.models import OrmQ

    chapter = make_chapter(blocks)
    due = timezone.now() + timedelta(seconds=3)
    tasks.enqueue_autosave_chunk(chapter.pk, chapter.version, due=due)
    [row] = OrmQ.objects.all()
    assert row.key == INTERACTIVE and row.task["cluster"] == INTERACTIVE and row.lock == due


def test_without_the_database_broker_the_debounce_is_a_one_off_schedule(
    make_chapter, blocks, settings
):
    """Redis has no delayed delivery: one schedule per chapter, moved by each autosave."""
    from django_q.models import OrmQ, Schedule

    chapter = make_chapter(blocks)
    settings.Q_CLUSTER = {k: v for k, v in settings.Q_CLUSTER.items() if k != "orm"}
    first = timezone.now() + timedelta(seconds=3)
    tasks.enqueue_autosave_chunk(chapter.pk, chapter.version, due=first)
    tasks.enqueue_autosave_chunk(chapter.pk, chapter.version + 1, due=first + timedelta(seconds=1))
    [schedule] = Schedule.objects.filter(name=tasks.debounce_key(chapter.pk))
    assert schedule.schedule_type == Schedule.ONCE and schedule.cluster == INTERACTIVE
    assert schedule.next_run == first + timedelta(seconds=1)
    assert schedule.func == "writing.tasks.chapter_chunk"
    assert schedule.args == repr((chapter.pk, chapter.version + 1, "autosave"))
    assert schedule.kwargs == "{}" and not OrmQ.objects.exists()
