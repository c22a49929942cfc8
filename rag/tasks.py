"""Background tasks of the rag engine (django-q2)."""

from __future__ import annotations

from django.utils import timezone

from rag.models import WorkerHeartbeat


def worker_heartbeat(name: str = "qcluster") -> None:
    """Record that a worker is alive (scheduled every minute, and after each task)."""
    WorkerHeartbeat.objects.update_or_create(name=name, defaults={"seen_at": timezone.now()})


def work_reconcile() -> dict:
    """Re-queue or fail rows whose background task was lost (scheduled every minute)."""
    from rag.work import reconcile_all

    return reconcile_all()
