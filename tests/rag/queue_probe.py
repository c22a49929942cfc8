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
