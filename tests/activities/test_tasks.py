"""Indexing tasks end ready or visibly failed, whatever ended them (claim, reconciler, hook)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from activities import tasks
from activities.models import Activity, IndexState
from activities.text import EMBEDDED_DESCRIPTION_CHARS
from config import queues
from config.queues import BULK, INTERACTIVE, QUEUES, enqueue_now
from config.work import mark_stopped_task, reconcile_all

pytestmark = pytest.mark.django_db


def _left_running(activity, *, attempts=1, ago=timedelta(hours=1)):
    """Leave the row as a task killed mid-work leaves it: running, attempt counted, long ago."""
    Activity.objects.filter(pk=activity.pk).update(
        index_state=IndexState.RUNNING,
        index_attempts=attempts,
        index_state_at=timezone.now() - ago,
    )


def test_task_marks_the_row_running_before_it_embeds(make_activity, monkeypatch):
    activity = make_activity(title="先记下再干活 R1")
    seen = []
    embed = tasks.embed_activities

    def spy(activities, **kwargs):
        row = Activity.objects.get(pk=activity.pk)
        seen.append((row.index_state, row.index_attempts, row.index_state_at is not None))
        return embed(activities, **kwargs)

    monkeypatch.setattr(tasks, "embed_activities", spy)
    assert tasks.activity_index(activity.pk) == "indexed"
    assert seen == [(IndexState.RUNNING, 1, True)]
    row = Activity.objects.get(pk=activity.pk)
    assert (row.index_state, row.index_attempts) == (IndexState.INDEXED, 0)


def test_row_left_running_by_a_killed_task_is_requeued_and_indexed(
    make_activity, django_capture_on_commit_callbacks
):
    activity = make_activity(title="被杀掉的任务 R2")
    _left_running(activity)
    with django_capture_on_commit_callbacks(execute=True):
        report = reconcile_all()
    assert report["activities.index"]["requeued_running"] == 1
    row = Activity.objects.get(pk=activity.pk)
    assert row.index_state == IndexState.INDEXED and row.embedding is not None
    assert row.index_attempts == 0 and row.index_error == ""


def test_exhausted_attempts_end_failed_with_a_visible_error(make_activity, api_client):
    activity = make_activity(title="总是超时 R3")
    _left_running(activity, attempts=tasks.MAX_ATTEMPTS)
    report = reconcile_all()
    assert report["activities.index"]["failed"] == 1
    row = Activity.objects.get(pk=activity.pk)
    assert row.index_state == IndexState.FAILED
    assert row.index_error == f"timed out or worker lost after {tasks.MAX_ATTEMPTS} attempts"
    body = api_client.get(f"/api/activities/{activity.pk}/").json()
    assert body["index_state"] == "failed" and "worker lost" in body["index_error"]
    # A redelivered old task does not start the hopeless work again.
    assert tasks.activity_index(activity.pk).startswith("not claimed")
    assert Activity.objects.get(pk=activity.pk).index_attempts == tasks.MAX_ATTEMPTS


def test_a_task_still_running_is_left_to_it(make_activity):
    activity = make_activity(title="还在跑 R4")
    _left_running(activity, ago=timedelta(seconds=1))
    assert reconcile_all()["activities.index"]["requeued_running"] == 0
    # A duplicate delivery of the same task does not embed concurrently.
    assert tasks.activity_index(activity.pk).startswith("not claimed")
    assert Activity.objects.get(pk=activity.pk).index_state == IndexState.RUNNING


def test_pending_row_whose_task_was_lost_is_requeued(
    make_activity, django_capture_on_commit_callbacks, settings
):
    activity = make_activity(title="任务丢了 R5")  # its on-commit task never ran
    old = timezone.now() - timedelta(seconds=settings.TASKS_PENDING_STALE_SECONDS + 60)
    Activity.objects.filter(pk=activity.pk).update(updated_at=old)
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile_all()["activities.index"]["requeued_pending"] == 1
    assert Activity.objects.get(pk=activity.pk).index_state == IndexState.INDEXED


def test_recently_edited_pending_row_is_not_requeued(make_activity):
    make_activity(title="刚刚保存 R6")
    assert reconcile_all()["activities.index"]["requeued_pending"] == 0


def test_failed_row_whose_retry_was_lost_is_requeued(
    make_activity, django_capture_on_commit_callbacks
):
    activity = make_activity(title="重试丢了 R7")
    Activity.objects.filter(pk=activity.pk).update(
        index_state=IndexState.FAILED,
        index_attempts=1,
        index_error="ProviderError: down",
        index_state_at=timezone.now() - timedelta(hours=2),
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile_all()["activities.index"]["requeued_failed"] == 1
    assert Activity.objects.get(pk=activity.pk).index_state == IndexState.INDEXED


def test_exception_marks_failed_and_retries_with_growing_backoff(make_activity, failing_provider):
    from django_q.models import Schedule

    activity = make_activity(title="服务挂了 R8")
    delays = []
    for _ in range(2):
        before = timezone.now()
        tasks.activity_index(activity.pk)
        retry = Schedule.objects.get(name=f"activities.index.retry:{activity.pk}:1")
        delays.append((retry.next_run - before).total_seconds())
    row = Activity.objects.get(pk=activity.pk)
    assert row.index_state == IndexState.FAILED and row.index_attempts == 2
    assert "ProviderError" in row.index_error
    assert delays[1] > delays[0] > 0


def test_task_the_queue_stopped_marks_the_row_failed_and_schedules_a_retry(make_activity):
    from django_q.models import Schedule

    activity = make_activity(title="队列超时 R9")
    _left_running(activity, ago=timedelta(seconds=5))
    mark_stopped_task(
        {
            "func": "activities.tasks.activity_index",
            "args": (activity.pk,),
            "success": False,
            "result": "Task exceeded maximum timeout value (180 seconds)",
        }
    )
    row = Activity.objects.get(pk=activity.pk)
    assert row.index_state == IndexState.FAILED and "maximum timeout" in row.index_error
    retry = Schedule.objects.get(name=f"activities.index.retry:{activity.pk}:1")
    assert retry.func == "activities.tasks.enqueue_index_many"


def test_edit_gives_a_failed_row_a_fresh_retry_budget(make_activity, demo_user):
    from activities.services import activity_update

    activity = make_activity(title="改一下就好 R10")
    _left_running(activity, attempts=tasks.MAX_ATTEMPTS)
    reconcile_all()
    activity.refresh_from_db()
    activity_update(activity=activity, user=demo_user, description="换了描述，再试一次。")
    row = Activity.objects.get(pk=activity.pk)
    assert (row.index_state, row.index_attempts) == (IndexState.PENDING, 0)
    assert tasks.activity_index(activity.pk) == "indexed"


def test_stored_megabyte_description_indexes_its_bounded_beginning(
    make_activity, counting_provider
):
    activity = make_activity(title="超长描述 R11")
    huge = "一起去山里走走，看看风景。" * 80_000  # about 1 MB of UTF-8
    Activity.objects.filter(pk=activity.pk).update(description=huge)
    assert tasks.activity_index(activity.pk) == "indexed"
    row = Activity.objects.get(pk=activity.pk)
    assert row.index_state == IndexState.INDEXED
    [text] = counting_provider.texts
    assert f"描述: {huge[:EMBEDDED_DESCRIPTION_CHARS]}\n" in text
    assert len(text) < EMBEDDED_DESCRIPTION_CHARS + 200


@pytest.fixture
def real_queue(monkeypatch):
    """Make django-q2 enqueue into its broker table instead of running tasks inline."""
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", False)


def _queued_index_tasks() -> dict[int, str]:
    """Return {activity id: queue} of the indexing tasks waiting in the broker."""
    from django_q.models import OrmQ

    return {
        row.task["args"][0]: row.key
        for row in OrmQ.objects.all()
        if row.task["func"] == "activities.tasks.activity_index"
    }


def test_the_same_task_run_again_takes_its_running_row_back(make_activity):
    """A task handed back by a worker stop runs again with its id: no wait for the reconciler."""
    activity = make_activity(title="停机后重跑 R11")
    queues.task_started(task={"id": "first-delivery", "cluster": INTERACTIVE})
    try:
        claimed = tasks.INDEX_WORK.claim([activity.pk])  # then the worker is killed
        assert claimed == {activity.pk: 1}
    finally:
        queues.task_ended()
    queues.task_started(task={"id": "another-task", "cluster": INTERACTIVE})
    try:
        assert tasks.activity_index(activity.pk).startswith("not claimed")
    finally:
        queues.task_ended()
    queues.task_started(task={"id": "first-delivery", "cluster": INTERACTIVE})
    try:
        assert tasks.activity_index(activity.pk) == "indexed"
    finally:
        queues.task_ended()
    assert Activity.objects.get(pk=activity.pk).index_state == IndexState.INDEXED


@pytest.mark.parametrize("queue", QUEUES)
def test_a_failed_task_retries_on_the_queue_it_ran_on(make_activity, failing_provider, queue):
    from django_q.models import Schedule

    activity = make_activity(title="重试留在原队列 R12")
    enqueue_now("activities.tasks.activity_index", activity.pk, queue=queue)
    retry = Schedule.objects.get(name=f"activities.index.retry:{activity.pk}:1")
    assert retry.cluster == queue


def test_a_task_the_queue_stopped_is_retried_on_its_own_queue(make_activity):
    from django_q.models import Schedule

    activity = make_activity(title="批量队列超时 R13")
    _left_running(activity, ago=timedelta(seconds=5))
    mark_stopped_task(
        {
            "func": "activities.tasks.activity_index",
            "args": (activity.pk,),
            "cluster": BULK,
            "success": False,
            "result": "Task exceeded maximum timeout value (180 seconds)",
        }
    )
    retry = Schedule.objects.get(name=f"activities.index.retry:{activity.pk}:1")
    assert (retry.cluster, retry.kwargs) == (BULK, repr({"queue": BULK}))


def test_reconciler_requeues_a_recent_edit_on_interactive_and_an_old_one_on_bulk(
    make_activity, real_queue, django_capture_on_commit_callbacks
):
    recent = make_activity(title="刚写的 R14")
    old = make_activity(title="很久以前的 R15")
    Activity.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(days=1))
    _left_running(recent)
    _left_running(old)
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile_all()["activities.index"]["requeued_running"] == 2
    assert _queued_index_tasks() == {recent.pk: INTERACTIVE, old.pk: BULK}


def test_a_pending_row_whose_task_still_waits_in_the_queue_is_not_queued_twice(
    make_activity, real_queue, settings, django_capture_on_commit_callbacks
):
    waiting = make_activity(title="还在排队 R16")
    lost = make_activity(title="任务丢了 R17")
    old = timezone.now() - timedelta(seconds=settings.TASKS_PENDING_STALE_SECONDS + 60)
    Activity.objects.filter(pk__in=[waiting.pk, lost.pk]).update(updated_at=old)
    enqueue_now("activities.tasks.activity_index", waiting.pk, queue=BULK)
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile_all()["activities.index"]["requeued_pending"] == 1
    assert _queued_index_tasks() == {waiting.pk: BULK, lost.pk: BULK}
