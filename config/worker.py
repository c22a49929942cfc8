"""A django-q2 cluster that stops within a bound: ``Q_STOP_TIMEOUT`` seconds after SIGTERM/SIGINT.

Why ``qcluster`` hung for 20-55 s on SIGTERM/SIGINT: django-q2's ``Sentinel.stop`` waits,
without any bound, for (1) the pusher, which blocks while putting a task into a full in-memory
task queue, (2) every task the pusher had already fetched, because the STOP pills go in *behind*
them (up to ``workers**2`` prefetched tasks, each a chapter's chunking of 5-40 s under load),
and (3) each running task to its end. Meanwhile the sentinel itself dies at once on a SIGTERM
sent to it (its handler is the default), leaving its workers orphaned.

:class:`BoundedSentinel` replaces that sequence: stop the pusher, take the prefetched tasks back
out of the in-memory queue, ask busy workers to stop (SIGTERM: a task that waits checks
:func:`config.queues.stop_requested` and returns), give them until the deadline,
kill what is left, stop the monitor, and release the broker locks of every task of this queue
that was fetched but not finished, so the next start runs them at once instead of after the
``retry`` lock (360 s). Tasks are safe to run twice (a project rule), which is what makes this
safe; it assumes one cluster per queue, which is how ``manage.py serve`` runs them.

:func:`install` swaps it into ``django_q.cluster`` (called from ``PlatformConfig.ready``), so the
plain ``manage.py qcluster`` and ``manage.py serve`` (which runs ``django_q.cluster.Sentinel``
itself) get the bounded stop too.

Why a subclass and not settings: none of django-q2's options bounds a stop. ``timeout`` kills a
task after that long whether or not the cluster stops (180 s here: cut to 7 s it would kill
every long chunking run), ``retry`` is when the broker hands an unacknowledged task out again
(step 4 only makes that immediate after a stop), and ``max_attempts``, ``ack_failures``,
``recycle``, ``guard_cycle`` and ``catch_up`` do not touch stopping; ``Cluster.stop`` and
``Sentinel.stop`` wait without a bound in every release. The subclass reads the sentinel's
attributes (``pusher``, ``pool``, ``task_queue``, ``result_queue``, ``monitor``,
``event_out``), so it is swapped in only for the django-q2 releases it was checked against
(:data:`CHECKED_DJANGO_Q2`); with another, django-q2's own stop runs and ``manage.py check``
says so (``platform.W003``) until this file is checked against it.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue as queue_module
import signal
import threading
import time

import django_q.cluster
from django.conf import settings
from django.db import connections
from django.utils import timezone
from django_q import VERSION as DJANGO_Q2_VERSION
from django_q.cluster import Sentinel
from django_q.models import OrmQ
from django_q.signals import post_execute_in_worker, post_spawn, pre_execute
from django_q.status import Stat

from config.queues import install_stop_handler, task_ended, task_started
from config.tasks import worker_heartbeat

logger = logging.getLogger(__name__)

# The django-q2 releases whose Sentinel the stop sequence below was read against and whose
# stop the worker tests (tests/rag/test_worker.py, tests/platform/test_worker_faults.py) pass on.
CHECKED_DJANGO_Q2 = frozenset({(1, 11, 1)})

# Part of the stop budget kept for the monitor (it saves the results of finished tasks).
MONITOR_RESERVE_SECONDS = 1.5


class BoundedSentinel(Sentinel):
    """django-q2's sentinel with a stop sequence that ends within ``Q_STOP_TIMEOUT``."""

    def start(self):
        # A SIGTERM sent to the sentinel itself (systemd, a process-group kill) starts the
        # same graceful stop instead of killing it and orphaning the workers.
        # Set from another thread: the handler runs in the thread that waits on the event,
        # and a multiprocessing Event's set() waits for its sleepers to wake: itself.
        signal.signal(
            signal.SIGTERM,
            lambda signum, frame: threading.Thread(target=self.stop_event.set, daemon=True).start(),
        )
        beat(self.queue_name())
        super().start()

    def _drain(self) -> list[int]:
        """Take the fetched-but-not-started tasks back out of the in-memory queue."""
        ack_ids = []
        while True:
            try:
                task = self.task_queue.get_nowait()
            except (queue_module.Empty, OSError, ValueError):
                return ack_ids
            if isinstance(task, dict) and task.get("ack_id"):
                ack_ids.append(task["ack_id"])

    def stop(self):
        budget = float(getattr(settings, "Q_STOP_TIMEOUT", 7.0))
        deadline = time.monotonic() + budget
        Stat(self).save()
        logger.info("stopping queue %s (at most %.0f s)", self.queue_name(), budget)
        # 1. The pusher leaves after its current fetch; draining unblocks a full queue.
        self.event_out.set()
        taken_back = []
        while self.pusher.is_alive() and time.monotonic() < deadline:
            taken_back += self._drain()
            self.pusher.join(0.1)
        if self.pusher.is_alive():
            self.pusher.kill()
            self.pusher.join(1)
        taken_back += self._drain()
        # 2. Idle workers take a STOP pill; busy ones are asked to stop (SIGTERM sets
        # config.queues.stop_requested) and get until the deadline to finish their task.
        for _ in self.pool:
            self.task_queue.put("STOP")
        for process in self.pool:
            if process.is_alive():
                os.kill(process.pid, signal.SIGTERM)
        worker_deadline = deadline - MONITOR_RESERVE_SECONDS
        while time.monotonic() < worker_deadline:
            self.pool = [p for p in self.pool if p.is_alive()]
            if not self.pool:
                break
            time.sleep(0.1)
        killed = [p for p in self.pool if p.is_alive()]
        for process in killed:
            logger.warning("killing worker %s: its task did not end in time", process.pid)
            process.kill()
        for process in killed:
            process.join(1)
        self.pool = []
        self.task_queue.cancel_join_thread()  # never block on pills nobody will read
        self.task_queue.close()
        # 3. The monitor saves the results already produced, then stops.
        self.result_queue.put("STOP")
        self.monitor.join(max(0.1, deadline - time.monotonic()))
        if self.monitor.is_alive():
            self.monitor.kill()
            self.monitor.join(1)
        self.result_queue.cancel_join_thread()
        self.result_queue.close()
        # 4. What was fetched but not finished runs at the next start, not after `retry`.
        released = release_locks(self.broker.list_key)
        logger.info(
            "queue %s stopped: %d prefetched task(s) handed back, %d worker(s) killed, "
            "%d broker lock(s) released",
            self.queue_name(),
            len(taken_back),
            len(killed),
            released,
        )
        Stat(self).save()
        connections.close_all()


