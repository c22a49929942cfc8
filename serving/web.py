"""The web server of ``manage.py serve``: gunicorn, gthread workers, configured by its settings.

Why gunicorn with threads (docs/SERVING.md has the measurements): every view is a plain
Django/DRF sync view, and under ASGI Django runs sync views one at a time per process;
gunicorn's master holds the application loaded before it forks its workers (``preload_app``:
copy-on-write sharing of Django, the views and jieba's dictionary); a gthread worker waits on
the network without holding a thread, and a thread waiting on the database or an LLM stream
gives up the GIL. Everything below is one of gunicorn's own settings or hooks:

- ``post_fork``: the web process keeps its database connections (``WEB_CONN_MAX_AGE``);
- ``post_worker_init``: the process warms up (serving/warmup.py) before its first ``accept``;
  connections that arrive meanwhile wait in the listen backlog, never on a cold model;
- ``/api/health`` says ``ready`` only once every web process has warmed up (:class:`WebServer`
  counts them): the first to finish otherwise answered ready while the others' warm-ups still
  took both CPUs (the first search then took 29-109 ms, median 68 over five starts, against 34).
"""

from __future__ import annotations

import multiprocessing

from django.conf import settings
from django.db import connections
from gunicorn.app.base import BaseApplication

from rag.warmup import add_ready_gate
from serving import warmup


def post_fork(server, worker) -> None:
    """Give the web process persistent database connections (its thread pool is fixed)."""
    for alias in connections:
        connections.settings[alias]["CONN_MAX_AGE"] = settings.WEB_CONN_MAX_AGE


def post_worker_init(worker) -> None:
    """Warm this web process up before it accepts its first connection; count it warmed."""
    seconds = warmup.warm_up()
    warmed = worker.app.warmed_up(worker.cfg.workers)
    worker.log.info(
        "worker %s ready (warm-up %.2f s; %d of %d processes warmed up)",
        worker.pid,
        seconds,
        warmed,
        worker.cfg.workers,
    )


def options(bind: str) -> dict:
    """Return the gunicorn settings of ``manage.py serve`` (all from config/settings.py)."""
    return {
        "bind": bind,
        "worker_class": "gthread",
        "workers": settings.WEB_PROCESSES,
        "threads": settings.WEB_THREADS,
        # serve already built the application in this process; fork the workers from it.
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
        "control_socket_disable": True,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "semantic-memory-web",
    }


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
        with self.warmed.get_lock():
            self.warmed.value += 1
            count = self.warmed.value
        add_ready_gate(lambda: self.warmed.value >= workers)
        return count

    def load_config(self):
        for key, value in self.settings.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application
