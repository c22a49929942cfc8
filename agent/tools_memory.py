"""The agent's tools over memory: the shared contexts several agents keep, and recall.

Like those of agent/tools.py, each is ``func(user, **arguments)`` registered with its JSON
schema (agent/tool_registry.py) and calls memory's selectors and services for that user.
"""

from __future__ import annotations

from agent.tool_registry import tool
from memory.selectors import active_context, fetch_context, messages_recall
from memory.services import context_create, update_context

AGENT_NAME = "agent"


@tool(
    "fetchContext",
    "Read a shared context (notes several agents keep for the user).",
    {"contextId": {"type": "integer"}},
    ("contextId",),
)
def fetch_context_tool(user, *, contextId):
    """Return the context's entries (NOT_FOUND unless the user owns it)."""

    found = fetch_context(user=user, context_id=int(contextId))
    return {
        "context": {
            "id": found["id"],
            "title": found["title"],
            "entries": [
                {"agent": e["agent_name"], "content": e["content"]} for e in found["entries"]
            ],
        }
    }


@tool(
    "updateContext",
    "Append a new finding to a shared context: the one contextId names, else the active one "
    "(shown in the context as contextId); with a title and no contextId, start a new context.",
    {"contextId": {"type": "integer"}, "content": {"type": "string"}, "title": {"type": "string"}},
    ("content",),
)
def update_context_tool(user, *, content, contextId=None, title=""):
    """Append (or create) through the memory services, as the agent.

    Without ``contextId`` or ``title`` the note goes to the user's active context (their most
    recently updated one, which the turn's context shows); a new one is made when they have none.
    """

    if contextId is None and not title:
        active = active_context(user=user)
        contextId = active["id"] if active else None
    if contextId is None:
        context = context_create(
            owner=user, title=title or content[:40], entry=content, agent_name=AGENT_NAME
        )
        return {"contextId": context.pk, "title": context.title, "created": True}
    entry = update_context(
        user=user, context_id=int(contextId), agent_name=AGENT_NAME, content=content
    )
    return {
        "contextId": int(contextId),
        "entryId": entry.pk,
        "title": entry.context.title,
        "created": False,
    }


@tool(
    "recallMemory",
    "Search the user's earlier messages for something they said.",
    {"query": {"type": "string"}, "topK": {"type": "integer", "minimum": 1, "maximum": 10}},
    ("query",),
)
def recall_memory(user, *, query, topK=5):
    """Return the best hybrid-search hits among the user's messages.

    A past time phrase in the query (上周, 三月, "last May") is read by ``rag.understand``
    (memory.understanding): the hits are from that window, or ranked by closeness to it.
    """

    hits, understood = messages_recall(
        user=user, query_text=query, top_k=max(1, min(int(topK), 10))
    )
    out = {"messages": [{"content": h["content"], "ts": h["ts"], "role": h["role"]} for h in hits]}
    if understood:
        out["understood"] = understood
    return out
