"""config/queues.py: work goes to the queue it names, on commit; every schedule names its queue."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone
from django_q.models import OrmQ, Schedule

from config.queues import (
    BULK,
    INTERACTIVE,
    QUEUES,
    cluster_config,
    current_queue,
    current_task_id,
    enqueue,
    enqueue_later,
    enqueue_now,
    queue_for_rows,
)


@pytest.fixture
def real_queue(monkeypatch):
    """Make django-q2 enqueue into its broker table instead of running tasks inline."""
    from django_q.conf import Conf

    monkeypatch.setattr(Conf, "SYNC", False)


def queued() -> list[tuple[str, str]]:
    """Return (queue, function) of every task waiting in the broker, oldest first."""
    return [(row.key, row.task["func"]) for row in OrmQ.objects.order_by("pk")]


def test_enqueue_sends_to_the_named_queue_on_commit(
    db, real_queue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        enqueue("config.tasks.worker_heartbeat", "x", queue=BULK)
        assert queued() == []  # not before the commit
    assert queued() == [(BULK, "config.tasks.worker_heartbeat")]


def test_a_rolled_back_write_enqueues_nothing(transactional_db, real_queue):
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue("config.tasks.worker_heartbeat", queue=INTERACTIVE)
        raise RuntimeError("roll back")
    assert queued() == []


def test_an_unknown_queue_is_refused(db):
    with pytest.raises(ValueError, match="unknown queue"):
        enqueue("config.tasks.worker_heartbeat", queue="fast")


def test_many_rows_at_once_go_to_bulk():
    assert queue_for_rows(1) == INTERACTIVE
    assert queue_for_rows(500) == BULK


def test_each_queue_has_its_own_cluster_and_workers(settings):
    assert settings.Q_CLUSTER["name"] == INTERACTIVE  # unrouted work runs, on interactive
    assert cluster_config(INTERACTIVE)["workers"] == settings.Q_WORKERS_INTERACTIVE
    assert cluster_config(BULK)["workers"] == settings.Q_WORKERS_BULK


def test_every_recurring_schedule_names_its_queue(db):
    from django.apps import apps

    from agent.signals import register_agent_schedules
    from config.schedules import register_platform_schedules
    from memory.apps import register_memory_schedules

    for register, app in [
        (register_platform_schedules, "platform"),
        (register_memory_schedules, "memory"),
        (register_agent_schedules, "agent"),
    ]:
        register(sender=apps.get_app_config(app))
    clusters = dict(Schedule.objects.values_list("name", "cluster"))
    assert clusters["memory.retention_sweep"] == BULK
    assert clusters["agent.daily_digest"] == BULK
    assert clusters["rag.worker_heartbeat.bulk"] == BULK
    assert clusters["rag.worker_heartbeat"] == INTERACTIVE
    assert set(clusters.values()) <= set(QUEUES)


def test_a_queue_without_workers_is_a_configuration_error(settings):
    from config.checks import check_queues

    settings.Q_CLUSTER = {
        **settings.Q_CLUSTER,
        "ALT_CLUSTERS": {BULK: {"workers": 0}},
    }
    assert [e.id for e in check_queues()] == ["platform.E012"]


def test_a_stop_budget_past_the_bound_is_a_configuration_error(settings):
    from config.checks import check_queues

    settings.Q_STOP_TIMEOUT = 30
    assert [e.id for e in check_queues()] == ["platform.E013"]


def test_a_task_run_inline_leaves_the_process_signal_handlers_alone(db):
    """Sync mode runs tasks in the caller (a web request's thread): it is no worker."""
    import signal
    import threading

    from django.db import connections

    from config.models import WorkerHeartbeat
    from config.queues import enqueue_now

    before = signal.getsignal(signal.SIGTERM)
    errors = []

    def run():
        try:
            enqueue_now("config.tasks.worker_heartbeat", "inline", queue=INTERACTIVE)
            # This thread's connection commits outside the test's transaction (the task's row and
            # the heartbeat after it): take them back, or later tests (tests/rag/test_health.py)
            # find heartbeats they did not record.
            WorkerHeartbeat.objects.filter(name__in=["inline", INTERACTIVE]).delete()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()  # this thread's own connection

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    enqueue_now("config.tasks.worker_heartbeat", "inline", queue=INTERACTIVE)  # main thread too
    assert errors == []
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("queue", QUEUES)
def test_a_task_knows_its_queue_and_its_own_id(db, tmp_path, queue):
    out = tmp_path / "context"
    task_id = enqueue_now("tests.rag.queue_probe.record_context", str(out), queue=queue)
    assert out.read_text() == f"{queue} {task_id}"


def test_outside_a_task_there_is_no_task_and_the_queue_is_the_default(db, tmp_path):
    enqueue_now("tests.rag.queue_probe.record_context", str(tmp_path / "c"), queue=BULK)
    # The inline run is over: this process is no longer inside it.
    assert (current_queue(), current_task_id()) == (INTERACTIVE, "")


# --- enqueue_later: the one way a task is retried or continued later ---------------------


TOUCH = "tests.rag.queue_probe.touch"


def run_scheduler(monkeypatch, queue: str) -> None:
    """Run one pass of django-q2's scheduler as the cluster of ``queue`` does."""
    from django_q.conf import Conf
    from django_q.scheduler import scheduler

    monkeypatch.setattr(Conf, "CLUSTER_NAME", queue)
    scheduler()


def test_enqueue_later_runs_the_function_once_on_its_queue_after_the_delay(
    transactional_db, real_queue, clock, monkeypatch
):
    def probes() -> list:
        # The recurring schedules (heartbeat, reconciler) come due too: only the probe counts.
        return [row for row in OrmQ.objects.order_by("pk") if row.task["func"] == TOUCH]

    enqueue_later(TOUCH, "/tmp/x", queue=BULK, key="probe:1", delay=60)
    run_scheduler(monkeypatch, BULK)
    assert probes() == []  # not due yet
    clock.shift(61)
    run_scheduler(monkeypatch, INTERACTIVE)
    assert probes() == []  # another queue's scheduler leaves it alone
    run_scheduler(monkeypatch, BULK)
    run_scheduler(monkeypatch, BULK)
    [row] = probes()
    assert (row.key, row.task["args"]) == (BULK, ("/tmp/x",))
    assert not Schedule.objects.filter(name="probe:1").exists()  # gone once it has run


def test_enqueue_later_passes_keyword_arguments_to_the_function(db):
    enqueue_later("m.f", [1, 2], queue=BULK, key="k", delay=5, kwargs={"queue": INTERACTIVE})
    schedule = Schedule.objects.get(name="k")
    assert (schedule.args, schedule.kwargs) == ("([1, 2],)", "{'queue': 'interactive'}")
    assert (schedule.cluster, schedule.schedule_type) == (BULK, Schedule.ONCE)


def test_enqueue_later_with_the_same_key_moves_the_one_schedule(db, clock):
    enqueue_later("m.f", queue=BULK, key="k", delay=10)
    first = Schedule.objects.get(name="k").next_run
    enqueue_later("m.f", queue=BULK, key="k", delay=100)
    [schedule] = Schedule.objects.filter(name="k")
    assert schedule.next_run > first


def test_enqueue_later_without_move_leaves_a_waiting_schedule_where_it_is(db):
    enqueue_later("m.f", queue=BULK, key="k", delay=10)
    first = Schedule.objects.get(name="k").next_run
    enqueue_later("m.f", queue=BULK, key="k", delay=100, move=False)
    [schedule] = Schedule.objects.filter(name="k")
    assert schedule.next_run == first


@pytest.mark.parametrize("when", [{}, {"delay": 5, "at": timezone.now()}])
def test_enqueue_later_needs_exactly_one_of_delay_and_at(db, when):
    with pytest.raises(ValueError, match="delay or at"):
        enqueue_later("m.f", queue=BULK, key="k", **when)


def test_enqueue_later_refuses_an_unknown_queue(db):
    with pytest.raises(ValueError, match="unknown queue"):
        enqueue_later("m.f", queue="fast", key="k", delay=5)
