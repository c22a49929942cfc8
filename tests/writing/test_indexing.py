"""Keeping the index in step: dirty blocks only, hash skip, coalescing, cascade, failures."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django_q.models import OrmQ, Schedule
from django_q.signing import SignedPackage
from django_q.tasks import async_task, result

from config.queues import INTERACTIVE
from rag.chunking import find_cliffs
from writing import indexing, tasks
from writing.models import Chapter, ChildChunk, ChunkState, ParentChunk, StoryBlock
from writing.services import chapter_autosave, chapter_save

pytestmark = pytest.mark.django_db


def _child_ids_by_block(chapter) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for child_id, block_id in ChildChunk.objects.filter(chapter=chapter).values_list(
        "pk", "story_block_id"
    ):
        out.setdefault(block_id, set()).add(child_id)
    return out


def _save(user, chapter, contents, capture):
    with capture(execute=True):
        chapter_save(user=user, chapter_id=chapter.pk, blocks=[{"content": c} for c in contents])
    chapter.refresh_from_db()


def test_create_chunks_on_commit(make_chapter, blocks, small_chunks):
    chapter = make_chapter(blocks)
    assert chapter.chunk_state == ChunkState.READY
    assert chapter.chunked_version == chapter.version
    assert not StoryBlock.objects.filter(chapter=chapter, is_dirty=True).exists()
    assert ChildChunk.objects.filter(chapter=chapter).count() >= len(blocks)


def test_only_dirty_blocks_rechunked(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks, provider_calls
):
    chapter = make_chapter(blocks)
    before = _child_ids_by_block(chapter)
    parents_before = set(ParentChunk.objects.filter(chapter=chapter).values_list("pk", flat=True))
    edited = list(blocks)
    edited[2] = "猪八戒扛着九齿钉耙走在最后。他嘴里嘟囔着要分行李回高老庄，被悟空笑了一顿。"
    provider_calls.clear()
    _save(user, chapter, edited, django_capture_on_commit_callbacks)
    after = _child_ids_by_block(chapter)
    block_ids = list(chapter.blocks.order_by("order").values_list("pk", flat=True))
    for i, block_id in enumerate(block_ids):
        if i == 2:
            assert after[block_id].isdisjoint(before[block_id])  # rebuilt
        else:
            assert after[block_id] == before[block_id]  # untouched: same chunk ids
    parents_after = set(ParentChunk.objects.filter(chapter=chapter).values_list("pk", flat=True))
    assert len(parents_before & parents_after) == 3
    # Only the edited block's text reached the provider (its sentences and children).
    assert provider_calls and all(t in edited[2] for t in provider_calls)


def test_unchanged_hash_skips_work(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks, provider_calls
):
    chapter = make_chapter(blocks)
    before = _child_ids_by_block(chapter)
    provider_calls.clear()
    _save(user, chapter, blocks, django_capture_on_commit_callbacks)
    assert _child_ids_by_block(chapter) == before
    assert provider_calls == []
    assert chapter.chunk_state == ChunkState.READY


def test_inserted_block_keeps_neighbours_chunks(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks
):
    chapter = make_chapter(blocks)
    before = _child_ids_by_block(chapter)
    new = "白龙马驮着师父，一步一步走向西天。它原是西海龙王三太子，犯了天条被观音救下。"
    _save(user, chapter, [blocks[0], new, *blocks[1:]], django_capture_on_commit_callbacks)
    after = _child_ids_by_block(chapter)
    for block_id, ids in before.items():
        assert after[block_id] == ids  # moved blocks matched by hash keep their chunks
    assert len(after) == len(blocks) + 1


def test_rapid_saves_coalesce(user, make_chapter, blocks, small_chunks, provider_calls):
    chapter = make_chapter(blocks)
    # Two saves commit before any task runs (callbacks not executed here).
    v1 = list(blocks)
    v1[0] = "第一版：孙悟空大闹天宫，打得天兵天将落花流水，玉帝只好请来如来佛祖。"
    chapter_save(user=user, chapter_id=chapter.pk, blocks=[{"content": c} for c in v1])
    v2 = list(blocks)
    v2[0] = "第二版：如来佛祖把孙悟空压在五行山下，一压就是五百年，等待取经人来救。"
    chapter_save(user=user, chapter_id=chapter.pk, blocks=[{"content": c} for c in v2])
    chapter.refresh_from_db()
    provider_calls.clear()
    assert tasks.chapter_chunk(chapter.pk, chapter.version - 1) == "done"
    ids_after_first = set(ChildChunk.objects.filter(chapter=chapter).values_list("pk", flat=True))
    texts = "".join(ChildChunk.objects.filter(chapter=chapter).values_list("text", flat=True))
    assert "第二版" in texts and "第一版" not in texts  # the latest committed content
    assert all("第一版" not in t for t in provider_calls)  # v1 was never embedded
    calls = len(provider_calls)
    assert tasks.chapter_chunk(chapter.pk, chapter.version) == "unchanged"
    assert len(provider_calls) == calls
    assert (
        set(ChildChunk.objects.filter(chapter=chapter).values_list("pk", flat=True))
        == ids_after_first
    )


def test_second_task_while_locked_does_nothing(make_chapter, blocks, small_chunks):
    chapter = make_chapter(blocks)
    StoryBlock.objects.filter(chapter=chapter).update(is_dirty=True)
    # Advisory locks are re-entrant per session: hold the lock from a second connection.
    other = connection.copy()
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", [indexing.LOCK_NAMESPACE, chapter.pk])
        assert indexing.chunk_chapter(chapter.pk).status == "locked"
        assert StoryBlock.objects.filter(chapter=chapter, is_dirty=True).count() == len(blocks)
    finally:
        with other.cursor() as cursor:  # unlock explicitly: a closed session unlocks late
            cursor.execute(
                "SELECT pg_advisory_unlock(%s, %s)", [indexing.LOCK_NAMESPACE, chapter.pk]
            )
        other.close()
    assert indexing.chunk_chapter(chapter.pk).status == "done"


def test_cascade_delete(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks
):
    chapter = make_chapter(["诗曰：", *blocks])  # the short first block merges with blocks[0]
    merged = ParentChunk.objects.get(chapter=chapter, segments__block__order=0)
    assert merged.segments.count() == 2
    block = chapter.blocks.get(order=1)
    block.delete()
    assert not ParentChunk.objects.filter(pk=merged.pk).exists()
    assert not ChildChunk.objects.filter(story_block_id=block.pk).exists()
    assert chapter.blocks.get(order=0).is_dirty  # re-chunked on the next run
    chapter.delete()
    assert not ParentChunk.objects.exists() and not ChildChunk.objects.exists()


def test_merged_parent_of_deleted_block_rebuilt_by_the_task(
    user, make_chapter, small_chunks, django_capture_on_commit_callbacks
):
    short = ["花果山上桃花开满了山。", "水帘洞里群猴吵闹不休。", "美猴王独坐石台想心事。"]
    chapter = make_chapter(short)  # under parent_min_chars: one merged parent
    old_parent = ParentChunk.objects.get(chapter=chapter)
    _save(user, chapter, short[1:], django_capture_on_commit_callbacks)
    parent = ParentChunk.objects.get(chapter=chapter)
    assert parent.pk != old_parent.pk
    assert parent.text == "\n".join(short[1:])
    assert chapter.chunk_state == ChunkState.READY
    assert not StoryBlock.objects.filter(chapter=chapter, is_dirty=True).exists()


def _debounced():
    """The chunking tasks queued with a not-before (the broker rows): [(not_before, task)]."""
    return [(row.lock, row.task) for row in OrmQ.objects.order_by("pk")]


def _run_due() -> list:
    """Run the queued tasks whose not-before has passed, as a worker would; return results."""
    results = []
    for row in OrmQ.objects.filter(lock__lte=timezone.now()).order_by("pk"):
        row.delete()
        task = SignedPackage.loads(row.payload)
        # Through django-q2's own worker and result store, inline (sync), as the cluster would.
        task_id = async_task(
            task["func"],
            *task["args"],
            q_options={"sync": True, "cluster": task.get("cluster")},
            **task["kwargs"],
        )
        results.append(result(task_id))
    return results


def test_autosave_debounces_until_quiet(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks, clock
):
    chapter = make_chapter(blocks)
    before = _child_ids_by_block(chapter)
    first = chapter.blocks.get(order=0)
    with django_capture_on_commit_callbacks(execute=True):
        chapter_autosave(
            user=user,
            chapter_id=chapter.pk,
            blocks=[{"id": first.pk, "content": "自动保存：悟空正在改写这一段，还没写完呢。"}],
        )
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.PENDING
    # One task, not before the end of the debounce, on the interactive queue; nothing ran.
    [(not_before, task)] = _debounced()
    assert not_before == chapter.last_edit_at + timedelta(seconds=3)
    assert task["func"] == "writing.tasks.chapter_chunk" and task["cluster"] == INTERACTIVE
    assert task["args"] == (chapter.pk, chapter.version, "autosave")
    assert _run_due() == []
    # Any other task that comes within the debounce only queues one for its end.
    assert tasks.chapter_chunk(chapter.pk, source="schedule") == "deferred"
    assert _child_ids_by_block(chapter) == before
    assert [t["args"] for _, t in _debounced()] == [(chapter.pk, chapter.version, "autosave")] * 2
    clock.shift(timedelta(seconds=3.5))
    assert sorted(_run_due()) == ["done", "unchanged"]
    after = _child_ids_by_block(chapter)
    assert after[first.pk].isdisjoint(before[first.pk])
    assert all(after[b] == ids for b, ids in before.items() if b != first.pk)
    assert _debounced() == []


def test_rapid_autosaves_chunk_once_after_the_pause(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks, clock, monkeypatch
):
    """Many rapid edits of one chapter: one chunking run, after the debounce of the last one."""
    chapter = make_chapter(blocks)
    runs = []
    real_chunk = tasks.chunk_chapter
    monkeypatch.setattr(
        tasks, "chunk_chapter", lambda pk, **kw: runs.append(pk) or real_chunk(pk, **kw)
    )
    results = []
    for n in range(12):  # an autosave every 0.5 s for 6 s: twice the 3 s debounce
        with django_capture_on_commit_callbacks(execute=True):
            chapter_autosave(
                user=user,
                chapter_id=chapter.pk,
                blocks=[{"position": 0, "content": f"连打：悟空第{n}次改这句，翻了{n}个跟头。"}],
            )
        results += _run_due()  # a worker takes each task as soon as it is due
        clock.shift(timedelta(seconds=0.5))
    assert runs == []  # never while the writer types
    assert results and set(results) == {"superseded"}  # each earlier edit's task gave way
    clock.shift(timedelta(seconds=3))
    results = _run_due()
    assert runs == [chapter.pk]
    assert results.count("done") == 1 and set(results) <= {"done", "superseded"}
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.READY and chapter.chunked_version == chapter.version
    assert ChildChunk.objects.filter(chapter=chapter, text__contains="第11次").exists()
    assert _debounced() == []


def test_a_debounced_task_never_holds_its_worker(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks
):
    """The task of a chapter still being edited returns at once, queued again for later."""
    import time

    chapter = make_chapter(blocks)
    chapter_autosave(user=user, chapter_id=chapter.pk, blocks=[{"position": 0, "content": "停。"}])
    version = Chapter.objects.get(pk=chapter.pk).version
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        # Run early (e.g. a broker lock released by a worker stop) while the writer types.
        assert tasks.chapter_chunk(chapter.pk, version, "autosave") == "deferred"
    assert time.monotonic() - started < 1.0  # no wait for the 3 s debounce
    [(not_before, task)] = _debounced()
    assert not_before > timezone.now() and task["args"] == (chapter.pk, version, "autosave")
    assert Chapter.objects.get(pk=chapter.pk).chunk_state == ChunkState.PENDING


def test_autosave_task_superseded_by_newer_edit(user, make_chapter, blocks, small_chunks):
    """An autosave's task gives way when a newer edit bumped the chapter version."""
    chapter = make_chapter(blocks)
    before = _child_ids_by_block(chapter)
    chapter_autosave(user=user, chapter_id=chapter.pk, blocks=[{"position": 0, "content": "一。"}])
    first_version = Chapter.objects.get(pk=chapter.pk).version
    chapter_autosave(user=user, chapter_id=chapter.pk, blocks=[{"position": 0, "content": "二。"}])
    assert tasks.chapter_chunk(chapter.pk, first_version, "autosave") == "superseded"
    assert _child_ids_by_block(chapter) == before


