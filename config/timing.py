"""The ``Server-Timing`` response header: where the server spent a request's time.

``Server-Timing: db;dur=7.9;desc="7 queries", embed;dur=18.2;desc="1 call", app;dur=33.1``
(W3C Server Timing; browsers show it in their network panel, and bench/ reads it to split a
served latency). ``db`` sums the SQL statements run on the request's thread on every database
alias (opening a connection is not counted); ``embed`` the waits for the embedding provider on
that thread (:func:`span` ``("embed")`` in ``rag.embeddings``: a query's vector, and the
relevance reference sample the first search of a process embeds); ``app`` is everything inside
this middleware, which sits first in ``MIDDLEWARE``. For a streamed response (server-sent
events) the header leaves with the first bytes: ``app`` is the time to them, and the stream's
own SQL is not counted. The header sharpens what a client could time anyway (how much work a
request did); on by default, ``SERVER_TIMING=0`` leaves it out.

A request opens a record (:func:`recording`, by :class:`ServerTimingMiddleware`); code on the
request's own thread adds to it with :func:`span`. Outside a record, :func:`span` costs one
context-variable read. Work on other threads (the embedding pool, the engine thread) is timed by
the caller that waits for it, which is what the request spent.
"""

from __future__ import annotations

import time
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.db import connections

__all__ = ["Record", "ServerTimingMiddleware", "current", "header_value", "recording", "span"]


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


_record: ContextVar[Record | None] = ContextVar("timing_record", default=None)


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


def header_value(record: Record, total_ms: float) -> str:
    """Return the Server-Timing value of ``record``, with ``app`` = ``total_ms``."""
    parts = []
    for name, (ms, count) in record.spans.items():
        one, many = ("query", "queries") if name == "db" else ("call", "calls")
        parts.append(f'{name};dur={ms:.1f};desc="{count} {one if count == 1 else many}"')
    parts.append(f"app;dur={total_ms:.1f}")
    return ", ".join(parts)


class ServerTimingMiddleware:
    """Time the request's SQL and embeddings and send the sums in ``Server-Timing``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not settings.SERVER_TIMING:
            return self.get_response(request)
        with recording() as record, ExitStack() as stack:

            def timed(execute, sql, params, many, context):
                with span("db"):
                    return execute(sql, params, many, context)

            # Connections are per thread; wrapping one does not open it.
            for alias in connections:
                stack.enter_context(connections[alias].execute_wrapper(timed))
            response = self.get_response(request)
            response["Server-Timing"] = header_value(record, record.elapsed_ms())
        return response
