"""Register django-q2 schedules idempotently (called from post_migrate receivers)."""

from __future__ import annotations

from django.utils import timezone
from django_q.models import Schedule

from config.queues import INTERACTIVE, QUEUES


def ensure_schedule(
    func: str,
    *args,
    name: str,
    queue: str,
    schedule_type: str,
    minutes: int | None = None,
) -> None:
    """Create or update the named schedule so it runs ``func(*args)`` on ``queue`` as given."""
    if queue not in QUEUES:
        raise ValueError(f"unknown queue {queue!r}")
    defaults = {
        "func": func,
        "args": repr(args) if args else None,
        "cluster": queue,
        "schedule_type": schedule_type,
        "minutes": minutes,
        "repeats": -1,
    }
    schedule, created = Schedule.objects.get_or_create(
        name=name, defaults={**defaults, "next_run": timezone.now()}
    )
    if not created:
        changed = [k for k, v in defaults.items() if getattr(schedule, k) != v]
        if changed:
            for key in changed:
                setattr(schedule, key, defaults[key])
            schedule.save(update_fields=changed)


def register_platform_schedules(sender, **kwargs):
    """Schedule every minute the worker heartbeat on each queue and the work reconciler.

    The schedules keep the names they had under rag (``rag.work_reconcile``...): an installed
    service's rows are updated to the moved functions instead of left behind.
    """
    ensure_schedule(
        "config.tasks.work_reconcile",
        name="rag.work_reconcile",
        queue=INTERACTIVE,
        schedule_type=Schedule.MINUTES,
        minutes=1,
    )
    for queue in QUEUES:  # rag.worker_heartbeat (interactive), rag.worker_heartbeat.bulk, ...
        ensure_schedule(
            "config.tasks.worker_heartbeat",
            queue,
            name="rag.worker_heartbeat" + ("" if queue == INTERACTIVE else f".{queue}"),
            queue=queue,
            schedule_type=Schedule.MINUTES,
            minutes=1,
        )
