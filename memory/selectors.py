"""Reads of the memory app: listings, neighbours, chat context, persona, session, contexts.

Keyword-only functions taking the resolved ``user``. The agent app imports ``persona_for``,
``session_for``, ``messages_search_hybrid``, ``fetch_context``, ``messages_between`` and
``users_with_messages_since`` (see docs/memory.md).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from config import live
from config.errors import NotFound
from config.permissions import acts_for_any_user
from memory import understanding
from memory.cursors import decode_cursor, encode_cursor, fingerprint
from memory.models import (
    ChatMessage,
    ContextEntry,
    Feedback,
    FeedbackTarget,
    Kind,
    MemorySettings,
    Preference,
    SharedContext,
)
from memory.search_hybrid import hybrid_search
from memory.search_semantic import embed_uncached_query, try_query_vector
from memory.shapes import message_item
from memory.validation import apply_filter, clean_filter
from rag.embeddings import ProviderError, current_model, embed_texts, search_budget
from rag.preferences import StatedPreference
from rag.search import maxsim
from rag.selectors import rag_settings_get

logger = logging.getLogger(__name__)


def memory_settings_get() -> MemorySettings:
    """Return the live settings of chat memory (config.live: cached, dropped on save)."""
    return live.read(MemorySettings)


def messages_between(*, user, since: datetime, until: datetime, role: str | None = None):
    """Return the user's messages (not summaries) with ``since <= ts < until``, oldest first."""
    qs = ChatMessage.objects.filter(user=user, kind=Kind.MESSAGE, ts__gte=since, ts__lt=until)
    if role:
        qs = qs.filter(role=role)
    return qs.order_by("ts", "message_id")


def messages_matching(*, user, pattern: str, role: str | None = None, limit: int = 200):
    """Return the user's latest messages (not summaries) whose content matches the PostgreSQL
    regular expression ``pattern`` (case-insensitive), newest first: a bounded scan of one user's
    rows (``memory_msg_user_ts``) for words no embedding finds reliably."""
    return list(_newest(user, role).filter(content__iregex=pattern)[:limit])


def messages_latest(*, user, role: str | None = None, limit: int = 500) -> list[ChatMessage]:
    """Return the user's latest ``limit`` messages (not summaries), newest first."""
    return list(_newest(user, role)[:limit])


def _newest(user, role: str | None):
    """Return the user's messages (not summaries), of ``role`` when given, newest first."""
    qs = ChatMessage.objects.filter(user=user, kind=Kind.MESSAGE)
    if role:
        qs = qs.filter(role=role)
    return qs.order_by("-ts", "-message_id")


def users_with_messages_since(*, since: datetime):
    """Return the users who wrote at least one message since ``since``, by id."""
    ids = (
        ChatMessage.objects.filter(kind=Kind.MESSAGE, ts__gte=since)
        .values_list("user_id", flat=True)
        .distinct()
    )
    return get_user_model().objects.filter(pk__in=ids).order_by("pk")


PERSONA_MAX = 50


def messages_list(*, user, flt: dict, page_size: int = 50, cursor: str | None = None):
    """Return (rows, next_cursor): one page of a user's messages, ``ts desc, message_id``.

    Seek paging: the cursor holds the last (ts, message_id) sent, and the next page starts
    strictly after it, so messages arriving meanwhile are neither skipped nor repeated.
    """
    fp = fingerprint("list", user.pk, flt)
    qs = apply_filter(ChatMessage.objects.filter(user=user), flt)
    if cursor:
        last_ts, last_id = decode_cursor("list", fp, cursor, (datetime.fromisoformat, str))
        # ts descends but message_id ascends within a ts: not a plain row comparison.
        qs = qs.filter(Q(ts__lt=last_ts) | Q(ts=last_ts, message_id__gt=last_id))
    rows = list(qs.select_related("user").order_by("-ts", "message_id")[: page_size + 1])
    next_cursor = None
    if len(rows) > page_size:
        rows = rows[:page_size]
        next_cursor = encode_cursor("list", fp, [rows[-1].ts.isoformat(), rows[-1].message_id])
    return rows, next_cursor


