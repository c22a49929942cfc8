"""Writes of the memory app: messages, preferences, feedback, shared contexts, erasure.

Every function is keyword-only and takes the already-resolved ``user`` (see
:mod:`memory.identity`); the agent app calls these names directly.
"""

from __future__ import annotations

import time
from collections import defaultdict

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from config.errors import Conflict, InvalidArgument, NotFound
from config.userdata import user_data_erase
from memory import tasks
from memory.cursors import new_message_id
from memory.edits import (  # noqa: F401  (the memory app's writes, in one namespace)
    context_entry_delete,
    context_entry_update,
    message_delete,
    message_update,
    preference_delete,
    preference_update,
    supersede_contradicting,
)
from memory.models import (
    CONTEXT_CHARS,
    ChatMessage,
    ContextEntry,
    Feedback,
    FeedbackTarget,
    Kind,
    Preference,
    SharedContext,
)
from memory.selectors import context_for, memory_settings_get
from memory.validation import MAX_ITEMS, clean_items, parse_ts
from rag import rating_targets
from rag.text import segment_for_index


def _previous_turns(user, rows: list[ChatMessage]) -> None:
    """Fill ``context_text`` of each new row with the turn before it in its chat.

    Within the batch the previous row is used; for the first new row of a chat, one query
    finds the latest stored turn before it (one query per chat in the batch).
    """
    by_chat: dict[str, list[ChatMessage]] = defaultdict(list)
    for row in rows:
        by_chat[row.chat_id].append(row)
    for chat_id, chat_rows in by_chat.items():
        chat_rows.sort(key=lambda r: (r.ts, r.message_id))
        first = chat_rows[0]
        before = (
            ChatMessage.objects.filter(user=user, chat_id=chat_id, kind=Kind.MESSAGE)
            .filter(ts__lte=first.ts)
            .exclude(message_id__in=[r.message_id for r in chat_rows])
            .order_by("-ts", "-message_id")
            .values_list("content", flat=True)
            .first()
        )
        previous = before
        for row in chat_rows:
            row.context_text = (previous or "")[-CONTEXT_CHARS:]
            previous = row.content


def messages_write(*, user, items) -> dict:
    """Store a batch of messages atomically; return per-item status and counts.

    All items are validated before anything is written; re-sending a message with the same
    ``message_id``, content and speaker is a no-op, with another content or speaker a
    CONFLICT. Embedding and
    summarising are enqueued after the transaction commits.
    """
    cleaned = clean_items(items)
    base_ms = int(time.time() * 1000)
    seen: dict[str, str] = {}
    for i, item in enumerate(cleaned):
        if item["message_id"] is None:
            # Sequence inside the millisecond keeps generated ids of one batch in order.
            item["message_id"] = new_message_id(base_ms, seq=i)
        mid = item["message_id"]
        if mid in seen and seen[mid] != (item["content"], item["speaker"]):
            raise Conflict(
                gettext(
                    "items[%(index)d].message_id: %(id)s appears twice with different content "
                    "or speaker."
                )
                % {"index": i, "id": mid},
                details={"index": i, "message_id": mid},
            )
        seen[mid] = (item["content"], item["speaker"])
    with transaction.atomic():
        # A re-sent message is the same message only with the same content and speaker: a
        # speaker given or changed on a re-send would otherwise be answered "unchanged" and lost.
        existing = {
            mid: (content, speaker)
            for mid, content, speaker in ChatMessage.objects.filter(
                user=user, message_id__in=list(seen)
            ).values_list("message_id", "content", "speaker")
        }
        statuses, new_rows, done = [], [], set()
        for i, item in enumerate(cleaned):
            mid = item["message_id"]
            if mid in existing:
                if existing[mid] != (item["content"], item["speaker"]):
                    raise Conflict(
                        gettext(
                            "items[%(index)d].message_id: %(id)s already exists with different "
                            "content or speaker."
                        )
                        % {"index": i, "id": mid},
                        details={"index": i, "message_id": mid},
                    )
                statuses.append({"message_id": mid, "status": "unchanged"})
                continue
            statuses.append({"message_id": mid, "status": "created"})
            if mid in done:
                continue
            done.add(mid)
            new_rows.append(
                ChatMessage(
                    user=user,
                    message_id=mid,
                    chat_id=item["chat_id"],
                    ts=item["ts"],
                    role=item["role"],
                    speaker=item["speaker"],
                    kind=Kind.MESSAGE,
                    content=item["content"],
                    search_text=segment_for_index(item["content"]),
                )
            )
        if new_rows:
            _previous_turns(user, new_rows)
            try:
                with transaction.atomic():
                    ChatMessage.objects.bulk_create(new_rows, batch_size=500)
            except IntegrityError:
                # A concurrent request stored one of these ids between our read and insert.
                raise Conflict(
                    gettext("A message_id of this batch was written concurrently; resend.")
                )
            _enqueue_after_write(user, new_rows)
    created = sum(1 for s in statuses if s["status"] == "created")
    return {"items": statuses, "created": created, "unchanged": len(statuses) - created}