def beat(queue: str) -> None:
    """Record the queue's heartbeat now, so /api/health sees a starting cluster at once.

    The scheduled heartbeat only runs once django-q2's scheduler gets to it (up to a minute
    after start); a heartbeat must never keep a cluster from starting.
    """
    try:
        worker_heartbeat(queue)
    except Exception:  # noqa: BLE001 - the database may be starting too; the schedule catches up
        logger.warning("could not record the heartbeat of queue %s at start", queue)
    finally:
        connections.close_all()  # the sentinel forks its workers next


def release_locks(queue: str) -> int:
    """Make every fetched-but-unfinished task of ``queue`` available again; return how many.

    Only the database broker locks what it hands out; Redis pops it (the prefetched tasks
    are handed back by the sentinel itself).
    """
    if not settings.Q_CLUSTER.get("orm"):
        return 0
    now = timezone.now()
    try:
        return OrmQ.objects.filter(key=queue, lock__gt=now).update(lock=now)
    except Exception:  # noqa: BLE001 - a stop must end even with the database gone
        logger.exception("could not release the broker locks of queue %s", queue)
        return 0


def worker_spawned(sender, proc_name=None, **kwargs):
    """In each new worker process: make SIGTERM a stop request (see config.queues).

    django-q2 also sends ``post_spawn`` when it runs a task inline (``sync``: tests, or in a
    web request's thread): that process is no worker, and its SIGTERM handling stays as it is.
    """
    in_worker = multiprocessing.parent_process() is not None
    if in_worker and threading.current_thread() is threading.main_thread():
        install_stop_handler()


def bounded_stop_checked() -> bool:
    """Return whether the installed django-q2 is a release :class:`BoundedSentinel` fits."""
    return tuple(DJANGO_Q2_VERSION) in CHECKED_DJANGO_Q2


def install() -> None:
    """Use :class:`BoundedSentinel` in django-q2's cluster when it fits (idempotent)."""
    if bounded_stop_checked():
        django_q.cluster.Sentinel = BoundedSentinel
    post_spawn.connect(worker_spawned, dispatch_uid="platform.worker_spawned")
    # Tasks learn their own id and queue (config.queues.current_task_id, current_queue).
    pre_execute.connect(task_started, dispatch_uid="platform.task_started")
    post_execute_in_worker.connect(task_ended, dispatch_uid="platform.task_ended")