def message_get(*, user, message_id: str) -> ChatMessage:
    """Return one of the user's messages, or NOT_FOUND."""
    row = ChatMessage.objects.filter(user=user, message_id=message_id).select_related("user")
    found = row.first()
    if found is None:
        raise NotFound(gettext("No such message."))
    return found


def neighbors(*, user, message_id: str, before: int = 20, after: int = 0) -> list[ChatMessage]:
    """Return the turns around a message in the user's sequence, ``ts asc, message_id``.

    The anchor is included; summaries are not turns and are left out.
    """
    anchor = message_get(user=user, message_id=message_id)
    turns = ChatMessage.objects.filter(user=user, kind=Kind.MESSAGE).select_related("user")
    earlier = Q(ts__lt=anchor.ts) | Q(ts=anchor.ts, message_id__lt=anchor.message_id)
    later = Q(ts__gt=anchor.ts) | Q(ts=anchor.ts, message_id__gt=anchor.message_id)
    head = list(turns.filter(earlier).order_by("-ts", "-message_id")[:before]) if before else []
    tail = list(turns.filter(later).order_by("ts", "message_id")[:after]) if after else []
    return list(reversed(head)) + [anchor] + tail


def latest_summary(*, user, chat_id: str) -> ChatMessage | None:
    """Return the newest summary of a chat, if any."""
    return (
        ChatMessage.objects.filter(user=user, chat_id=chat_id, kind=Kind.SUMMARY)
        .select_related("user")
        .order_by("-ts", "-message_id")
        .first()
    )


def _after_summary(user, chat_id: str, summary: ChatMessage | None):
    qs = ChatMessage.objects.filter(user=user, chat_id=chat_id, kind=Kind.MESSAGE)
    if summary is not None:
        # Messages the summary covers are marked summarised; late arrivals with an older ts
        # are not, and still belong to the context.
        qs = qs.filter(Q(ts__gt=summary.covers_until_ts) | Q(summarised=False))
    return qs.select_related("user").order_by("-ts", "-message_id")


def chat_context(*, user, chat_id: str, budget: int) -> dict:
    """Return the latest summary and the newest messages after it within ``budget`` characters.

    The summary is taken first (when it fits), then messages newest first until the next one
    would exceed the budget; messages are returned oldest first.
    """
    summary = latest_summary(user=user, chat_id=chat_id)
    used = 0
    shown = None
    if summary is not None and len(summary.content) <= budget:
        shown, used = summary, len(summary.content)
    picked, truncated = [], summary is not None and shown is None
    for row in _after_summary(user, chat_id, summary):
        if used + len(row.content) > budget:
            truncated = True
            break
        picked.append(row)
        used += len(row.content)
    return {
        "chat_id": chat_id,
        "summary": shown,
        "messages": list(reversed(picked)),
        "used_chars": used,
        "truncated": truncated,
    }


def session_for(*, user, chat_id: str, limit: int = 20) -> dict:
    """Return the chat's latest summary and its recent messages after it, newest first."""
    summary = latest_summary(user=user, chat_id=chat_id)
    rows = list(_after_summary(user, chat_id, summary)[:limit])
    return {
        "summary": message_item(summary) if summary else None,
        "messages": [message_item(r) for r in rows],
    }


