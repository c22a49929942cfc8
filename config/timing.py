"""The ``Server-Timing`` response header: where the server spent a request's time.

``Server-Timing: db;dur=7.9;desc="7 queries", embed;dur=18.2;desc="1 call", app;dur=33.1``
(W3C Server Timing; browsers show it in their network panel, and bench/ reads it to split a
served latency). ``db`` sums the SQL statements run on the request's thread on every database
alias (opening a connection is not counted); ``embed`` the waits for the embedding provider on
that thread (``rag.timing.span("embed")``: a query's vector, and the relevance reference sample
the first search of a process embeds); ``app`` is everything inside this middleware, which sits
first in ``MIDDLEWARE``. For a streamed response (server-sent events) the header leaves with
the first bytes: ``app`` is the time to them, and the stream's own SQL is not counted. The
header sharpens what a client could time anyway (how much work a request did); on by default,
``SERVER_TIMING=0`` leaves it out.
"""

from __future__ import annotations

from contextlib import ExitStack

from django.conf import settings
from django.db import connections

from rag import timing

__all__ = ["ServerTimingMiddleware", "header_value"]


def header_value(record: timing.Record, total_ms: float) -> str:
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
        with timing.recording() as record, ExitStack() as stack:

            def timed(execute, sql, params, many, context):
                with timing.span("db"):
                    return execute(sql, params, many, context)

            # Connections are per thread; wrapping one does not open it.
            for alias in connections:
                stack.enter_context(connections[alias].execute_wrapper(timed))
            response = self.get_response(request)
            response["Server-Timing"] = header_value(record, record.elapsed_ms())
        return response