def test_explicit_save_ends_debounce(
    user, make_chapter, blocks, small_chunks, django_capture_on_commit_callbacks
):
    chapter = make_chapter(blocks)
    chapter_autosave(user=user, chapter_id=chapter.pk, blocks=[{"position": 1, "content": "改。"}])
    edited = list(blocks)
    edited[1] = "显式保存：唐僧念起紧箍咒，悟空疼得满地打滚，只好答应不再乱打妖怪。"
    _save(user, chapter, edited, django_capture_on_commit_callbacks)
    assert chapter.chunk_state == ChunkState.READY
    assert ChildChunk.objects.filter(chapter=chapter, text__contains="显式保存").exists()


def test_failure_recorded_and_retried(make_chapter, blocks, small_chunks, monkeypatch):
    chapter = make_chapter(blocks)
    StoryBlock.objects.filter(chapter=chapter).update(is_dirty=True)

    def boom(*args, **kwargs):
        raise RuntimeError("provider down")

    monkeypatch.setattr(indexing, "embed_texts", boom)
    status = tasks.chapter_chunk(chapter.pk)
    assert status.startswith("failed (attempt 1")
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.FAILED
    assert "provider down" in chapter.chunk_error
    retry = Schedule.objects.get(name=tasks.schedule_name(chapter.pk))
    assert retry.next_run > timezone.now()
    monkeypatch.undo()
    assert tasks.chapter_chunk(chapter.pk) == "done"
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.READY and chapter.chunk_error == ""


