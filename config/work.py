"""The state machine of background work on a row, shared by every app that has some.

A row with background work (an activity's vector, a chapter's chunks, a message's vector)
carries five columns named after a prefix ``p``: ``p_state`` (pending, running, the done
value, failed), ``p_attempts``, ``p_error``, ``p_state_at`` (when the row entered its state,
or was last re-queued) and ``p_task`` (the django-q2 id of the task that last claimed it). The
lifecycle:

* an edit sets the row pending with ``p_attempts = 0`` (the app's service does that);
* a task :meth:`Work.claim`\\ s the row BEFORE its heavy work: ``running``, ``p_attempts + 1``,
  ``p_state_at = now``, ``p_task = its id``, committed at once, so a task killed by the worker
  timeout, SIGKILL or a database restart leaves evidence (no ``except``/``finally`` runs in
  those cases); the same task run again (handed back by a stop) takes its rows back at once;
* success writes the done state with ``p_attempts = 0`` (the app does, with its results);
  an exception calls :meth:`Work.fail`, which records the error and says whether a retry
  with backoff is allowed;
* the reconciler (:func:`reconcile_all`, scheduled every minute) re-queues rows left running
  longer than the worker can run a task, rows pending or failed whose task was lost, and
  marks rows failed with a visible error once their attempts are exhausted.

Apps own their models: each describes its work with a :class:`Work` and registers it in its
``AppConfig.ready``; the platform only dispatches (it imports no app).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django_q.brokers import get_broker
from django_q.models import OrmQ
from django_q.signing import BadSignature, SignedPackage

from config.errors import failure_text
from config.queues import (
    BULK,
    INTERACTIVE,
    QUEUES,
    current_task_id,
    enqueue_later,
    queue_for_rows,
    task_func,
    task_ids,
    task_queue,
)

logger = logging.getLogger(__name__)

PENDING = "pending"
RUNNING = "running"
FAILED = "failed"

MAX_ATTEMPTS = 5
BACKOFF_BASE_SECONDS = 30.0
BACKOFF_MAX_SECONDS = 3600.0
# Seconds a running row may wait beyond the worker timeout before it counts as lost: the guard
# kills a task 3 s after its timeout and records the result a moment later.
RUNNING_GRACE_SECONDS = 10
# At most this many rows per rule and kind per reconciler run, so one run never floods the queue.
RECONCILE_BATCH = 500
# A re-queued row edited no longer ago than a lost task's row takes to be found (the running
# threshold) plus this margin is a user's recent write: it goes back to the interactive queue
# (a few at most); older rows go to bulk (see Work.reconcile).
RECENT_EDIT_MARGIN_SECONDS = 120


def backoff_seconds(attempt: int, base: float = BACKOFF_BASE_SECONDS) -> float:
    """Return the wait before retry number ``attempt`` (1-based): base, 2 x base, 4 x base ..."""
    return min(base * 2 ** max(attempt - 1, 0), BACKOFF_MAX_SECONDS)


def task_timeout() -> int:
    """Return the worker timeout in seconds (``Q_TIMEOUT``)."""
    return int(settings.Q_CLUSTER.get("timeout") or 300)


def running_stale_after() -> timedelta:
    """Return how long a row may stay running before its task is certainly gone."""
    return timedelta(seconds=task_timeout() + RUNNING_GRACE_SECONDS)


def recent_edit_window() -> timedelta:
    """Return how recent an edit must be for its re-queued row to go to interactive."""
    return running_stale_after() + timedelta(seconds=RECENT_EDIT_MARGIN_SECONDS)


def pending_stale_after() -> timedelta:
    """Return how long a row may stay pending before the reconciler queues it again."""
    return timedelta(seconds=settings.TASKS_PENDING_STALE_SECONDS)


def lost_message(attempts: int) -> str:
    return f"timed out or worker lost after {attempts} attempts"


@dataclass(frozen=True)
class Work:
    """One kind of background work on the rows of one model.

    ``enqueue`` is the dotted path of the app's function that queues the task for a list of
    row ids; ``task`` the dotted path of the task itself (to recognise it in queue hooks).
    ``changed_field`` is the row's column set by edits (its age counts for pending rows).
    """

    name: str
    model: type[models.Model]
    prefix: str
    done: str
    task: str
    enqueue: str
    changed_field: str
    max_attempts: int = MAX_ATTEMPTS
    backoff_base: float = BACKOFF_BASE_SECONDS

    @property
    def state(self) -> str:
        return f"{self.prefix}_state"

    @property
    def attempts(self) -> str:
        return f"{self.prefix}_attempts"

    @property
    def error(self) -> str:
        return f"{self.prefix}_error"

    @property
    def state_at(self) -> str:
        return f"{self.prefix}_state_at"

    @property
    def task_id(self) -> str:
        return f"{self.prefix}_task"

    def done_values(self) -> dict:
        """Return the column values of a row whose work succeeded."""
        return {
            self.state: self.done,
            self.error: "",
            self.attempts: 0,
            self.state_at: timezone.now(),
        }

    def claim(self, pks) -> dict[int, int]:
        """Mark the rows running before heavy work; return {pk: attempt number} of those claimed.

        A row another task is running (and not yet stale) or whose attempts are exhausted is
        not claimed; rows locked by a concurrent claim are skipped, never waited for. A row
        this same django-q2 task claimed before is claimed again: a task cut short by a worker
        stop and handed back runs with the same id, and must not wait for the reconciler.
        Commits at once so the evidence survives whatever ends the task.
        """
        now = timezone.now()
        since = now - running_stale_after()
        task_id = current_task_id()
        fresh_running = Q(**{self.state: RUNNING, f"{self.state_at}__gte": since})
        if task_id:
            fresh_running &= ~Q(**{self.task_id: task_id})
        claimable = Q(**{f"{self.attempts}__lt": self.max_attempts}) & ~fresh_running
        with transaction.atomic():
            rows = list(
                self.model.objects.filter(pk__in=list(pks))
                .filter(claimable)
                .select_for_update(skip_locked=True)
                .values_list("pk", self.attempts)
            )
            if rows:
                self.model.objects.filter(pk__in=[pk for pk, _ in rows]).update(
                    **{
                        self.state: RUNNING,
                        self.attempts: F(self.attempts) + 1,
                        self.state_at: now,
                        self.task_id: task_id,
                    }
                )
        return {pk: attempts + 1 for pk, attempts in rows}

    def release(self, pks) -> None:
        """Undo a claim that did no work (another run holds the row): back to pending."""
        self.model.objects.filter(pk__in=list(pks), **{self.state: RUNNING}).update(
            **{
                self.state: PENDING,
                self.attempts: F(self.attempts) - 1,
                self.state_at: timezone.now(),
            }
        )

    def fail(self, pks, error: Exception | str, attempt: int) -> bool:
        """Record a failed attempt on running rows; return whether a retry is still allowed."""
        error = failure_text(error)
        retry = attempt < self.max_attempts
        if not retry:
            error = f"{error} (giving up after {attempt} attempts)"
        # Only rows still running: an edit meanwhile made its row pending for its own task.
        self.model.objects.filter(pk__in=list(pks), **{self.state: RUNNING}).update(
            **{self.state: FAILED, self.error: error[:2000], self.state_at: timezone.now()}
        )
        return retry

    def retry_in(self, attempt: int) -> float:
        return backoff_seconds(attempt, self.backoff_base)

    def schedule_retry(self, pks, attempt: int, *, queue: str) -> None:
        """Queue the rows again on ``queue`` after the backoff of ``attempt``."""
        pks = list(pks)
        enqueue_later(
            self.enqueue,
            pks,
            queue=queue,
            key=f"{self.name}.retry:{pks[0]}:{len(pks)}",
            delay=self.retry_in(attempt),
            kwargs={"queue": queue},
        )

    def reconcile(self) -> dict[str, int]:
        """Repair rows whose task was lost; return counts per rule.

        * running for longer than a task can run: re-queued, or failed when attempts are
          exhausted (``timed out or worker lost after N attempts``);
        * pending for longer than ``TASKS_PENDING_STALE_SECONDS`` (since the edit and since the
          last re-queue) and no task for it waiting in the broker (an import row merely slow in
          the bulk queue is not queued twice): re-queued;
        * failed with attempts left and its backoff long past (the retry was lost): re-queued.

        Where re-queued rows go: rows edited within :func:`recent_edit_window` (the running
        threshold + 2 minutes), when they are few (``config.queues.queue_for_rows``), to
        interactive (a user's chat message whose worker died should not wait behind an
        import); all others to bulk (a row waiting for 10 minutes or failing for an hour is
        nobody's write of the moment, and an import re-queued must not flood interactive).
        """
        now = timezone.now()
        run_cut = now - running_stale_after()
        wait_cut = now - pending_stale_after()
        objects = self.model.objects
        stale_running = Q(**{self.state: RUNNING, f"{self.state_at}__lt": run_cut})
        exhausted = Q(**{f"{self.attempts}__gte": self.max_attempts})
        counts = {}
        with transaction.atomic():
            pks = self._lock(stale_running & exhausted)
            counts["failed"] = objects.filter(pk__in=pks).update(
                **{
                    self.state: FAILED,
                    self.error: lost_message(self.max_attempts),
                    self.state_at: now,
                }
            )
        with transaction.atomic():
            lost = self._lock(stale_running & ~exhausted)
            objects.filter(pk__in=lost).update(
                **{
                    self.state: PENDING,
                    self.error: "timed out or worker lost; queued again",
                    self.state_at: now,
                }
            )
        waiting_q = (
            Q(**{self.state: PENDING, f"{self.changed_field}__lt": wait_cut})
            & (Q(**{f"{self.state_at}__isnull": True}) | Q(**{f"{self.state_at}__lt": wait_cut}))
            & ~exhausted
        )
        with transaction.atomic():
            waiting = self._lock(waiting_q)
            if waiting:
                queued = queued_pks(self)
                waiting = [pk for pk in waiting if pk not in queued]
            objects.filter(pk__in=waiting).update(**{self.state_at: now})
        # The longest backoff plus a running allowance: a retry scheduled then is surely lost.
        overdue = []
        failed_rows = objects.filter(
            Q(**{self.state: FAILED, f"{self.state_at}__lt": run_cut}) & ~exhausted
        ).values_list("pk", self.attempts, self.state_at)[:RECONCILE_BATCH]
        for pk, attempts, state_at in failed_rows:
            if state_at + timedelta(seconds=self.retry_in(attempts)) < run_cut:
                overdue.append(pk)
        if overdue:
            objects.filter(pk__in=overdue, **{self.state: FAILED}).update(**{self.state_at: now})
        counts["requeued_running"] = len(lost)
        counts["requeued_pending"] = len(waiting)
        counts["requeued_failed"] = len(overdue)
        todo = [*lost, *waiting, *overdue]
        if todo:
            self._requeue(todo, now)
        return counts

    def _requeue(self, pks: list[int], now) -> None:
        """Enqueue the rows again: few recent edits to interactive, the rest to bulk."""
        recent_cut = now - recent_edit_window()
        recent = set(
            self.model.objects.filter(
                pk__in=pks, **{f"{self.changed_field}__gte": recent_cut}
            ).values_list("pk", flat=True)
        )
        recent_queue = queue_for_rows(len(recent)) if recent else BULK
        enqueue = import_string(self.enqueue)
        if recent:
            enqueue([pk for pk in pks if pk in recent], queue=recent_queue)
        rest = [pk for pk in pks if pk not in recent]
        if rest:
            enqueue(rest, queue=BULK)
        if recent_queue == INTERACTIVE:
            logger.info("%s: %d recent row(s) re-queued on interactive", self.name, len(recent))

    def _lock(self, condition: Q) -> list[int]:
        return list(
            self.model.objects.filter(condition)
            .select_for_update(skip_locked=True)
            .values_list("pk", flat=True)[:RECONCILE_BATCH]
        )


def _waiting_tasks():
    """Yield the task dicts waiting in the broker of every queue (ORM table or Redis lists)."""
    if settings.Q_CLUSTER.get("orm"):
        for row in OrmQ.objects.only("payload").iterator():
            yield row.task
        return
    for queue in QUEUES:
        broker = get_broker(queue)
        for payload in broker.connection.lrange(broker.list_key, 0, -1):
            try:
                yield SignedPackage.loads(
                    payload.decode() if isinstance(payload, bytes) else payload
                )
            except BadSignature:
                continue


def queued_pks(work: Work) -> set[int]:
    """Return the ids of ``work``'s rows a task waiting in the broker will process.

    The payloads are signed pickles, so each is decoded here; the reconciler calls this only
    when it has pending rows to re-queue. A row of a task taken by a worker counts too: its
    row turns running when the task starts, and the running rule covers it.
    """
    funcs = {work.task, work.enqueue}
    pks: set[int] = set()
    for task in _waiting_tasks():
        if isinstance(task, dict) and task_func(task) in funcs:
            pks.update(task_ids(task.get("args")))
    return pks


_registry: dict[str, Work] = {}


def register(work: Work) -> None:
    """Add a kind of work to the reconciler (call from ``AppConfig.ready``; idempotent)."""
    _registry[work.name] = work


def registered() -> list[Work]:
    return list(_registry.values())


def reconcile_all() -> dict[str, dict[str, int]]:
    """Run every registered kind's reconciliation; one kind's failure never stops the others."""
    report = {}
    for work in registered():
        try:
            report[work.name] = work.reconcile()
        except Exception:  # noqa: BLE001 - logged; the next run tries again
            logger.exception("reconciling %s failed", work.name)
            report[work.name] = {"error": 1}
    return report


def task_finished(sender, task, **kwargs) -> None:
    """Run :func:`mark_stopped_task`, never raising into the queue's monitor."""
    try:
        mark_stopped_task(task)
    except Exception:  # noqa: BLE001 - the reconciler repairs what this could not
        logger.exception("marking a stopped task's rows failed")


def mark_stopped_task(task: dict) -> None:
    """Mark the rows of a task of ours that the queue recorded as failed, and retry them.

    Our tasks catch their own exceptions, so a failure recorded by the queue means the task
    was stopped from outside (``TimeoutException`` raised by the worker's alarm). A worker
    killed while in native code records nothing: the reconciler covers that case.
    """
    if task.get("success", True):
        return
    func = task_func(task)
    for work in registered():
        if work.task != func:
            continue
        pks = task_ids(task.get("args"))
        if not pks:
            return
        running = work.model.objects.filter(pk__in=pks, **{work.state: RUNNING})
        rows = list(running.values_list("pk", work.attempts))
        if not rows:
            return
        attempt = max(attempts for _, attempts in rows)
        error = f"task stopped by the queue: {str(task.get('result'))[:300]}"
        if work.fail([pk for pk, _ in rows], error, attempt):
            work.schedule_retry([pk for pk, _ in rows], attempt, queue=task_queue(task))
        return
