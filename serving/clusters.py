"""The worker clusters of ``manage.py serve``: one django-q2 cluster per queue, and how they stop.

Each cluster is a child forked from serve after :func:`serving.warmup.preload`, so it shares
serve's pages (Django, the apps, jieba's dictionary, the model's weights) instead of loading its
own. The child is the cluster's sentinel (django-q2's ``Sentinel``, bounded by ``config.worker``):
``qcluster``'s own main process would only wait for it. The one file that decides how a worker
process stops is this one: :func:`stop` sends SIGTERM to each sentinel (which stops its workers
within ``Q_STOP_TIMEOUT``), waits that long and ``STOP_MARGIN_SECONDS`` more, then kills
whatever is left of each cluster's process group.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import signal
import sys
import time
import traceback
import uuid
from dataclasses import dataclass

import django_q.cluster
import django_q.conf
from django.conf import settings

from config.queues import BULK, QUEUES
from serving.bounds import STOP_MARGIN_SECONDS

PR_SET_PDEATHSIG = 1  # linux/prctl.h


@dataclass
class Cluster:
    """One forked cluster: its queue and the pid of its sentinel (the leader of its group)."""

    queue: str
    pid: int

    def exited(self) -> bool:
        """Return whether the sentinel has exited (reaped here, or by gunicorn's arbiter)."""
        try:
            pid, _status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # already reaped: gunicorn reaps every child of its process
            return True
        return pid != 0


def use_queue(queue: str) -> None:
    """Make django-q2's configuration (``Conf``) the one of ``queue`` in this process.

    django-q2 reads ``Q_CLUSTER_NAME`` once, when ``django_q.conf`` is imported, and serve
    imported it before forking: evaluate a fresh copy of that module with the queue's name and
    copy its settings onto the ``Conf`` every django-q2 module refers to.
    """
    os.environ["Q_CLUSTER_NAME"] = queue
    spec = importlib.util.spec_from_file_location(f"django_q._conf_{queue}", django_q.conf.__file__)
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    for key, value in vars(fresh.Conf).items():
        if not key.startswith("__"):
            setattr(django_q.conf.Conf, key, value)


def _run_sentinel(queue: str) -> None:
    """In the forked child: become the sentinel of ``queue``'s cluster until SIGTERM."""
    # Own session: Ctrl-C reaches serve alone, which stops each cluster in order, and what is
    # left of a cluster can be killed with its whole group.
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if queue == BULK and settings.Q_BULK_NICE:
        os.nice(settings.Q_BULK_NICE)
    # Linux: a serve killed by SIGKILL still stops its clusters (gracefully) this way.
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    use_queue(queue)
    context = django_q.cluster.get_mp_context()
    # Looked up now: config.worker puts its bounded sentinel on django_q.cluster at start-up.
    django_q.cluster.Sentinel(context.Event(), context.Event(), uuid.uuid4())


def start() -> list[Cluster]:
    """Fork one cluster per queue (``config.queues.QUEUES``); return them."""
    clusters = []
    for queue in QUEUES:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            clusters.append(Cluster(queue, pid))
            continue
        code = 1
        try:
            _run_sentinel(queue)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - a child reports and exits, never returns to serve
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    return clusters


def stop(clusters: list[Cluster]) -> list[str]:
    """Stop every cluster within its stop budget and the margin; return the queues killed late."""
    for cluster in clusters:
        with contextlib.suppress(ProcessLookupError):
            os.kill(cluster.pid, signal.SIGTERM)
    deadline = time.monotonic() + float(settings.Q_STOP_TIMEOUT) + STOP_MARGIN_SECONDS
    late = []
    for cluster in clusters:
        while not cluster.exited() and time.monotonic() < deadline:
            time.sleep(0.05)
        if not cluster.exited():
            late.append(cluster.queue)
        # Whatever is left of its group (a worker orphaned by a crash) goes too.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(cluster.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(cluster.pid, 0)
    return late
