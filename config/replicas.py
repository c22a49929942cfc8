"""Read replicas: search reads go to a streaming replica, everything else to the primary.

Configured by ``DATABASE_REPLICA_URLS`` (config/settings.py makes each a ``replica_N`` alias).
Nothing here does anything without replicas.

* A search runs inside :func:`search_reads`, which picks ONE database for all of that search's
  reads (a replica, or the primary) and tells :class:`ReplicaRouter` to send them there: a
  search never mixes two snapshots. Writes always go to the primary, migrations run only there.
* Read-your-writes: :class:`WriteMarkMiddleware` notes, after every request that wrote to the
  primary, the primary's WAL position (``pg_current_wal_lsn()``) for the requesting user, in
  ``rag_write_mark``. A later search by that user uses a replica only once the replica has
  replayed past that position (``pg_last_wal_replay_lsn()``); until then it reads the primary.
  So a client that writes messages and searches them at once finds them, on any web process
  or machine, and everybody else reads the replicas.
* Fall-back: a replica that does not answer (connect timeout ``REPLICA_CONNECT_TIMEOUT``) is
  skipped for ``REPLICA_RETRY_SECONDS``; with none left, searches read the primary.
"""

from __future__ import annotations

import collections
import contextvars
import itertools
import logging
import threading
import time
from contextlib import contextmanager, suppress

from django.conf import settings
from django.db import DatabaseError, connections, transaction

logger = logging.getLogger(__name__)

DEFAULT = "default"
_read_alias: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "rag_replica_read_alias", default=None
)
_down_until: dict[str, float] = {}
_lock = threading.Lock()
_turn = itertools.count()
# Searches per database this process sent them to (bench/replica.py reports it).
served: collections.Counter = collections.Counter()


def replicas() -> list[str]:
    """Return the configured replica aliases."""
    return list(getattr(settings, "REPLICA_DATABASES", []) or [])


def read_alias() -> str:
    """Return the database the current search reads (the primary outside a search)."""
    return _read_alias.get() or DEFAULT


def mark_down(alias: str) -> None:
    """Skip ``alias`` for ``REPLICA_RETRY_SECONDS`` (it did not answer)."""
    with _lock:
        _down_until[alias] = time.monotonic() + settings.REPLICA_RETRY_SECONDS
    with suppress(DatabaseError):
        connections[alias].close()


def _written_lsn(user_pk) -> str | None:
    if user_pk is None:
        return None
    with connections[DEFAULT].cursor() as cursor:
        cursor.execute("SELECT lsn::text FROM rag_write_mark WHERE user_id = %s", [user_pk])
        row = cursor.fetchone()
    return row[0] if row else None


def _caught_up(alias: str, lsn: str | None) -> bool:
    """Return whether ``alias`` answers and has replayed past ``lsn`` (raise if it is down)."""
    with connections[alias].cursor() as cursor:
        if lsn is None:
            cursor.execute("SELECT true")
        else:
            cursor.execute("SELECT coalesce(pg_last_wal_replay_lsn() >= %s::pg_lsn, false)", [lsn])
        return bool(cursor.fetchone()[0])


def pick(user_pk=None) -> str:
    """Return the database a search by ``user_pk`` should read: a replica when one can."""
    aliases = replicas()
    if not aliases:
        return DEFAULT
    lsn = _written_lsn(user_pk)
    start = next(_turn)
    now = time.monotonic()
    for i in range(len(aliases)):
        alias = aliases[(start + i) % len(aliases)]
        if _down_until.get(alias, 0) > now:
            continue
        try:
            if _caught_up(alias, lsn):
                return alias
        except DatabaseError as exc:
            logger.warning("replica %s does not answer, reading the primary: %s", alias, exc)
            mark_down(alias)
    return DEFAULT


@contextmanager
def search_reads(user=None):
    """Send the reads of the enclosed search to one database (see the module); yield it."""
    if not replicas() or _read_alias.get() is not None:
        yield read_alias()
        return
    alias = pick(getattr(user, "pk", None))
    served[alias] += 1
    token = _read_alias.set(alias)
    try:
        yield alias
    finally:
        _read_alias.reset(token)


@contextmanager
def read_snapshot():
    """Run the enclosed reads in one REPEATABLE READ, READ ONLY transaction.

    On the database the current search reads (:func:`read_alias`: the primary outside a
    search). ``SET TRANSACTION`` must be the first statement of the outermost transaction, so
    inside a caller's transaction (tests, a request already in ``atomic``) the caller's
    isolation applies; blocks nested inside are savepoints of this one.
    """
    alias = read_alias()
    if connections[alias].in_atomic_block:
        yield
        return
    with transaction.atomic(using=alias):
        with connections[alias].cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


class ReplicaRouter:
    """Route a search's reads to the database :func:`search_reads` chose; all else primary."""

    def db_for_read(self, model, **hints):
        return _read_alias.get()  # None: Django's default, the primary

    def db_for_write(self, model, **hints):
        return DEFAULT

    def allow_relation(self, obj1, obj2, **hints):
        return True  # replicas hold the same rows as the primary

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT


WRITES = ("INSERT", "UPDATE", "DELETE", "MERGE")


class WriteMarkMiddleware:
    """Record the primary's WAL position after a request of an authenticated user that wrote.

    Only with replicas configured. Writing is seen on the primary connection itself
    (``execute_wrapper``), so any view, service or signal that writes counts.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not replicas():
            return self.get_response(request)
        wrote = []

        def watch(execute, sql, params, many, context):
            if not wrote and sql.lstrip()[:6].upper().startswith(WRITES):
                wrote.append(True)
            return execute(sql, params, many, context)

        with connections[DEFAULT].execute_wrapper(watch):
            response = self.get_response(request)
        user = getattr(request, "user", None)
        if wrote and user is not None and user.is_authenticated:
            self._mark(user.pk)
        return response

    @staticmethod
    def _mark(user_pk) -> None:
        try:
            with connections[DEFAULT].cursor() as cursor:
                cursor.execute(
                    "INSERT INTO rag_write_mark (user_id, lsn, at) "
                    "VALUES (%s, pg_current_wal_lsn(), now()) ON CONFLICT (user_id) "
                    "DO UPDATE SET lsn = excluded.lsn, at = excluded.at",
                    [user_pk],
                )
        except DatabaseError as exc:  # the write itself succeeded; reads fall back safely
            logger.warning("could not record the write position of user %s: %s", user_pk, exc)
