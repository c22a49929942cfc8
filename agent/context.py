"""Assemble a turn's runtime context from memory (the prompt it goes into: agent/prompt.py).

:func:`build_context` runs three passes through the memory app's selectors:

- persona: stated preferences (``persona:preference:<pk>``) and feedback
  (``persona:feedback:<n>``); chat summaries are context and knowledge, never persona;
- session: the chat's latest summary (``session:summary:<message_id>``) and its recent turns
  (``session:msg:<message_id>``);
- knowledge: hybrid memory search for this message (``knowledge:msg:<message_id>``), keeping
  lexical matches and semantic matches above the live "memory" floor; summaries of other chats
  come in here when they match;
- shared context: the active shared context (the one the chat request names, else the user's
  most recently updated one), as one chunk ``context:<id>`` of its title and entries.

The shared context is trimmed to the budget, never dropped whole: when it does not fit, its
oldest entries go first (the text is cut from the start), keeping the newest notes; the prompt
builder holds ``TRIM_RESERVE_TOKENS`` of the budget for it until its turn, so the stated
preferences ranked before it cannot use up the room it needs. The offline run builds the
same prompt within the same budget (its sources are what went in), though no model reads it.

The prompt the chunks go into is built by :mod:`agent.prompt`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from agent.intent_rules import CREATE
from agent.models import AgentSession
from agent.prompt import Chunk, normalised_hash
from agent.recall_questions import ABOUT_THE_ASSISTANT_RE, is_recall
from agent.selectors import chat_draft
from memory.search_semantic import embed_uncached_query
from memory.selectors import (
    PERSONA_MAX,
    active_context,
    messages_recall,
    messages_search_hybrid,
    persona_for,
    session_for,
)
from rag.embeddings import current_model
from rag.selectors import rag_settings_get

if TYPE_CHECKING:
    from activities.models import Activity

logger = logging.getLogger(__name__)

SESSION_TURNS = 10
KNOWLEDGE_TOP_K = 5
KNOWLEDGE_SUMMARIES = 2


@dataclass
class RuntimeContext:
    """Everything a turn knows before it answers."""

    user: object
    chat_id: str
    message: str
    last_intent: str = ""
    location: tuple[float, float] | None = None
    persona: list[Chunk] = field(default_factory=list)
    session: list[Chunk] = field(default_factory=list)
    knowledge: list[Chunk] = field(default_factory=list)
    shared: list[Chunk] = field(default_factory=list)  # the active shared context
    errors: dict[str, str] = field(default_factory=dict)
    # What the message can name (AgentSession.shown: the last listing's ids, the activity a
    # later reply was about, the last search and every id it showed), what it names and whether
    # it asks for more (agent/references.py), and what this turn's reply lists, is about and
    # searched (set by the offline composer; None: nothing).
    shown: list[int] = field(default_factory=list)
    focus: int | None = None
    shown_for: str = ""  # "cancel": the listing asked which to cancel
    referenced: int | None = None
    action: str | None = None
    listed: list[int] | None = None
    focused: int | None = None
    listed_for: str = ""
    search: dict | None = None
    seen: list[int] = field(default_factory=list)
    more: bool = False
    # The preferences in force a request to forget names ("forget that I'm vegetarian": deleted
    # when the turn is saved); None when the message asks nothing of the kind.
    forgotten: list | None = None
    # The user's messages that stated them (agent.forgetting.messages_stating), deleted with them.
    forgotten_messages: list[str] | None = None
    searched: dict | None = None
    # The message's query-role embedding, made once per turn for the router and both memory
    # passes (None when the provider failed: each then degrades on its own).
    query_vector: list[float] | None = None

    @cached_property
    def draft(self) -> Activity | None:
        """Return the draft this chat edits (selectors.chat_draft), read once a turn and only
        when asked: most turns are not about a draft."""
        return chat_draft(user=self.user, chat_id=self.chat_id)

    @property
    def draft_id(self) -> int | None:
        return self.draft.pk if self.draft is not None else None

    @property
    def editing_draft(self) -> bool:
        """Return whether the last turn was CREATE and the chat's draft is still one."""
        return self.last_intent == CREATE and self.draft_id is not None

    @property
    def said_before(self) -> list[str]:
        """Return what the user said earlier in this chat, oldest first (the session pass)."""
        return [
            c.body
            for c in self.session
            if c.meta.get("role") == "user" and c.body and c.body != self.message
        ]

    @property
    def chunks(self) -> list[Chunk]:
        return [*self.persona, *self.shared, *self.session, *self.knowledge]

    def router_context(self) -> dict:
        return {
            "last_intent": self.last_intent,
            "editing_draft": self.editing_draft,
            "chat_id": self.chat_id,
            "query_vector": self.query_vector,
        }