def persona_for(
    *, user, query: str | None = None, query_vector=None, limit: int = PERSONA_MAX
) -> list[dict]:
    """Return what the user stated about themselves: preferences in force and feedback.

    Seed 002's persona pass: candidates are filtered by user and kind (preference, feedback)
    only, merged by recency (a preference's last update, a rating's creation) and cut to the
    newest ``limit``, then re-ranked by similarity to ``query`` when one is given (above the
    live "persona" floor). Chat summaries are no candidates: they belong to the session and
    knowledge passes, so months of summaries never push a stated preference out.
    ``query_vector``: the query's embedding, when the caller has it.
    """
    limit = max(1, min(int(limit), PERSONA_MAX))
    # Each kind contributes at most ``limit`` (the newest), so the merge reads <= 2 * limit rows.
    dated: list[tuple] = []
    for pref in Preference.active.filter(user=user).order_by("-updated_at", "-pk")[:limit]:
        item = {
            "type": "preference",
            "text": pref.persona_text(),
            "id": pref.pk,
            "category": pref.category,
            "value": pref.value,
        }
        dated.append((pref.updated_at, item))
    for fb in Feedback.objects.filter(user=user).order_by("-created_at", "-pk")[:limit]:
        dated.append((fb.created_at, {"type": "feedback", "text": fb.persona_text()}))
    # Stable sort: on equal times a preference stays before a rating.
    dated.sort(key=lambda pair: pair[0], reverse=True)
    items = [item for _, item in dated[:limit]]
    if not query or not items:
        return items
    # The query is not stored anywhere, so it stays out of the shared cache; the candidates'
    # texts are cached and deleted by hash in user_erase.
    try:
        query_vec = query_vector if query_vector is not None else embed_uncached_query(query)
        vectors = embed_texts([i["text"] for i in items], role="passage", budget=search_budget())
    except ProviderError as exc:  # provider down or slow: newest first, unranked
        logger.warning("persona ranking skipped: %s", exc)
        return items
    floor = rag_settings_get().floor_for("persona", current_model())
    for item, vec in zip(items, vectors, strict=True):
        item["score"] = maxsim(query_vec, [vec])
    items = [i for i in items if floor is None or (i["score"] or 0.0) >= floor]
    items.sort(key=lambda i: -(i["score"] or 0.0))
    return items


def messages_search_hybrid(
    *, user, query_text: str, top_k: int = 10, filter=None, vector=None
) -> list[dict]:
    """Return hybrid search hits as message items with their scores (for the agent).

    ``vector``: the query's embedding when the caller already has it (else it is embedded).
    """
    flt = clean_filter(filter)
    if vector is None:
        vector, _ = try_query_vector(query_text, None)  # None: lexical hits only
    items = hybrid_search(user=user, query_text=query_text, flt=flt, top_k=top_k, vector=vector)
    return [{**message_item(i.row), **i.extra} for i in items]


def messages_recall(
    *,
    user,
    query_text: str,
    top_k: int = 10,
    vector=None,
    now=None,
    ended_only=False,
    role: str | None = None,
) -> tuple[list[dict], dict | None]:
    """Return hybrid hits for the agent with the query's past time phrase understood.

    "上周说的火锅" searches 火锅 among last week's messages (or, when none matches, ranks all
    by closeness to last week), in the service's time zone; ``ended_only`` reads only a phrase
    whose window has ended (the knowledge pass: "今天想吃火锅" is no recall of today).
    A question about one day ("5月2日我们聊了什么") is a range read of that day, in time order.
    ``role``: only that role's messages ("user": what the user said, for a question about it).
    Returns the hits as message items with their scores, and the ``understood`` object (None
    when the query names no time).
    """
    tz = understanding.time_zone(None)
    flt = clean_filter({"role": role} if role else None)
    # A question about one day has no words to search with: read that day (as the API does),
    # each item marked ``range``. The knowledge pass (ended_only) reads only a day that is over.
    day = understanding.day_answer(
        user=user, query_text=query_text, flt=flt, top_k=top_k, tz=tz, now=now
    )
    if day is not None and not (
        ended_only and datetime.fromisoformat(day.understood["end"]) > (now or timezone.now())
    ):
        return [{**message_item(i.row), "range": True} for i in day.hits], day.understood
    hits, _, understood = understanding.hybrid(
        user=user,
        query_text=query_text,
        query_embedding=None,
        flt=flt,
        top_k=top_k,
        min_score=None,
        tz=tz,
        now=now,
        vector=vector,
        ended_only=ended_only,
    )
    return [{**message_item(i.row), **i.extra} for i in hits], understood


def context_for(*, user, context_id: int, lock: bool = False) -> SharedContext:
    """Return a shared context its owner (or who acts for any user) may read; else NOT_FOUND."""
    qs = SharedContext.objects.filter(pk=context_id)
    if not acts_for_any_user(user):
        qs = qs.filter(owner=user)
    if lock:
        qs = qs.select_for_update()
    context = qs.select_related("owner").first()
    if context is None:
        raise NotFound(gettext("No such context."))
    return context


