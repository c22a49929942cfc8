"""Where a request's time went: named spans summed per request, for the Server-Timing header.

A request opens a record (:func:`recording`, by ``config.timing.ServerTimingMiddleware``);
code on the request's own thread adds to it with :func:`span` (the query embedding, here in
``rag.embeddings``). Outside a record, :func:`span` costs one context-variable read. Work on
other threads (the embedding pool, the engine thread) is timed by the caller that waits for
it, which is what the request spent.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Record", "recording", "span", "current"]


class Record:
    """Milliseconds and counts per span name, in the order names were first seen."""

    __slots__ = ("spans", "started")

    def __init__(self):
        self.spans: dict[str, list] = {}  # name: [milliseconds, count]
        self.started = time.perf_counter()

    def add(self, name: str, seconds: float) -> None:
        """Add one event of ``seconds`` to span ``name``."""
        entry = self.spans.setdefault(name, [0.0, 0])
        entry[0] += seconds * 1000.0
        entry[1] += 1

    def elapsed_ms(self) -> float:
        """Return the milliseconds since the record was opened."""
        return (time.perf_counter() - self.started) * 1000.0


_record: ContextVar[Record | None] = ContextVar("rag_timing_record", default=None)


def current() -> Record | None:
    """Return the open record of this request, or None outside one."""
    return _record.get()


@contextmanager
def recording():
    """Open a record for the duration of the block and yield it."""
    record = Record()
    token = _record.set(record)
    try:
        yield record
    finally:
        _record.reset(token)


@contextmanager
def span(name: str):
    """Add the time the block takes to span ``name`` of the open record, if any."""
    record = _record.get()
    if record is None:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        record.add(name, time.perf_counter() - started)
