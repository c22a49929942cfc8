"""The production web server of ``manage.py serve``: gunicorn, gthread workers, preloaded.

Why gunicorn with threads (docs/SERVING.md has the measurements): every view is a plain
Django/DRF sync view, and under ASGI (uvicorn, granian's ASGI mode) Django runs sync views one
at a time per process (thread-sensitive ``sync_to_async``); gunicorn's master can hold the
application loaded before it forks its workers (copy-on-write sharing of Django, the views and
jieba's dictionary), which granian cannot; a gthread worker waits on the network without
holding a thread, and a thread waiting on the database or on an LLM stream gives up the GIL.

Each worker process runs :func:`rag.warmup.warm_up` in ``post_worker_init``, before its first
``accept``: connections that arrive meanwhile wait in the listen backlog, never on a cold model.
``/api/health`` says ``ready`` only once every worker process has warmed up (:class:`WebServer`
counts them): the first to finish otherwise answered ready while the others' warm-ups (the
model, a database connection and warm-up searches per thread) still took both CPUs, and the
first search then took 29-109 ms (median 68 over five starts) against 34.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import threading
import time

from django.conf import settings
from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import ThreadWorker

from config.threadpool import LifoThreadPool

logger = logging.getLogger(__name__)


def post_fork(server, worker) -> None:
    """Give the web process persistent database connections (its thread pool is fixed)."""
    from django.db import connections

    for alias in connections:
        connections.settings[alias]["CONN_MAX_AGE"] = settings.WEB_CONN_MAX_AGE


# Seconds the request threads may take to open their database connections at start.
CONNECT_BUDGET_SECONDS = 30.0


def _connect_thread(barrier: threading.Barrier) -> None:
    """In one request thread: open its connection and warm it, then wait for the others."""
    from django.db import DatabaseError, connection

    from rag.warmup import run_hooks

    with contextlib.suppress(DatabaseError):
        connection.ensure_connection()
    # The apps' warm-up searches on this thread's own connection: each PostgreSQL backend
    # builds its catalog and plan caches once, here, not in the first request it serves.
    run_hooks()
    with contextlib.suppress(threading.BrokenBarrierError):
        barrier.wait(CONNECT_BUDGET_SECONDS)  # stay busy until all have one: a task per thread


def connect_threads(worker) -> None:
    """Open and warm the database connection of every request thread of this worker.

    PostgreSQL starts a backend process per connection: tens of milliseconds on a busy
    machine, which the first request of each thread would otherwise pay; and each backend
    builds its own catalog and plan caches on its first searches (about 6 ms more on the first
    search of a new connection at 100k activities), which the warm-up searches pay here.
    """
    from rag.embeddings import stand_in_vectors

    threads = worker.cfg.threads
    barrier = threading.Barrier(threads)
    # The warm-up searches take a stand-in query vector: the model ran once already (warm_up),
    # and only the SQL is for each connection. This process takes no request meanwhile.
    with stand_in_vectors():
        futures = [worker.tpool.submit(_connect_thread, barrier) for _ in range(threads)]
        for future in futures:
            with contextlib.suppress(Exception):
                future.result(CONNECT_BUDGET_SECONDS * 2)


def post_worker_init(worker) -> None:
    """Warm this web process up before it accepts its first connection; count it warmed."""
    from rag import warmup

    seconds = warmup.warm_up()
    started = time.monotonic()
    connect_threads(worker)
    warmup.trim_heap()  # what the warm-up freed goes back to the system
    warmed = worker.app.warmed_up(worker.cfg.workers)
    worker.log.info(
        "worker %s ready (warm-up %.2f s, connections %.2f s; %d of %d processes warmed up)",
        worker.pid,
        seconds,
        time.monotonic() - started,
        warmed,
        worker.cfg.workers,
    )


def _own_host() -> str:
    """Return a host name this site answers to (an ``ALLOWED_HOSTS`` entry)."""
    for host in settings.ALLOWED_HOSTS:
        if host != "*":
            return host.lstrip(".")  # ".example.com" allows example.com itself
    return "localhost"


def rehearse_request(application, path: str = "/") -> int:
    """Send one GET of ``path`` through ``application`` in this process; return its status.

    Called before the web processes are forked: what Django builds on a first request (the
    session and message storages it imports, the page's compiled templates, lazily compiled
    regular expressions) then sits in pages they share, instead of costing each one's first
    request a few milliseconds. Anonymous, so it reads and writes nothing of a user's.
    Failures are logged, never raised (0).
    """
    import io
    from wsgiref.util import setup_testing_defaults

    environ = {"PATH_INFO": path, "HTTP_HOST": _own_host(), "wsgi.errors": io.StringIO()}
    setup_testing_defaults(environ)
    seen: list[str] = []
    try:
        body = application(environ, lambda status, headers, exc_info=None: seen.append(status))
        for _ in body:
            pass
        getattr(body, "close", lambda: None)()
    except Exception:  # noqa: BLE001 - a warm-up never keeps the server from starting
        logger.warning("serve: the rehearsal request failed", exc_info=True)
        return 0
    return int(seen[0].split()[0]) if seen else 0


# Every this many requests a web process returns the heap memory it freed (rag.warmup.trim_heap).
TRIM_EVERY_REQUESTS = 20
_requests = itertools.count(1)


def post_request(worker, req, environ, resp) -> None:
    """Trim the heap every ``TRIM_EVERY_REQUESTS`` requests of this process."""
    if next(_requests) % TRIM_EVERY_REQUESTS == 0:
        from rag.warmup import trim_heap

        trim_heap()


def options(bind: str) -> dict:
    """Return the gunicorn settings of ``manage.py serve`` (all from config/settings.py)."""
    return {
        "bind": bind,
        "worker_class": "config.serving.WebWorker",
        "workers": settings.WEB_PROCESSES,
        "threads": settings.WEB_THREADS,
        # serve already built the application in the parent; keep it, fork from it.
        "preload_app": True,
        "graceful_timeout": settings.WEB_GRACEFUL_TIMEOUT,
        # A gthread worker tells the master it lives from its event loop, not per request: an
        # hour-long event stream does not count against this.
        "timeout": 60,
        "keepalive": 5,
        "max_requests": settings.WEB_MAX_REQUESTS,
        "max_requests_jitter": settings.WEB_MAX_REQUESTS // 10,
        "post_fork": post_fork,
        "post_worker_init": post_worker_init,
        "post_request": post_request,
        "control_socket_disable": True,
        "errorlog": "-",
        "loglevel": "info",
        # The proxy in front (if any) is trusted from this machine only, as gunicorn's default.
        "proc_name": "semantic-memory-web",
    }


class WebWorker(ThreadWorker):
    """gunicorn's gthread worker whose most recently idle thread takes the next request.

    Its database connection and caches are the warmest (config/threadpool.py).
    """

    def get_thread_pool(self):
        return LifoThreadPool(self.cfg.threads)


class WebServer(BaseApplication):
    """gunicorn's arbiter around an application object that is already loaded.

    It counts the worker processes that have warmed up, in memory the workers it forks share.
    """

    def __init__(self, application, *, bind: str, **overrides):
        self.application = application
        self.settings = {**options(bind), **overrides}
        # Made before the fork, so every worker process sees and adds to the same count.
        self.warmed = multiprocessing.Value("i", 0)
        super().__init__()

    def warmed_up(self, workers: int) -> int:
        """Count this process warmed up; make readiness wait for ``workers``; return the count.

        The count only grows: a process that replaces a recycled or dead one warms up before
        its first ``accept`` and counts again, so once every process has warmed up the server
        stays ready.
        """
        from rag import warmup

        with self.warmed.get_lock():
            self.warmed.value += 1
            count = self.warmed.value
        warmup.add_ready_gate(lambda: self.warmed.value >= workers)
        return count

    def load_config(self):
        for key, value in self.settings.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application