def persona_pass(user, message: str | None = None, vector=None) -> list[Chunk]:
    """Return the preferences and feedback the memory app knows about the user.

    The selection is memory's ``persona_for`` (seed 002): the newest ``PERSONA_MAX`` (50)
    preferences and ratings filtered by user and kind only, then re-ranked by similarity to
    ``message``. Within a kind the more similar comes first (a slightly higher priority for the
    prompt builder).
    """

    items = persona_for(user=user, query=message, query_vector=vector, limit=PERSONA_MAX)
    chunks = []
    feedback = 0
    for rank, item in enumerate(items):
        closer = -0.001 * rank  # keeps each kind's priority band, orders within it
        if item["type"] == "preference":
            key = f"persona:preference:{item['id']}"
            meta = {"category": item["category"], "value": item["value"]}
            chunks.append(Chunk(key, f"偏好 {item['text']}", 1.0 + closer, meta=meta))
        elif item["type"] == "feedback":
            feedback += 1
            text = f"反馈 {item['text']}"
            chunks.append(Chunk(f"persona:feedback:{feedback}", text, 0.6 + closer))
    return chunks


def session_pass(user, chat_id: str) -> list[Chunk]:
    """Return the chat's summary and its recent turns, oldest first (newer ones rank higher)."""

    session = session_for(user=user, chat_id=chat_id, limit=SESSION_TURNS)
    chunks = []
    if session["summary"]:
        summary = session["summary"]
        chunks.append(
            Chunk(
                f"session:summary:{summary['message_id']}",
                f"本对话摘要：{summary['content']}",
                0.8,
                body=summary["content"],
                key=f"msg:{summary['message_id']}",
            )
        )
    messages = list(reversed(session["messages"]))  # oldest first
    for i, item in enumerate(messages):
        speaker = "用户" if item["role"] == "user" else "助手"
        recency = 0.7 + 0.2 * (i + 1) / max(len(messages), 1)
        chunks.append(
            Chunk(
                f"session:msg:{item['message_id']}",
                f"{speaker}：{item['content']}",
                recency,
                body=item["content"],
                key=f"msg:{item['message_id']}",
                meta={"role": item["role"]},
            )
        )
    return chunks


def knowledge_pass(user, message: str, vector=None, now=None) -> list[Chunk]:
    """Return the user's earlier messages and chat summaries that match this message.

    Kept: lexical matches and semantic ones above the live "memory" floor. A past time phrase
    in the message (上周, 三月, "last May") narrows the message search to its window, or ranks
    by closeness to it (memory.understanding); one whose window has not ended (今天, 最近) is
    the turn talking about now, not recalling, and is not applied. Summaries (search leaves
    them out unless asked) are searched apart, the best ``KNOWLEDGE_SUMMARIES``: seed 002
    puts them here and in the session pass, never in the persona. ``now``: the instant time
    phrases are read from (the current time when None). A question about what the user said
    (``is_recall``) searches the user's own messages only, unless it asks what the assistant
    said (你上次推荐的那个展, "what you recommended"): the assistant's answers and earlier
    recall questions otherwise took every slot ("what's my name?" found only "do you know my
    name?" and its answers; a make-run look, session 49).
    """
    floor = rag_settings_get().floor_for("memory", current_model())
    # Twice the slots, as the same words said again (the question asked before, a repeated
    # line) are dropped below: they would fill the slots and tell nothing new.
    found, _ = messages_recall(
        user=user,
        query_text=message,
        top_k=2 * KNOWLEDGE_TOP_K,
        vector=vector,
        now=now,
        ended_only=True,
        role="user" if is_recall(message) and not ABOUT_THE_ASSISTANT_RE.search(message) else None,
    )
    seen = {normalised_hash(message)}
    hits = []
    for hit in found:
        words = normalised_hash(hit["content"])
        if words not in seen and len(hits) < KNOWLEDGE_TOP_K:
            seen.add(words)
            hits.append(hit)
    hits += messages_search_hybrid(
        user=user,
        query_text=message,
        top_k=KNOWLEDGE_SUMMARIES,
        filter={"kind": "summary"},
        vector=vector,
    )
    chunks = []
    for hit in hits:
        semantic = hit.get("semantic_score")
        lexical = hit.get("lexical_score") or 0.0
        # A range read (a question about one day) scored nothing: its turns are the answer.
        scored_low = floor is not None and (semantic or 0.0) < floor
        if lexical <= 0 and not hit.get("range") and scored_low:
            continue
        if hit.get("kind") == "summary":
            label = "以往对话摘要："
        else:
            label = "用户曾说：" if hit["role"] == "user" else "助手曾说："
        score = max(float(semantic or 0.0), 0.0)
        chunks.append(
            Chunk(
                f"knowledge:msg:{hit['message_id']}",
                f"{label}{hit['content']}",
                0.3 + 0.4 * score,
                body=hit["content"],
                key=f"msg:{hit['message_id']}",
                meta={
                    "role": hit["role"],
                    "kind": hit.get("kind"),
                    "ts": hit["ts"],
                    "lexical": lexical > 0,
                    "range": bool(hit.get("range")),
                },
            )
        )
    return chunks


