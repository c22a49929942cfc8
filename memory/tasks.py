"""django-q2 tasks of the memory app: embed messages, summarise chats, sweep old messages.

Tasks take ids, re-read the rows, and are safe to run twice: embedding skips rows whose
vector already matches their text (content hash) and claims the others (``running``, attempt
counted, ``config.work``) before it calls the provider, summarising re-counts under an advisory
lock, and the retention sweep deletes only messages a summary covers (memory/retention.py).
"""

from __future__ import annotations

import logging

from django.utils import timezone

from config.queues import BULK, current_queue, enqueue_later
from config.work import Work

# enqueue_embed, enqueue_summarize: importable here too, the names queued tasks and Work carry.
from memory.enqueue import EMBED_GROUP, enqueue_embed, enqueue_summarize  # noqa: F401
from memory.models import ChatMessage, EmbedState
from memory.retention import retention_run
from memory.summarize import write_summary
from rag.embeddings import content_hash, current_model, embed_texts

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
# Retention work left by a bounded run is picked up this soon, not a day later.
FOLLOW_UP_SECONDS = 600

EMBED_WORK = Work(
    name="memory.embed",
    model=ChatMessage,
    prefix="embed",
    done=EmbedState.READY,
    task="memory.tasks.messages_embed",
    enqueue="memory.tasks.enqueue_embed",
    changed_field="created_at",
    max_attempts=MAX_ATTEMPTS,
)


def messages_embed(ids: list[int]) -> str:
    """Embed the rows among ``ids`` whose vector is missing or stale; one provider call.

    One bulk update writes every vector; a provider failure marks the rows failed, keeps
    them, and schedules a retry with backoff (at most ``MAX_ATTEMPTS`` attempts per row). Rows
    another task is running are left to it.
    """
    rows = list(
        ChatMessage.objects.filter(pk__in=ids).only(
            "pk", "content", "context_text", "embedding_hash", "embedding_model", "embed_attempts"
        )
    )
    if not rows:
        return "gone"
    model = current_model()
    todo = []
    for row in rows:
        h = content_hash(row.embedding_text())
        if row.embedding_hash != h or row.embedding_model != model:
            todo.append((row, h))
    # Rows current already (a re-queued row a previous run finished): settle their state.
    current = {r.pk for r in rows} - {r.pk for r, _ in todo}
    if current:
        ChatMessage.objects.filter(pk__in=current, embed_state=EmbedState.PENDING).update(
            **EMBED_WORK.done_values()
        )
    if not todo:
        return "unchanged"
    claimed = EMBED_WORK.claim([r.pk for r, _ in todo])
    todo = [(r, h) for r, h in todo if r.pk in claimed]
    if not todo:
        return "not claimed (running elsewhere, or attempts exhausted)"
    texts = [r.embedding_text() for r, _ in todo]
    try:
        # Through the shared cache like every embedding (a re-sent or re-embedded text is not
        # sent to the provider again); user_erase deletes the cache rows of the user's texts.
        vectors = embed_texts(texts, role="passage")
    except Exception as exc:  # noqa: BLE001 - recorded on the rows and retried, never lost
        logger.warning("embedding %d messages failed: %s", len(todo), exc)
        attempt = max(claimed.values())
        pks = [r.pk for r, _ in todo]
        if EMBED_WORK.fail(pks, exc, attempt):
            EMBED_WORK.schedule_retry(pks, attempt, queue=current_queue())
            return f"failed (retry {attempt} scheduled)"
        return "failed (giving up)"
    now = timezone.now()
    for (row, h), vector in zip(todo, vectors, strict=True):
        row.embedding, row.embedding_hash, row.embedding_model = vector, h, model
        row.embed_state, row.embed_error = EmbedState.READY, ""
        row.embed_attempts, row.embed_state_at = 0, now
    ChatMessage.objects.bulk_update(
        [r for r, _ in todo],
        [
            "embedding",
            "embedding_hash",
            "embedding_model",
            "embed_state",
            "embed_error",
            "embed_attempts",
            "embed_state_at",
        ],
        batch_size=EMBED_GROUP,
    )
    return f"embedded {len(todo)}"


def chat_summarize(user_pk: int, chat_id: str) -> str:
    """Summarise a chat's unsummarised messages when there are more than the threshold."""
    return write_summary(user_pk=user_pk, chat_id=chat_id)


def retention_sweep() -> dict:
    """Apply retention (``memory.retention.retention_run``); return its report as data.

    The daily schedule and its follow-up run this on the bulk queue, never interactive. Safe to
    run twice: it deletes only messages a summary covers, summarising a due chat first. One run
    is bounded; when work is left, a one-off follow-up run is scheduled in
    ``FOLLOW_UP_SECONDS`` rather than waiting a day.
    """
    report = retention_run(dry_run=False)
    if report.more_remaining:
        _schedule_follow_up()
    return report.as_dict()


def _schedule_follow_up() -> None:
    enqueue_later(
        "memory.tasks.retention_sweep",
        queue=BULK,  # like the daily sweep: never on an interactive worker
        key="memory.retention_follow_up",
        delay=FOLLOW_UP_SECONDS,
        move=False,  # one follow-up waiting is enough
    )
