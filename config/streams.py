"""Caps on responses that hold a web thread while they stream (docs/SECURITY.md, "Slow clients").

An export or an agent chat stream holds a server thread until its client has read the last
byte. :func:`stream_slot` takes one of the caller's ``STREAM_MAX_PER_USER`` slots and one of
``STREAM_MAX_TOTAL`` in all, or raises ``Throttled`` (429 RATE_LIMITED with Retry-After). A slot
is a PostgreSQL session advisory lock: it counts across processes and machines and goes with
the connection if a process dies. :class:`CappedStream` gives the slot back when the response
is closed (done, failed or abandoned by the client) and ends the stream at its wall-clock
deadline: between chunks it stops and sends ``on_deadline``; while a chunk is being written to
a client that does not read, the socket's timeout (gunicorn's, from ``environ``) is the time
left, so the write fails and gunicorn closes the connection.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import connection
from rest_framework.exceptions import Throttled

logger = logging.getLogger(__name__)

# Advisory lock key spaces ("STU", "STA" in ASCII): a user's slots, everybody's slots.
USER_SPACE = 0x535455
TOTAL_SPACE = 0x535441
# Seconds a refused client is told to wait.
RETRY_AFTER_SECONDS = 10

# The first free slot of ``first..last`` in ``space``. A session takes an advisory lock it holds
# again (a count), so slots this connection holds already are skipped first (CASE fixes the
# order): requests that share a connection (the test client) count apart too.
_TRY_SLOT = """
SELECT slot FROM generate_series(%(first)s, %(last)s) AS slot
WHERE CASE
    WHEN slot IN (
        SELECT objid::bigint FROM pg_locks
        WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objsubid = 2
          AND classid = %(space)s::oid AND granted
    ) THEN false
    ELSE pg_try_advisory_lock(%(space)s, slot::int)
END
LIMIT 1
"""


def take_slot(space: int, first: int, count: int) -> int | None:
    """Take the first free slot of ``first .. first + count - 1`` in advisory lock ``space`` for
    this session (released with :func:`give_back_slot` or the connection); None when all are
    held."""
    with connection.cursor() as cursor:
        cursor.execute(_TRY_SLOT, {"first": first, "last": first + count - 1, "space": space})
        row = cursor.fetchone()
    return None if row is None else row[0]


def give_back_slot(space: int, slot: int) -> None:
    """Release a slot :func:`take_slot` took."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [space, slot])


class Slot:
    """One held slot of a user and one of the whole service; release once."""

    def __init__(self, user_slot: int, total_slot: int):
        self.held = [(USER_SPACE, user_slot), (TOTAL_SPACE, total_slot)]

    def release(self) -> None:
        held, self.held = self.held, []
        for space, slot in held:
            try:
                give_back_slot(space, slot)
            except Exception:  # noqa: BLE001 - a lost connection released it already
                logger.warning("stream slot %s/%s not released", space, slot, exc_info=True)


def stream_slot(user_id: int) -> Slot:
    """Take a slot of ``user_id`` and one of the service, or raise Throttled (429)."""
    per_user = settings.STREAM_MAX_PER_USER
    user_slot = take_slot(USER_SPACE, (user_id * per_user) % (2**31 - per_user), per_user)
    if user_slot is None:
        raise Throttled(
            wait=RETRY_AFTER_SECONDS,
            detail=f"You have {per_user} exports or streams running; wait for one to end.",
        )
    total_slot = take_slot(TOTAL_SPACE, 0, settings.STREAM_MAX_TOTAL)
    if total_slot is None:
        give_back_slot(USER_SPACE, user_slot)
        raise Throttled(
            wait=RETRY_AFTER_SECONDS,
            detail="Too many exports and streams are running; try again shortly.",
        )
    return Slot(user_slot, total_slot)


class CappedStream:
    """Iterate ``chunks`` until ``max_seconds`` have passed; release ``slot`` (if any) on close."""

    def __init__(
        self, chunks, slot: Slot | None, *, max_seconds: float, on_deadline: bytes, environ
    ):
        self.chunks = chunks
        self.slot = slot
        self.deadline = time.monotonic() + max_seconds
        self.on_deadline = on_deadline
        self.socket = environ.get("gunicorn.socket")

    def __iter__(self):
        for chunk in self.chunks:
            left = self.deadline - time.monotonic()
            if left <= 0:
                yield self._bounded(self.on_deadline, 1.0)
                return
            yield self._bounded(chunk, left)

    def _bounded(self, chunk: bytes, seconds: float) -> bytes:
        """Let the server's write of ``chunk`` block ``seconds`` at most."""
        if self.socket is not None:
            self.socket.settimeout(max(seconds, 0.001))
        return chunk

    def close(self) -> None:
        try:
            close = getattr(self.chunks, "close", None)
            if close is not None:
                close()
        finally:
            if self.slot is not None:
                self.slot.release()
