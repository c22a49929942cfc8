"""Embed activities: the one code path shared by the task, backfill and the demo loader.

A row is *current* when it has a vector made by the active model from exactly its present
text (``embedding_hash == content_hash(embedding_text())``); current rows are skipped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from activities.models import INDEX_BOOKKEEPING_FIELDS, Activity, IndexState
from activities.selectors import is_current
from activities.text import EMBEDDED_DESCRIPTION_CHARS
from activities.vibes import infer_vibes
from activities.working_memory import working_memory_refresh_for_activities
from config.errors import failure_text
from rag.embeddings import current_model
from rag.llm import get_llm
from rag.reembed import embed_rows
from rag.text import segment_for_index

logger = logging.getLogger(__name__)

INDEX_FIELDS = [
    "embedding",
    *Activity.EXTRA_VECTOR_FIELDS,
    "search_text",
    *INDEX_BOOKKEEPING_FIELDS,
]


@dataclass
class BatchResult:
    processed: int = 0
    skipped: int = 0
    errors: int = 0


def refresh_vibes_with_llm(activity: Activity) -> bool:
    """Replace lexicon vibes by the LLM's when one is configured; return whether they changed."""
    try:
        enabled = get_llm().enabled
    except Exception:  # noqa: BLE001 - a misconfigured LLM must not block indexing
        enabled = False
    if not enabled:
        return False
    vibes = infer_vibes(
        type=activity.type,
        title=activity.title,
        # The beginning says what the activity is; a bounded prompt keeps the task short.
        description=activity.description[:EMBEDDED_DESCRIPTION_CHARS],
        tags=activity.tags,
    )
    if vibes != activity.vibes:
        activity.vibes = vibes
        Activity.objects.filter(pk=activity.pk).update(vibes=vibes)
        return True
    return False


def embed_activities(
    activities: list[Activity], *, force: bool = False, dry_run: bool = False
) -> BatchResult:
    """Embed the rows that are not current (all with ``force``) in one provider batch.

    Raise ``rag.embeddings.ProviderError`` when the provider fails; the caller decides
    whether to pause and retry or to record the failure (:func:`mark_failed`).
    """
    result = BatchResult()
    model = current_model()
    todo = [a for a in activities if force or not is_current(a, model)]
    result.skipped = len(activities) - len(todo)
    if not todo or dry_run:
        result.processed = len(todo) if dry_run else 0
        return result
    # One call for both vectors of each row (the listing's and its kind's); --force means
    # "compute again", so the cache is neither read nor trusted.
    texts = embed_rows(todo, use_cache=not force)
    now = timezone.now()
    for activity, text in zip(todo, texts, strict=True):
        activity.search_text = segment_for_index(text)
        activity.index_state = IndexState.INDEXED
        activity.index_error = ""
        activity.indexed_at = now
        activity.index_attempts = 0
        activity.index_state_at = now
    with transaction.atomic():
        Activity.objects.bulk_update(todo, INDEX_FIELDS, batch_size=200)
        # Interest vectors copy activity embeddings: a like given before the first embedding, or
        # a copy of the previous vector, is brought up to date with the new one.
        working_memory_refresh_for_activities(activity_ids=[a.pk for a in todo])
    result.processed = len(todo)
    return result


def mark_failed(activity_ids, error: Exception | str) -> None:
    """Record a failed indexing attempt on rows (the write itself is never undone).

    An exception is recorded as :func:`config.errors.failure_text` says it: the creator reads
    ``index_error`` through the API, the provider's URL and answer stay in the log.
    """
    message = failure_text(error)[:2000]
    Activity.objects.filter(pk__in=list(activity_ids)).update(
        index_state=IndexState.FAILED,
        index_error=message,
        indexed_at=timezone.now(),
        index_attempts=F("index_attempts") + 1,
        index_state_at=timezone.now(),
    )