def messages_import(*, user, items) -> dict:
    """Store history moved from another system, each message as stored when it was first stored.

    ``items`` are :func:`messages_write` items with an optional ``stored_at`` (RFC 3339, not
    in the future): a created message keeps it as its ``created_at``, the clock retention
    counts by, so history already past the retention period is summarised and its turns
    removed by the next sweep, as if it had always been here. A message already stored keeps
    its own. Any number of items, written in batches of ``MAX_ITEMS`` in one transaction: an
    invalid item writes nothing. Returns :func:`messages_write`'s answer for all of them.
    """
    if not isinstance(items, list):
        raise InvalidArgument(
            gettext("items: send a list of messages."), details={"field": "items"}
        )
    now = timezone.now()
    stored_at, plain = [], []
    for i, item in enumerate(items):
        when = None
        if isinstance(item, dict) and item.get("stored_at") is not None:
            item = dict(item)
            field = f"items[{i}].stored_at"
            when = parse_ts(item.pop("stored_at"), field=field)
            if when > now:
                raise InvalidArgument(
                    f"{field}: a message cannot have been stored in the future.",
                    details={"field": field},
                )
        stored_at.append(when)
        plain.append(item)
    statuses = []
    with transaction.atomic():
        for start in range(0, max(len(plain), 1), MAX_ITEMS):
            batch = plain[start : start + MAX_ITEMS]
            statuses += messages_write(user=user, items=batch)["items"]
        for status, when in zip(statuses, stored_at, strict=True):
            if when is not None and status["status"] == "created":
                ChatMessage.objects.filter(user=user, message_id=status["message_id"]).update(
                    created_at=when
                )
    created = sum(1 for s in statuses if s["status"] == "created")
    return {"items": statuses, "created": created, "unchanged": len(statuses) - created}


