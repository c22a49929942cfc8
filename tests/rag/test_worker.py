"""``qcluster`` stops within 10 s on SIGTERM and SIGINT, even with a task running.

The bounded stop is config/worker.py.

Real processes on the test database: a cluster is started, given a task that never checks for
a stop, signalled, and every process of its tree must be gone (none left defunct) in time; the
task it cut short runs again at the next start and takes its claimed row back at once.
"""

from __future__ import annotations

import signal
from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.models import OrmQ

from config.queues import INTERACTIVE, enqueue_now
from tests.rag.process_helpers import (
    STOP_BOUND_SECONDS,
    kill_group,
    start,
    still_there,
    wait_for_clusters,
    wait_for_file,
)

# Starts real workers in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_qcluster_stops_within_ten_seconds_while_a_task_runs(worker_env, tmp_path, signum):
    log = tmp_path / "qcluster.log"
    process = start(worker_env, "qcluster", log=log)
    try:
        procs = wait_for_clusters(process, clusters=1, workers=2, log=log)
        started = tmp_path / "started"
        enqueue_now("tests.rag.queue_probe.sleep_long", str(started), queue=INTERACTIVE, sync=False)
        wait_for_file(started, process, log)

        process.send_signal(signum)
        process.wait(timeout=STOP_BOUND_SECONDS)
    finally:
        kill_group(process)
    assert still_there(procs) == [], log.read_text()


def test_a_task_cut_short_by_a_stop_is_handed_back_to_the_queue(worker_env, tmp_path):
    log = tmp_path / "qcluster.log"
    process = start(worker_env, "qcluster", log=log)
    try:
        wait_for_clusters(process, clusters=1, workers=2, log=log)
        started = tmp_path / "started"
        enqueue_now("tests.rag.queue_probe.sleep_long", str(started), queue=INTERACTIVE, sync=False)
        wait_for_file(started, process, log)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=STOP_BOUND_SECONDS)
    finally:
        kill_group(process)
    # Still queued, and not locked for `retry` seconds: the next start runs it at once.
    row = OrmQ.objects.get(key=INTERACTIVE)
    assert row.lock <= timezone.now()


def test_a_row_claimed_by_a_task_a_stop_killed_is_finished_at_the_next_start(
    worker_env, tmp_path, django_user_model
):
    from activities.models import Activity, IndexState
    from activities.services import activity_create

    # The reconciler cannot help within this test: a running row is stale after 610 s, a
    # pending one after an hour. Only the re-delivered task itself can finish the row.
    worker_env.update(Q_TIMEOUT="600", Q_RETRY="900", TASKS_PENDING_STALE_SECONDS="3600")
    user = django_user_model.objects.create_user("stopper", password="x")
    activity = activity_create(
        creator=user,
        title="停机时正在索引",
        description="一个被停机打断的任务。",
        type="桌游",
        tags=["桌游"],
        start_at=timezone.now() + timedelta(days=3),
        lat=31.23,
        lng=121.47,
        location_name="人民广场",
        max_participants=6,
        current_participants=0,
    )
    OrmQ.objects.all().delete()  # its own indexing task: this test runs the probe instead
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    first = start(worker_env, "qcluster", log=first_log)
    try:
        wait_for_clusters(first, clusters=1, workers=2, log=first_log)
        enqueue_now(
            "tests.rag.queue_probe.claim_then_sleep",
            activity.pk,
            str(tmp_path),
            queue=INTERACTIVE,
            sync=False,
        )
        wait_for_file(tmp_path / "started", first, first_log)
        assert Activity.objects.get(pk=activity.pk).index_state == IndexState.RUNNING
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=STOP_BOUND_SECONDS)
    finally:
        kill_group(first)
    # The killed task left its row running with a fresh time stamp.
    assert Activity.objects.get(pk=activity.pk).index_state == IndexState.RUNNING
    second = start(worker_env, "qcluster", log=second_log)
    try:
        wait_for_file(tmp_path / "done", second, second_log)
    finally:
        kill_group(second)
    assert not (tmp_path / "refused").exists()
    assert Activity.objects.get(pk=activity.pk).index_state == IndexState.INDEXED


def test_install_puts_the_bounded_sentinel_in_django_q2s_cluster(monkeypatch):
    import django_q.cluster

    from config import worker

    monkeypatch.setattr(django_q.cluster, "Sentinel", worker.Sentinel)
    worker.install()
    assert django_q.cluster.Sentinel is worker.BoundedSentinel


def test_install_leaves_django_q2s_own_sentinel_on_a_release_not_checked(monkeypatch):
    import django_q.cluster

    from config import worker

    monkeypatch.setattr(django_q.cluster, "Sentinel", worker.Sentinel)
    monkeypatch.setattr(worker, "CHECKED_DJANGO_Q2", frozenset({(0, 0, 1)}))
    worker.install()
    assert django_q.cluster.Sentinel is worker.Sentinel
