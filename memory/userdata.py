"""The user data the memory app holds, declared to ``config.userdata`` (erasure and export).

Messages and summaries (with their vectors), preferences (with the ones later ones replaced),
feedback, shared contexts and their entries, and the audit of corrections to all of these.
Kinds are listed dependants first, the erase order.
"""

from __future__ import annotations

from config.userdata import Kind, UserData
from memory.models import (
    ChatMessage,
    ContextEntry,
    Feedback,
    MemoryChange,
    Preference,
    SharedContext,
)
from memory.models import Kind as MessageKind


def _texts(user):
    """Yield every text of the user that memory may have embedded through the shared cache.

    Messages and summaries as embedded (with the previous turn) and alone, the persona texts
    of preferences and ratings (``persona_for``), and the raw values, comments, context titles
    and entries, in case another caller embedded them as they are.
    """
    rows = ChatMessage.objects.filter(user=user).only("content", "context_text")
    for row in rows.iterator(chunk_size=2000):
        yield row.embedding_text()
        yield row.content
    for pref in Preference.objects.filter(user=user).iterator():
        yield pref.persona_text()
        yield pref.value
    for fb in Feedback.objects.filter(user=user).iterator():
        yield fb.persona_text()
        if fb.comment:
            yield fb.comment
    yield from SharedContext.objects.filter(owner=user).values_list("title", flat=True)
    yield from ContextEntry.objects.filter(context__owner=user).values_list("content", flat=True)


def declaration() -> UserData:
    """Return the memory app's declaration of a user's data."""
    return UserData(
        "memory",
        kinds=(
            Kind(
                "memory_changes",
                MemoryChange,
                "user",
                description="corrections of the user's memory, with who made them",
            ),
            Kind("feedback", Feedback, "user"),
            Kind("context_entries", ContextEntry, "context__owner"),
            Kind("contexts", SharedContext, "owner"),
            Kind("preferences", Preference, "user"),
            Kind(
                "embeddings",
                ChatMessage,
                lambda user: ChatMessage.objects.filter(user=user, embedding__isnull=False),
                erased_with="messages",
                description="vectors of the user's messages and summaries",
            ),
            Kind(
                "summaries",
                ChatMessage,
                lambda user: ChatMessage.objects.filter(user=user, kind=MessageKind.SUMMARY),
            ),
            Kind(
                "messages",
                ChatMessage,
                lambda user: ChatMessage.objects.filter(user=user, kind=MessageKind.MESSAGE),
            ),
        ),
        texts=_texts,
        tasks={
            "memory.tasks.messages_embed": ChatMessage,
            "memory.tasks.enqueue_embed": ChatMessage,  # retries (config.work)
            "memory.tasks.chat_summarize": None,
        },
    )
