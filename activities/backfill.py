"""Embed every activity that is not current, in batches (backfill, upgrade, demo loader)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from activities.indexing import embed_activities, mark_failed
from activities.models import Activity
from rag.embeddings import ProviderError

logger = logging.getLogger(__name__)


@dataclass
class BackfillTotals:
    total: int = 0
    processed: int = 0
    skipped: int = 0
    errors: int = 0
    pauses: int = 0
    seconds: float = 0.0


def backfill(
    *,
    queryset=None,
    force: bool = False,
    dry_run: bool = False,
    batch_size: int = 100,
    pause_on_rate_limit: bool = False,
    max_pauses_per_batch: int = 5,
    pause_seconds: float = 5.0,
    progress: Callable[[BackfillTotals], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> BackfillTotals:
    """Embed rows batch by batch; skip current rows unless ``force``; never abort on errors.

    Safe to run twice (a second run skips everything) and to interrupt (each batch commits on
    its own). ``dry_run`` counts what would be embedded and writes nothing. With
    ``pause_on_rate_limit`` a retryable provider error (429, 5xx, timeout) pauses with a growing
    wait and retries the batch; otherwise the batch's rows are marked failed and counted.
    """
    started = time.perf_counter()
    queryset = (queryset if queryset is not None else Activity.objects.all()).order_by("pk")
    totals = BackfillTotals(total=queryset.count())
    last_pk = 0
    while True:
        batch = list(queryset.filter(pk__gt=last_pk)[:batch_size])
        if not batch:
            break
        last_pk = batch[-1].pk
        pauses = 0
        while True:
            try:
                result = embed_activities(batch, force=force, dry_run=dry_run)
            except ProviderError as exc:
                if pause_on_rate_limit and exc.retryable and pauses < max_pauses_per_batch:
                    wait = pause_seconds * 2**pauses
                    logger.warning("provider is rate-limiting (%s); pausing %.1fs", exc, wait)
                    pauses += 1
                    totals.pauses += 1
                    sleep(wait)
                    continue
                logger.warning("batch ending at id %s failed: %s", last_pk, exc)
                if not dry_run:
                    mark_failed([a.pk for a in batch], exc)
                totals.errors += len(batch)
                break
            totals.processed += result.processed
            totals.skipped += result.skipped
            break
        if progress:
            progress(totals)
    totals.seconds = time.perf_counter() - started
    return totals
