"""The shared state machine of background work: backoff, the reconciler's schedule, dispatch."""

from __future__ import annotations

import pytest
from django.test import override_settings

from config import work


def test_backoff_doubles_up_to_a_ceiling():
    assert [work.backoff_seconds(n, 10) for n in (1, 2, 3)] == [10, 20, 40]
    assert work.backoff_seconds(30) == work.BACKOFF_MAX_SECONDS


def test_a_running_row_is_stale_only_after_the_worker_timeout():
    with override_settings(Q_CLUSTER={"timeout": 42}):
        assert work.running_stale_after().total_seconds() == 42 + work.RUNNING_GRACE_SECONDS


@pytest.mark.django_db
def test_reconciler_is_scheduled_every_minute_once():
    from django_q.models import Schedule

    from config.schedules import register_platform_schedules

    register_platform_schedules(sender=None)
    register_platform_schedules(sender=None)
    [schedule] = Schedule.objects.filter(name="rag.work_reconcile")
    assert schedule.func == "config.tasks.work_reconcile"
    assert (schedule.schedule_type, schedule.minutes) == (Schedule.MINUTES, 1)


def test_every_app_with_background_rows_registers_its_work():
    assert {w.name for w in work.registered()} >= {
        "activities.index",
        "writing.chunk",
        "memory.embed",
    }


@pytest.mark.django_db
def test_one_failing_kind_does_not_stop_the_others(monkeypatch):
    broken = work.registered()[0]

    def boom(self):
        if self is broken:
            raise RuntimeError("broken")
        return {"failed": 0}

    monkeypatch.setattr(work.Work, "reconcile", boom)
    report = work.reconcile_all()
    assert report[broken.name] == {"error": 1}
    assert all(v == {"failed": 0} for k, v in report.items() if k != broken.name)
