"""Tasks the worker tests enqueue: they leave marker files so a test can see what ran when."""

from __future__ import annotations

import time
from pathlib import Path


def touch(path: str) -> str:
    """Create ``path`` (the task ran)."""
    Path(path).touch()
    return "touched"


def wait_for_gate(gate: str, done: str, limit: float = 120.0) -> str:
    """Block until ``gate`` exists (at most ``limit`` s), then create ``done``."""
    deadline = time.monotonic() + limit
    while not Path(gate).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    Path(done).touch()
    return "released"


def sleep_long(started: str, seconds: float = 120.0) -> str:
    """Create ``started``, then sleep without ever checking for a stop request."""
    Path(started).touch()
    time.sleep(seconds)
    return "slept"


def record_context(path: str) -> str:
    """Write the queue and the task id this task sees (``config.queues``) into ``path``."""
    from config.queues import current_queue, current_task_id

    Path(path).write_text(f"{current_queue()} {current_task_id()}")
    return "recorded"


def claim_then_sleep(activity_id: int, marker_dir: str, seconds: float = 120.0) -> str:
    """Claim the activity's row as ``activity_index`` does; the first delivery then hangs.

    Markers in ``marker_dir``: ``started`` (claimed), ``refused`` (the claim was refused),
    ``done`` (a later delivery finished the row). The first delivery sleeps without checking
    for a stop, so a worker stop must kill it.
    """
    from activities.models import Activity
    from activities.tasks import INDEX_WORK

    markers = Path(marker_dir)
    if not INDEX_WORK.claim([activity_id]):
        (markers / "refused").touch()
        return "not claimed"
    first = not (markers / "started").exists()
    (markers / "started").touch()
    if first:
        time.sleep(seconds)
    Activity.objects.filter(pk=activity_id).update(**INDEX_WORK.done_values())
    (markers / "done").touch()
    return "done"
