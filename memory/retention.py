"""Retention of chat messages: summarise first, then delete what a summary covers.

A message is due once the service has stored it for longer than the live ``retention_days``
(``created_at``, never the caller's ``ts``: imported history is as new as its import). A due
message is deleted only when a summary of its chat covers it (it is marked ``summarised`` and
the chat's newest summary reaches its ``ts``); a due chat without one is summarised first,
whatever its length. Summaries are never deleted. Switched off in the live settings
(``retention_enabled``), nothing is deleted.

:func:`retention_run` does the work for the daily task, the ``memory_retention`` command and
the admin page alike, and answers a :class:`RetentionReport`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Count, Exists, Min, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from memory.models import MAX_RETENTION_DAYS, ChatMessage, Kind
from memory.selectors import memory_settings_get
from memory.summarize import write_summary
from rag.embeddings import embedding_cache_forget

logger = logging.getLogger(__name__)

DELETE_BATCH = 5000
# One run stays well inside the worker timeout (Q_TIMEOUT, 300 s): at most this many chats
# are summarised and this much time is spent; the rest waits for the next run.
MAX_CHATS_PER_RUN = 50
SUMMARY_BUDGET_SECONDS = 90.0
RUN_BUDGET_SECONDS = 180.0
LOCK_KEY = "memory.retention"
# The label of the cut-off row (the admin shows its value in the admin's time zone).
CUTOFF_LABEL = gettext_lazy("stored before (cut-off)")


@dataclass
class RetentionReport:
    """What one retention run did (or, as a dry run, would do), counted per kind."""

    dry_run: bool
    enabled: bool
    retention_days: int
    cutoff: str = ""
    messages_deleted: int = 0
    messages_summarised_first: int = 0
    messages_kept_uncovered: int = 0
    messages_kept_recent: int = 0
    chats_summarised: int = 0
    chats_failed: int = 0
    chats_left: int = 0
    summaries_kept: int = 0
    cache_rows_deleted: int = 0
    more_remaining: bool = False
    skipped: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        """Return the report as plain data (the task's result, ``--json``)."""
        return asdict(self)

    def rows(self) -> list[tuple[str, str]]:
        """Return (label, value) lines of the report, the same in the command and the admin.

        In the active language (English in the command; the admin's in the admin).
        """
        dry = self.dry_run
        rows = [
            (_("mode"), _("dry run: nothing changed") if dry else _("run")),
            (
                _("retention"),
                _("on, %(days)d days") % {"days": self.retention_days}
                if self.enabled
                else _("off"),
            ),
        ]
        if self.cutoff:
            rows.append((str(CUTOFF_LABEL), self.cutoff))
        if self.skipped:
            rows.append((_("skipped"), self.skipped))
        rows += [
            (
                _("messages would be deleted (a summary covers them)")
                if dry
                else _("messages deleted (a summary covers them)"),
                str(self.messages_deleted),
            ),
            (
                _("  of which would be summarised first in this run")
                if dry
                else _("  of which summarised first in this run"),
                str(self.messages_summarised_first),
            ),
            (
                _("messages kept: due, but no summary covers them yet"),
                str(self.messages_kept_uncovered),
            ),
            (
                _("messages kept: stored within the retention period"),
                str(self.messages_kept_recent),
            ),
            (
                _("chats would be summarised first") if dry else _("chats summarised first"),
                str(self.chats_summarised),
            ),
            (_("chats whose summary failed (retried next run)"), str(self.chats_failed)),
            (_("chats left for the next run (bound per run)"), str(self.chats_left)),
            (_("summaries kept (never deleted)"), str(self.summaries_kept)),
            (
                _("cached vectors of deleted texts removed"),
                _("counted when run") if dry else str(self.cache_rows_deleted),
            ),
            (_("more work for the next run"), _("yes") if self.more_remaining else _("no")),
            (_("seconds"), f"{self.seconds:.2f}"),
        ]
        rows += [(_("note"), _(note)) for note in self.notes]
        return rows

    def text(self) -> str:
        """Return the report as aligned text lines."""
        width = max(len(label) for label, _ in self.rows())
        return "\n".join(f"{label.ljust(width)}  {value}" for label, value in self.rows())


def _with_coverage(qs):
    """Alias ``covered``: a summary of the row's chat reaches the row's ``ts``."""
    summaries = ChatMessage.objects.filter(
        user_id=OuterRef("user_id"),
        chat_id=OuterRef("chat_id"),
        kind=Kind.SUMMARY,
        covers_until_ts__gte=OuterRef("ts"),
    )
    return qs.alias(covered=Exists(summaries))


def covered(qs):
    """Return the rows of ``qs`` a summary covers: marked summarised and within a summary.

    ``summarised`` alone is not enough (a summary deleted by hand leaves it set), and ``ts``
    alone is not either (a late message with an older ts was never summarised).
    """
    return _with_coverage(qs).filter(summarised=True, covered=True)


def uncovered(qs):
    """Return the rows of ``qs`` no summary covers yet."""
    return _with_coverage(qs).filter(Q(summarised=False) | Q(covered=False))


def cutoff_for(days: int, now: datetime | None = None) -> datetime:
    """Return the storage time before which a message is due."""
    return (now or timezone.now()) - timedelta(days=min(max(days, 1), MAX_RETENTION_DAYS))


def retention_run(*, dry_run: bool) -> RetentionReport:
    """Apply retention once (or, with ``dry_run``, count what it would do); return the report.

    Safe to run twice and concurrently: one run at a time holds an advisory lock (another
    answers "skipped"), summaries take their own per-chat lock, and deletion re-checks
    coverage in the statement that deletes. Bounded: at most ``MAX_CHATS_PER_RUN`` chats
    summarised and ``RUN_BUDGET_SECONDS`` spent per run; the
    report says what is left for the next one.
    """
    start = time.monotonic()
    row = memory_settings_get()
    report = RetentionReport(
        dry_run=dry_run, enabled=row.retention_enabled, retention_days=row.retention_days
    )
    summaries = ChatMessage.objects.filter(kind=Kind.SUMMARY)
    messages = ChatMessage.objects.filter(kind=Kind.MESSAGE)
    if not row.retention_enabled:
        report.summaries_kept = summaries.count()
        report.messages_kept_recent = messages.count()
        report.notes.append(
            gettext_noop("retention is switched off in the live settings: nothing deleted")
        )
        report.seconds = time.monotonic() - start
        return report
    cutoff = cutoff_for(row.retention_days)
    report.cutoff = cutoff.isoformat()
    due = messages.filter(created_at__lt=cutoff)
    if dry_run:
        _count_dry_run(report, due)
    elif _try_lock():
        try:
            _run(report, due, start)
        finally:
            _unlock()
    else:
        report.skipped = "another retention run is in progress"
    report.messages_kept_recent = messages.filter(created_at__gte=cutoff).count()
    report.summaries_kept = summaries.count()
    report.seconds = time.monotonic() - start
    return report


def _due_chats(due) -> list[dict]:
    """Return the chats with due messages no summary covers, oldest stored first."""
    return list(
        uncovered(due)
        .values("user_id", "chat_id")
        .annotate(n=Count("pk"), first=Min("created_at"))
        .order_by("first", "user_id", "chat_id")
    )


def _count_dry_run(report: RetentionReport, due) -> None:
    chats = _due_chats(due)
    todo, left = chats[:MAX_CHATS_PER_RUN], chats[MAX_CHATS_PER_RUN:]
    report.chats_summarised = len(todo)
    report.messages_summarised_first = sum(c["n"] for c in todo)
    report.messages_deleted = covered(due).count() + report.messages_summarised_first
    report.messages_kept_uncovered = sum(c["n"] for c in left)
    report.chats_left = len(left)
    report.more_remaining = bool(left)


def _run(report: RetentionReport, due, start: float) -> None:
    chats = _due_chats(due)
    todo, left = chats[:MAX_CHATS_PER_RUN], chats[MAX_CHATS_PER_RUN:]
    for i, chat in enumerate(todo):
        if time.monotonic() - start > SUMMARY_BUDGET_SECONDS:
            left = todo[i:] + left
            report.notes.append(gettext_noop("time budget for summaries spent; the rest waits"))
            break
        user_pk, chat_id = chat["user_id"], chat["chat_id"]
        # A message marked summarised that no summary reaches (its summary was deleted by
        # hand) is summarised again, so it is never deleted without a summary.
        orphans = _with_coverage(
            ChatMessage.objects.filter(
                user_id=user_pk, chat_id=chat_id, kind=Kind.MESSAGE, summarised=True
            )
        ).filter(covered=False)
        orphans.update(summarised=False)
        try:
            outcome = write_summary(user_pk=user_pk, chat_id=chat_id, force=True)
        except Exception as exc:  # noqa: BLE001 - the messages stay; the next run retries
            logger.warning(
                "retention: summarising chat %r of user %s failed: %s", chat_id, user_pk, exc
            )
            report.chats_failed += 1
            continue
        if outcome.startswith("summarised"):
            report.chats_summarised += 1
            report.messages_summarised_first += chat["n"]
        elif outcome == "empty":
            report.chats_failed += 1
    report.messages_deleted, report.cache_rows_deleted = _delete_covered(due, start)
    report.chats_left = len(left)
    report.messages_kept_uncovered = uncovered(due).count()
    covered_left = covered(due).exists()
    if covered_left:
        report.notes.append(gettext_noop("time budget for deleting spent; the rest waits"))
    report.more_remaining = bool(left) or covered_left


def _delete_covered(due, start: float) -> tuple[int, int]:
    """Delete due messages a summary covers, in batches, within the run's time budget.

    Return (messages deleted, cache rows deleted). The shared embedding cache rows of the
    deleted texts go in the same transaction: once a text is gone, ``user_erase`` could no
    longer find its cached vector by hash.
    """
    deleted = cache_rows = 0
    while time.monotonic() - start < RUN_BUDGET_SECONDS:
        rows = list(
            covered(due).order_by("pk").only("pk", "content", "context_text")[:DELETE_BATCH]
        )
        if not rows:
            break
        with transaction.atomic():
            cache_rows += embedding_cache_forget(
                texts=[t for r in rows for t in (r.embedding_text(), r.content)]
            )
            # Coverage is checked again in the deleting query: only ever a covered message
            # goes. Only the keys are loaded (ratings of a row are set to NULL, not deleted).
            pks = [r.pk for r in rows]
            n, by_model = covered(due.filter(pk__in=pks)).only("pk").delete()
        deleted += by_model.get(ChatMessage._meta.label, 0)
        if n == 0:
            break
    return deleted, cache_rows


def _try_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [LOCK_KEY])
        return bool(cursor.fetchone()[0])


def _unlock() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [LOCK_KEY])
