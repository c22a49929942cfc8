"""``qcluster`` stops within 10 s on SIGTERM and SIGINT, even with a task running (rag/worker.py).

Real processes on the test database: a cluster is started, given a task that never checks for
a stop, signalled, and every process of its tree must be gone (none left defunct) in time.
"""

from __future__ import annotations

import signal

import pytest
from django.utils import timezone
from django_q.models import OrmQ

from rag.queues import INTERACTIVE, enqueue_now
from tests.rag.process_helpers import (
    STOP_BOUND_SECONDS,
    kill_group,
    start,
    still_there,
    wait_for_clusters,
    wait_for_file,
)


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
