"""Enqueue the memory app's tasks (memory/tasks.py) by name, once the transaction commits.

Apart from the tasks module: summarising and editing enqueue embeddings, and the tasks run
summarising and retention, so helpers living in tasks.py would make an import cycle.
"""

from __future__ import annotations

from config.queues import BULK, enqueue, queue_for_rows

EMBED_GROUP = 100  # at most this many texts per provider call


def enqueue_embed(ids: list[int], *, queue: str | None = None) -> None:
    """Embed these rows asynchronously, in groups of <= 100, once the transaction commits.

    Queue: ``queue`` when given, else by size (``config.queues.queue_for_rows``): a few messages
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