def fetch_context(*, user, context_id: int) -> dict:
    """Return a shared context with its entries, oldest first."""
    context = context_for(user=user, context_id=context_id)
    entries = ContextEntry.objects.filter(context=context).order_by("created_at", "pk")
    return {
        "id": context.pk,
        "owner": context.owner.get_username(),
        "title": context.title,
        "created_at": context.created_at,
        "updated_at": context.updated_at,
        "entries": [_entry_item(e) for e in entries],
    }


def _seek_page(qs, *, kind: str, user, page_size: int, cursor: str | None):
    """Return (rows, next_cursor): one page of ``qs`` newest first (``-pk``), seek-paged."""
    fp = fingerprint(kind, user.pk)
    if cursor:
        (last_pk,) = decode_cursor(kind, fp, cursor, (int,))
        qs = qs.filter(pk__lt=last_pk)
    rows = list(qs.order_by("-pk")[: page_size + 1])
    next_cursor = None
    if len(rows) > page_size:
        rows = rows[:page_size]
        next_cursor = encode_cursor(kind, fp, [rows[-1].pk])
    return rows, next_cursor


def feedback_list(*, user, page_size: int = 50, cursor: str | None = None):
    """Return (ratings, next_cursor): one page of the user's ratings, newest first."""
    return _seek_page(
        Feedback.objects.filter(user=user),
        kind="feedback",
        user=user,
        page_size=page_size,
        cursor=cursor,
    )


def feedback_ratings(user, target_type: str) -> dict[str, int]:
    """Return ``{target id: rating}`` of the user's ratings of one target type (-1 and +1)."""
    rows = Feedback.objects.filter(user=user, target_type=target_type, rating__in=(-1, 1))
    if target_type == FeedbackTarget.ACTIVITY:
        pairs = rows.values_list("target_activity_id", "rating")
    else:
        pairs = rows.values_list("target_message_id", "rating")
    return {str(target): rating for target, rating in pairs.order_by("pk")}


def contexts_list(*, user, page_size: int = 50, cursor: str | None = None):
    """Return (contexts, next_cursor): one page of the contexts the user owns, newest first.

    Each context carries its ``entry_count`` and its ``latest_entry`` (``fetch_context`` reads
    them all).
    """
    rows, next_cursor = _seek_page(
        SharedContext.objects.filter(owner=user).select_related("owner"),
        kind="contexts",
        user=user,
        page_size=page_size,
        cursor=cursor,
    )
    latest: dict[int, ContextEntry] = {}
    counts: dict[int, int] = {}
    for entry in ContextEntry.objects.filter(context__in=rows).order_by("created_at", "pk"):
        latest[entry.context_id] = entry
        counts[entry.context_id] = counts.get(entry.context_id, 0) + 1
    for context in rows:
        context.entry_count = counts.get(context.pk, 0)
        context.latest_entry = latest.get(context.pk)
    return rows, next_cursor


def active_context(*, user, context_id: int | None = None) -> dict | None:
    """Return the shared context a turn reads: the one named, else the user's latest updated.

    None when the user has none (a named one that is not theirs is NOT_FOUND).
    """
    if context_id is None:
        context_id = (
            SharedContext.objects.filter(owner=user)
            .order_by("-updated_at", "-pk")
            .values_list("pk", flat=True)
            .first()
        )
        if context_id is None:
            return None
    return fetch_context(user=user, context_id=context_id)


def _entry_item(entry: ContextEntry) -> dict:
    return {
        "id": entry.pk,
        "agent_name": entry.agent_name,
        "content": entry.content,
        "created_at": entry.created_at,
    }


def stated_preferences(user, limit: int = PERSONA_MAX):
    """Return the user's newest ``limit`` preferences in force as rag ``StatedPreference``s.

    Registered with ``rag.preferences`` so other apps (activity ranking) can read them.
    """
    rows = Preference.active.filter(user=user).order_by("-updated_at", "-pk")[:limit]
    return [StatedPreference(category=p.category, value=p.value) for p in rows]


def preferences_list(*, user, history: bool = False) -> list[Preference]:
    """Return the user's preferences in force (all, with ``history``) by category, then value."""
    manager = Preference.objects if history else Preference.active
    return list(manager.filter(user=user).order_by("category", "value", "pk"))
