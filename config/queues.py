"""The two work queues and the one way to put work on them.

``interactive``: work a user is waiting for (a chat message's embedding, a created or edited
activity's indexing, an edited chapter's chunking, the heartbeat). ``bulk``: work nobody waits
for second by second (demo loads, many-row imports, summaries, the retention sweep, scheduled
digests). ``webhooks``: POSTs to users' webhook receivers, whose speed is theirs to choose (each
bounded by ``WEBHOOK_DEADLINE_SECONDS``), so a slow receiver never delays anybody's own work.
Each queue has its own django-q2 cluster (``Q_CLUSTER`` and its ``ALT_CLUSTERS`` in
config/settings.py; ``manage.py serve`` starts one ``qcluster`` per queue), so a pile of bulk
work never delays an interactive task: the interactive workers never see it.

The interactive queue is the default cluster (``Q_CLUSTER["name"]``): a task or schedule that
names no cluster runs there, so work someone forgot to route still runs, just not behind bulk.
"""

from __future__ import annotations

import signal
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_q import tasks as q_tasks
from django_q.brokers.orm import ORM
from django_q.conf import Conf
from django_q.models import Schedule

INTERACTIVE = "interactive"
BULK = "bulk"
WEBHOOKS = "webhooks"
QUEUES = (INTERACTIVE, BULK, WEBHOOKS)

# A write of more rows than this at once is an import, not a user waiting: it goes to bulk.
INTERACTIVE_MAX_ROWS = 20


def queue_for_rows(count: int) -> str:
    """Return the queue for work on ``count`` rows written at once (an import goes to bulk)."""
    return INTERACTIVE if count <= INTERACTIVE_MAX_ROWS else BULK


def _check(queue: str) -> str:
    if queue not in QUEUES:
        raise ValueError(f"unknown queue {queue!r}; use one of {QUEUES}")
    return queue


def enqueue_now(func_path: str, *args, queue: str, **kwargs) -> str | None:
    """Send ``func_path(*args, **kwargs)`` to ``queue`` at once; return the task id.

    Keyword arguments django-q2 knows (``group``, ``task_name``, ``hook``, ``timeout``...) are
    task options, the rest go to the function. Prefer :func:`enqueue` inside a transaction.
    """
    return q_tasks.async_task(func_path, *args, cluster=_check(queue), **kwargs)


def enqueue(func_path: str, *args, queue: str, **kwargs) -> None:
    """Send ``func_path(*args, **kwargs)`` to ``queue`` once the current transaction commits.

    A worker therefore never reads uncommitted rows, and a rolled-back write enqueues nothing.
    Outside a transaction it is sent at once. With ``Q_CLUSTER["sync"]`` (tests) the task runs
    inline, on commit, whatever the queue.
    """
    _check(queue)
    transaction.on_commit(lambda: enqueue_now(func_path, *args, queue=queue, **kwargs))


def enqueue_at(func_path: str, *args, queue: str, at, key: str, **kwargs) -> None:
    """Send ``func_path(*args, **kwargs)`` to ``queue`` to run no earlier than ``at``.

    A not-before on the task itself, so nothing waits in a worker for it. With the database
    broker the row goes into the queue table with its ``lock`` ("do not pull until") set to
    ``at``: a worker takes it within a poll (``Q_CLUSTER["poll"]``) of ``at``. Other brokers
    have no delayed delivery: there it is a one-off django-q2 ``Schedule`` named ``key`` (a
    later call with the same key moves it), run by the scheduler, which looks every 30 s.
    Never runs inline, even with ``Q_CLUSTER["sync"]`` (tests run due rows themselves).
    Call after the rows it reads are committed (from ``transaction.on_commit`` or a task).
    """
    _check(queue)
    if settings.Q_CLUSTER.get("orm"):

        class NotBefore(ORM):
            def enqueue(self, task):
                return self.get_connection().create(key=self.list_key, payload=task, lock=at).pk

        q_tasks.async_task(
            func_path, *args, cluster=queue, broker=NotBefore(queue), sync=False, **kwargs
        )
        return
    task_options = {"group", "task_name", "hook", "timeout", "q_options"}
    enqueue_later(
        func_path,
        *args,
        queue=queue,
        key=key,
        at=at,
        kwargs={k: v for k, v in kwargs.items() if k not in task_options},
    )