SHARED_CONTEXT_PRIORITY = 0.95  # after stated preferences, before the chat's own turns


def shared_context_pass(user, context_id: int | None = None) -> list[Chunk]:
    """Return the active shared context as one trimmable chunk (none when the user has none).

    The active context is ``context_id`` (NOT_FOUND unless the user's), else the user's most
    recently updated one. Its entries are joined oldest first, so trimming keeps the newest.
    """

    found = active_context(user=user, context_id=context_id)
    if found is None or not found["entries"]:
        return []
    notes = "；".join(f"{e['agent_name']}: {e['content']}" for e in found["entries"])
    return [
        Chunk(
            f"context:{found['id']}",
            f"共享上下文「{found['title']}」（contextId {found['id']}）：{notes}",
            SHARED_CONTEXT_PRIORITY,
            key=f"context:{found['id']}",
            trim=True,
        )
    ]


def build_context(
    *,
    user,
    chat_id: str,
    message: str,
    location: tuple[float, float] | None = None,
    now=None,
    context_id: int | None = None,
) -> RuntimeContext:
    """Return the runtime context of a turn; a failing pass is recorded, never fatal.

    ``now``: the instant the message's time phrases (上周, "in March") are read from;
    ``context_id`` names the shared context the turn reads (default: the user's latest).
    """

    session, _ = AgentSession.objects.get_or_create(user=user, chat_id=chat_id)
    if location is not None and (session.lat, session.lng) != tuple(location):
        session.lat, session.lng = location
        session.save(update_fields=["lat", "lng", "updated_at"])
    shown = session.shown if isinstance(session.shown, dict) else {}
    context = RuntimeContext(
        user=user,
        chat_id=chat_id,
        message=message,
        last_intent=session.last_intent,
        shown=[pk for pk in shown.get("ids", []) if isinstance(pk, int)],
        focus=shown["focus"] if isinstance(shown.get("focus"), int) else None,
        shown_for=shown.get("for", ""),
        search=shown.get("search"),
        seen=[pk for pk in shown.get("seen", []) if isinstance(pk, int)],
        location=location or ((session.lat, session.lng) if session.lat is not None else None),
    )
    if (message or "").strip():
        try:
            # Uncached: the user's words stay out of the shared embedding cache (memory docs).
            context.query_vector = embed_uncached_query(message)
        except Exception as exc:  # noqa: BLE001 - ProviderError: the passes degrade one by one
            logger.warning("turn embedding failed: %s", exc)
    vector = context.query_vector
    passes = (
        ("persona", lambda: persona_pass(user, message, vector)),
        ("session", lambda: session_pass(user, chat_id)),
        ("knowledge", lambda: knowledge_pass(user, message, vector, now)),
        ("shared", lambda: shared_context_pass(user, context_id)),
    )
    for name, run in passes:
        try:
            setattr(context, name, run())
        except Exception as exc:  # noqa: BLE001 - one pass failing must not fail the turn
            logger.warning("context pass %s failed: %s", name, exc)
            context.errors[name] = f"{type(exc).__name__}: {exc}"
    return context
