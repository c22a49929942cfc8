"""django-q2 tasks of the memory app: embed messages, summarise chats, sweep old messages.

Tasks take ids, re-read the rows, and are safe to run twice: embedding skips rows whose
vector already matches their text (content hash), summarising re-counts under an advisory
lock, and the retention sweep deletes by a cut-off.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.utils import timezone

from memory.models import ChatMessage, EmbedState, Kind
from rag import live
from rag.embeddings import content_hash, current_model, embed_texts
from rag.queues import BULK, enqueue, queue_for_rows

logger = logging.getLogger(__name__)

EMBED_GROUP = 100  # at most this many texts per provider call
MAX_ATTEMPTS = 5
BACKOFF_BASE_SECONDS = 30.0
BACKOFF_MAX_SECONDS = 3600.0
DELETE_BATCH = 5000


def backoff_seconds(attempt: int) -> float:
    """Return the wait before retry number ``attempt`` (1-based): 30 s, 60 s, 120 s, ..."""
    return min(BACKOFF_BASE_SECONDS * 2 ** max(attempt - 1, 0), BACKOFF_MAX_SECONDS)


def enqueue_embed(ids: list[int], *, queue: str | None = None) -> None:
    """Embed these rows asynchronously, in groups of <= 100, once the transaction commits.

    Queue: ``queue`` when given, else by size (``rag.queues.queue_for_rows``): a few messages
    someone just wrote go to interactive, an imported history to bulk.
    """
    queue = queue or queue_for_rows(len(ids))
    for i in range(0, len(ids), EMBED_GROUP):
        enqueue(
            "memory.tasks.messages_embed",
            list(ids[i : i + EMBED_GROUP]),
            queue=queue,
            group="memory.embed",
        )


def enqueue_summarize(user_pk: int, chat_id: str) -> None:
    """Summarise a chat asynchronously once the transaction commits (queue: bulk)."""
    enqueue("memory.tasks.chat_summarize", user_pk, chat_id, queue=BULK, group="memory.summarize")


def _schedule_retry(ids: list[int], attempt: int) -> None:
    from django_q.models import Schedule

    Schedule.objects.create(
        name=f"memory.embed_retry:{ids[0]}:{attempt}:{len(ids)}",
        func="memory.tasks.messages_embed",
        args=repr((ids,)),
        schedule_type=Schedule.ONCE,
        repeats=-1,  # a ONCE schedule with negative repeats is deleted after it runs
        next_run=timezone.now() + timedelta(seconds=backoff_seconds(attempt)),
    )


def messages_embed(ids: list[int]) -> str:
    """Embed the rows among ``ids`` whose vector is missing or stale; one provider call.

    One bulk update writes every vector; a provider failure marks the rows failed, keeps
    them, and schedules a retry with backoff (at most ``MAX_ATTEMPTS``).
    """
    rows = list(
        ChatMessage.objects.filter(pk__in=ids).only(
            "pk", "content", "context_text", "embedding_hash", "embedding_model", "embed_attempts"
        )
    )
    if not rows:
        return "gone"
    model = current_model()
    todo, texts = [], []
    for row in rows:
        text = row.embedding_text()
        h = content_hash(text)
        if row.embedding_hash == h and row.embedding_model == model:
            continue
        todo.append((row, h))
        texts.append(text)
    if not todo:
        return "unchanged"
    try:
        # Through the shared cache like every embedding (a re-sent or re-embedded text is not
        # sent to the provider again); user_erase deletes the cache rows of the user's texts.
        vectors = embed_texts(texts, role="passage")
    except Exception as exc:  # noqa: BLE001 - recorded on the rows and retried, never lost
        logger.warning("embedding %d messages failed: %s", len(todo), exc)
        attempt = max(r.embed_attempts for r, _ in todo) + 1
        pks = [r.pk for r, _ in todo]
        ChatMessage.objects.filter(pk__in=pks).update(
            embed_state=EmbedState.FAILED,
            embed_error=f"{type(exc).__name__}: {exc}"[:2000],
            embed_attempts=attempt,
        )
        if attempt < MAX_ATTEMPTS:
            _schedule_retry(pks, attempt)
            return f"failed (retry {attempt} scheduled)"
        return "failed (giving up)"
    for (row, h), vector in zip(todo, vectors, strict=True):
        row.embedding, row.embedding_hash, row.embedding_model = vector, h, model
        row.embed_state, row.embed_error = EmbedState.READY, ""
    ChatMessage.objects.bulk_update(
        [r for r, _ in todo],
        ["embedding", "embedding_hash", "embedding_model", "embed_state", "embed_error"],
        batch_size=EMBED_GROUP,
    )
    return f"embedded {len(todo)}"


def chat_summarize(user_pk: int, chat_id: str) -> str:
    """Summarise a chat's unsummarised messages when there are more than the threshold."""
    from memory.summarize import write_summary

    return write_summary(user_pk=user_pk, chat_id=chat_id)


def retention_sweep() -> dict:
    """Delete chat messages older than the live ``retention_days``; keep summaries.

    Idempotent (a second run finds nothing older than the cut-off); deletes in batches so
    one run never holds a long lock.
    """
    days = live.get_settings().retention_days
    cutoff = timezone.now() - timedelta(days=days)
    old = ChatMessage.objects.filter(kind=Kind.MESSAGE, ts__lt=cutoff)
    deleted = 0
    while True:
        pks = list(old.values_list("pk", flat=True)[:DELETE_BATCH])
        if not pks:
            break
        n, _ = ChatMessage.objects.filter(pk__in=pks).delete()
        deleted += len(pks)
        if n == 0:
            break
    return {"deleted": deleted, "cutoff": cutoff.isoformat()}