def enqueue_later(
    func_path: str,
    *args,
    queue: str,
    key: str,
    delay: float | None = None,
    at: datetime | None = None,
    kwargs: dict | None = None,
    move: bool = True,
) -> None:
    """Run ``func_path(*args, **kwargs)`` once on ``queue``, ``delay`` seconds from now or ``at``.

    The one way a task is retried or continued later (a backoff after a failure, a wait for a
    slot, a follow-up run): a one-off django-q2 ``Schedule`` named ``key``, run by ``queue``'s
    cluster, whose scheduler looks every 30 s and enqueues there, so a retry stays on the queue
    its task ran on. Idempotent: a later call with the same ``key`` moves that one schedule
    (``move=False`` leaves it where it is), so a task that runs twice still retries once.
    Durable in the database whatever the broker, and deleted once it has run.
    """
    if (delay is None) == (at is None):
        raise ValueError("give either delay or at")
    fields = {
        "func": func_path,
        "args": repr(args) if args else None,
        "kwargs": repr(kwargs or {}),
        "cluster": _check(queue),
        "schedule_type": Schedule.ONCE,
        "repeats": -1,  # a ONCE schedule with negative repeats is deleted after it runs
        "next_run": at or timezone.now() + timedelta(seconds=delay),
    }
    if move:
        Schedule.objects.update_or_create(name=key, defaults=fields)
    else:
        Schedule.objects.get_or_create(name=key, defaults=fields)


# --- The task running in this process ------------------------------------------------------
# django-q2 runs a task in a worker process (or inline with ``sync``, nested when a task enqueues
# another): a stack of {"id", "queue"} filled by its pre_execute/post_execute_in_worker signals.
_running: list[dict] = []


def task_queue(task: dict) -> str:
    """Return the queue a task dict runs on (this process's cluster when it names none)."""
    queue = task.get("cluster") or Conf.CLUSTER_NAME
    return queue if queue in QUEUES else INTERACTIVE


def task_started(sender=None, func=None, task=None, **kwargs) -> None:
    """Remember the task this process starts (django-q2's ``pre_execute`` receiver)."""
    task = task or {}
    _running.append({"id": str(task.get("id") or ""), "queue": task_queue(task)})


def task_ended(sender=None, func=None, task=None, **kwargs) -> None:
    """Forget the task that just ended (django-q2's ``post_execute_in_worker`` receiver)."""
    if _running:
        _running.pop()


def task_func(task: dict) -> str:
    """Return the dotted path of a task dict's function (django-q2 stores a path or a callable)."""
    func = task.get("func")
    if isinstance(func, str):
        return func
    return f"{getattr(func, '__module__', '')}.{getattr(func, '__name__', '')}"


def task_ids(args) -> list[int]:
    """Return the row ids a task's first argument names (an id, or a list of ids)."""
    first = args[0] if args else None
    return [
        pk for pk in (first if isinstance(first, list | tuple) else [first]) if isinstance(pk, int)
    ]


def current_task_id() -> str:
    """Return the django-q2 id of the task running in this process, or "" outside a task.

    A task handed back by a stop, or redelivered after its broker lock expired, runs again
    with the same id: ``config.work.Work.claim`` lets it take back the rows it had claimed.
    """
    return _running[-1]["id"] if _running else ""


def current_queue() -> str:
    """Return the queue of the task running in this process, or interactive outside a task.

    A retry or a continuation stays on the queue its task ran on: an import's retries never
    land on the interactive queue, a user's never on bulk.
    """
    return _running[-1]["queue"] if _running else INTERACTIVE


def cluster_config(queue: str) -> dict:
    """Return the django-q2 settings the cluster of ``queue`` runs with."""
    conf = {k: v for k, v in settings.Q_CLUSTER.items() if k != "ALT_CLUSTERS"}
    if _check(queue) != settings.Q_CLUSTER["name"]:
        conf.update(settings.Q_CLUSTER.get("ALT_CLUSTERS", {}).get(queue, {}))
    return conf


# --- Stopping ------------------------------------------------------------------------------
# Set in a worker process when its cluster is stopping (config.worker installs the handler).
_stop_requested = False


def stop_requested() -> bool:
    """Return True when this worker's cluster is shutting down.

    Tasks that wait (polls, sleeps) check it and return early, leaving the rest to a schedule
    or the next run, so that a stop is never held up by a task that is merely waiting.
    """
    return _stop_requested


def request_stop(signum=None, frame=None) -> None:
    """Mark this process as stopping (the worker's SIGTERM handler)."""
    global _stop_requested
    _stop_requested = True


def install_stop_handler() -> None:
    """Make SIGTERM in this worker process a stop request instead of an instant death."""
    signal.signal(signal.SIGTERM, request_stop)