def test_changed_threshold_used_by_next_task(make_chapter, small_chunks):
    text = "。".join(f"第{i}句讲的是花果山的猴子们" for i in range(12)) + "。"
    chapter = make_chapter([text[:110]])
    parent = ParentChunk.objects.get(chapter=chapter)
    assert parent.analysis["sims"]
    small_chunks.cliff_mode = "percentile"
    small_chunks.cliff_percentile = 50.0
    small_chunks.save()
    StoryBlock.objects.filter(chapter=chapter).update(is_dirty=True)
    indexing.chunk_chapter(chapter.pk)
    parent = ParentChunk.objects.get(chapter=chapter)
    expected = find_cliffs(parent.analysis["sims"], mode="percentile", percentile=50.0)
    assert expected and parent.analysis["cuts"] == expected


def _fail(chapter, attempts=3):
    Chapter.objects.filter(pk=chapter.pk).update(
        chunk_state=ChunkState.FAILED,
        chunk_error="RuntimeError: provider down",
        chunk_attempts=attempts,
    )


def test_save_of_failed_chapter_makes_it_pending(user, make_chapter, blocks, small_chunks):
    chapter = make_chapter(blocks)
    _fail(chapter)
    edited = [*blocks[:-1], "沙和尚把行李换了个肩，抬头望见前面一座高山。"]
    # The task is held back (callbacks not captured): the state the writer sees at once.
    chapter_save(user=user, chapter_id=chapter.pk, blocks=[{"content": c} for c in edited])
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.PENDING
    assert chapter.chunk_attempts == 0
    assert chapter.chunk_error  # the last error stays visible until a run succeeds


def test_autosave_of_failed_chapter_makes_it_pending(user, make_chapter, blocks, small_chunks):
    chapter = make_chapter(blocks)
    _fail(chapter)
    block = chapter.blocks.get(order=0)
    chapter_autosave(
        user=user, chapter_id=chapter.pk, blocks=[{"id": block.pk, "content": "花果山。"}]
    )
    chapter.refresh_from_db()
    assert chapter.chunk_state == ChunkState.PENDING
    assert chapter.chunk_attempts == 0