def _enqueue_after_write(user, rows: list[ChatMessage]) -> None:
    """Enqueue embedding (groups of <= 100) and any due summaries, on commit."""
    tasks.enqueue_embed([r.pk for r in rows])
    threshold = memory_settings_get().summary_trigger_messages
    chats = {r.chat_id for r in rows}
    due = (
        ChatMessage.objects.filter(
            user=user, chat_id__in=chats, kind=Kind.MESSAGE, summarised=False
        )
        .values("chat_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=threshold)
    )
    for row in due:
        tasks.enqueue_summarize(user.pk, row["chat_id"])


def preference_upsert(*, user, category: str, value: str, actor=None) -> tuple[Preference, bool]:
    """Store a preference once; return it and whether it was created.

    A preference that contradicts one in force in the same category (不吃辣, then 爱吃辣)
    replaces it: the older row stays as history (``superseded_at``, ``superseded_by``) and the
    change is recorded. Stating a retired preference again brings it back in force.
    """
    category, value = (category or "").strip(), (value or "").strip()
    if not category or not value:
        raise InvalidArgument(gettext("category and value must be non-empty."))
    with transaction.atomic():
        pref, created = Preference.objects.get_or_create(user=user, category=category, value=value)
        if not created:
            pref.superseded_at, pref.superseded_by = None, None
            pref.save(update_fields=["updated_at", "superseded_at", "superseded_by"])
        supersede_contradicting(user=user, preference=pref, actor=actor or user)
    return pref, created


def feedback_create(*, user, target_message_id: str, rating: int, comment: str = "") -> Feedback:
    """Record a rating (-1, 0 or 1) of one of the user's messages."""
    if rating not in (-1, 0, 1):
        raise InvalidArgument(gettext("rating: use -1, 0 or 1."), details={"field": "rating"})
    target = ChatMessage.objects.filter(user=user, message_id=target_message_id).first()
    if target is None:
        raise NotFound(gettext("No such message."), details={"field": "target_message_id"})
    return Feedback.objects.create(
        user=user,
        target=target,
        target_message_id=target_message_id,
        rating=rating,
        comment=comment or "",
    )


FEEDBACK_LABEL_CHARS = 80


def feedback_rate(
    *, user, target_type: str, target_id, rating: int, comment: str = ""
) -> tuple[Feedback, bool]:
    """Record the user's rating (-1 or +1) of a message or an activity; return it and whether
    it is new.

    The target must be the user's: one of their messages, or an activity they can see. A
    second rating of the same target replaces the first (its rating and comment). The rating
    keeps a label of what was rated (the activity's title, the message's first words).
    """
    if rating not in (-1, 1):
        raise InvalidArgument(gettext("rating: use -1 or 1."), details={"field": "rating"})
    target_id = str(target_id).strip()
    if target_type == FeedbackTarget.ACTIVITY:
        # The activities app finds it (registered in its ready): memory never imports it.
        activity = rating_targets.find(target_type, user=user, target_id=target_id)
        key = {"target_type": target_type, "target_activity_id": activity.pk}
        defaults = {"target_label": activity.label[:FEEDBACK_LABEL_CHARS], "target": None}
    elif target_type == FeedbackTarget.MESSAGE:
        message = ChatMessage.objects.filter(user=user, message_id=target_id).first()
        if message is None:
            raise NotFound(gettext("No such message."), details={"field": "target_id"})
        key = {"target_type": target_type, "target_message_id": message.message_id}
        defaults = {"target_label": message.content[:FEEDBACK_LABEL_CHARS], "target": message}
    else:
        raise InvalidArgument(
            gettext("target_type: use message or activity."), details={"field": "target_type"}
        )
    with transaction.atomic():
        # The user's row lock serialises two ratings of one target sent at once.
        type(user).objects.select_for_update().filter(pk=user.pk).first()
        return Feedback.objects.update_or_create(
            user=user, **key, defaults={**defaults, "rating": rating, "comment": comment or ""}
        )


def context_create(*, owner, title: str, entry: str, agent_name: str) -> SharedContext:
    """Create a shared context with its first entry."""
    if not (title or "").strip() or not (entry or "").strip() or not (agent_name or "").strip():
        raise InvalidArgument(gettext("title, entry and agent_name must be non-empty."))
    with transaction.atomic():
        context = SharedContext.objects.create(owner=owner, title=title.strip())
        ContextEntry.objects.create(context=context, agent_name=agent_name.strip(), content=entry)
    return context


def update_context(*, user, context_id: int, agent_name: str, content: str) -> ContextEntry:
    """Append an entry to a context the user may write (its owner, or staff)."""
    if not (agent_name or "").strip() or not (content or "").strip():
        raise InvalidArgument(gettext("agent_name and content must be non-empty."))
    with transaction.atomic():
        context = context_for(user=user, context_id=context_id, lock=True)
        entry = ContextEntry.objects.create(
            context=context, agent_name=agent_name.strip(), content=content
        )
        # Touch the context so "recently updated" listings see the new entry.
        context.save(update_fields=["updated_at"])
    return entry


def user_erase(*, user) -> dict[str, int]:
    """Delete everything every app holds about a user, in one transaction; return the counts.

    The apps' declarations in ``config.userdata`` say what that is (memory's messages, summaries,
    preferences, feedback and contexts; activities; writing's books; the agent's events...),
    and the rows of rag's shared embedding cache whose content hash matches one of the user's
    texts go too (``embedding_cache`` in the counts); the admin's log entries about the user's
    rows are scrubbed, the django-q rows of tasks naming them deleted, and last the account
    itself with its API token and sessions (``config.userdata.user_data_erase``).
    """
    return user_data_erase(user=user)
