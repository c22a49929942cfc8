"""Background tasks of the platform (django-q2): the heartbeat and the work reconciler."""

from __future__ import annotations

import contextlib

from django.utils import timezone

from config.models import WorkerHeartbeat
from config.work import reconcile_all


def worker_heartbeat(name: str = "qcluster") -> None:
    """Record that a worker is alive (scheduled every minute, and after each task)."""
    WorkerHeartbeat.objects.update_or_create(name=name, defaults={"seen_at": timezone.now()})


def task_executed(sender, task, **kwargs):
    """Refresh the worker heartbeat after each task the cluster runs (``post_execute``)."""
    with contextlib.suppress(Exception):  # a heartbeat must never fail a task
        worker_heartbeat(task.get("cluster") or "qcluster")


def work_reconcile() -> dict:
    """Re-queue or fail rows whose background task was lost (scheduled every minute)."""
    return reconcile_all()
