"""Corrections of a user's memory: edit or delete one message, preference or context entry.

Writes, keyword-only ``<entity>_<action>`` (re-exported by :mod:`memory.services`). Every change
runs in one transaction with the row locked, records a :class:`memory.models.MemoryChange`
(who, what, before and after: the admin shows them) and leaves nothing stale behind it:

* a message: its full-text row is rewritten at once and its vector re-made by the worker
  (interactive queue); the next turn of its chat, which embeds this one as its context, is
  refreshed too; the cached vectors of the old text are forgotten (erasure could not find them
  any more); every summary that covers it loses the sentences it quoted from the old text
  (summaries are extractive offline: they quote sentences), and is marked ``stale`` when an
  LLM wrote it (a paraphrase cannot be corrected sentence by sentence);
* a preference: edited in place, or deleted (the preferences it had replaced stay history);
* a context entry: edited or deleted by the context's owner (or staff).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from config.errors import InvalidArgument, NotFound
from memory.enqueue import enqueue_embed
from memory.models import (
    CONTEXT_CHARS,
    ChangeAction,
    ChatMessage,
    ContextEntry,
    EmbedState,
    Kind,
    MemoryChange,
    Preference,
)
from memory.selectors import context_for
from memory.stance import contradicts, related_categories
from memory.summarize import _sentences
from memory.validation import clean_speaker
from rag.embeddings import embedding_cache_forget
from rag.llm import get_llm
from rag.text import segment_for_index


def _actor(actor) -> str:
    return actor if isinstance(actor, str) else actor.get_username()


def change_record(*, user, actor, entity: str, entity_id, action: str, before, after) -> None:
    """Record one change of the user's memory, and who made it."""
    MemoryChange.objects.create(
        user=user,
        actor=_actor(actor)[:150],
        entity=entity,
        entity_id=str(entity_id)[:200],
        action=action,
        before=before or {},
        after=after or {},
    )


def _pending():
    return {
        "embed_state": EmbedState.PENDING,
        "embed_attempts": 0,
        "embed_error": "",
        "embed_state_at": timezone.now(),
    }


def _next_turn(user, message: ChatMessage) -> ChatMessage | None:
    return (
        ChatMessage.objects.filter(user=user, chat_id=message.chat_id, kind=Kind.MESSAGE)
        .filter(ts__gte=message.ts)
        .exclude(pk=message.pk)
        .order_by("ts", "message_id")
        .first()
    )


def _previous_content(user, message: ChatMessage) -> str:
    row = (
        ChatMessage.objects.filter(user=user, chat_id=message.chat_id, kind=Kind.MESSAGE)
        .filter(ts__lte=message.ts)
        .exclude(pk=message.pk)
        .order_by("-ts", "-message_id")
        .values_list("content", flat=True)
        .first()
    )
    return (row or "")[-CONTEXT_CHARS:]


def _summaries_forget(user, message: ChatMessage, old_text: str) -> list[int]:
    """Take the old text's sentences out of the summaries covering ``message``; return ids."""
    if not message.summarised:
        return []
    quoted = _sentences([old_text])
    llm = get_llm().enabled
    changed = []
    summaries = ChatMessage.objects.select_for_update().filter(
        user=user, chat_id=message.chat_id, kind=Kind.SUMMARY, covers_until_ts__gte=message.ts
    )
    for summary in summaries:
        text = summary.content
        for sentence in quoted:
            text = text.replace(sentence, "")
        text = text.strip()
        fields = {}
        if text != summary.content:
            fields.update(content=text or "…", search_text=segment_for_index(text), **_pending())
        elif llm:
            fields["stale"] = True
        if fields:
            ChatMessage.objects.filter(pk=summary.pk).update(**fields)
            changed.append(summary.pk)
    return changed


def _locked_message(user, message_id: str) -> ChatMessage:
    message = (
        ChatMessage.objects.select_for_update()
        .filter(user=user, message_id=message_id, kind=Kind.MESSAGE)
        .first()
    )
    if message is None:
        raise NotFound(gettext("No such message."), details={"field": "message_id"})
    return message


def message_update(
    *,
    user,
    message_id: str,
    actor,
    content: str | None = None,
    role=None,
    speaker: str | None = None,
):
    """Correct one message's content, role or speaker; return the row as stored.

    ``speaker`` follows the rule of a write (:func:`memory.validation.clean_speaker`): blank
    clears it. Who said a turn is not part of its embedded text, so a new speaker needs no
    new vector: hybrid search reads the speakers of its candidates at query time.
    """
    if content is not None and not content.strip():
        raise InvalidArgument(gettext("content must be non-empty."), details={"field": "content"})
    if speaker is not None:
        try:
            speaker = clean_speaker(speaker)
        except ValueError as error:
            raise InvalidArgument(
                gettext("speaker: %(reason)s") % {"reason": error}, details={"field": "speaker"}
            ) from None
    with transaction.atomic():
        message = _locked_message(user, message_id)
        before = {"content": message.content, "role": message.role, "speaker": message.speaker}
        old_texts = [message.embedding_text(), message.content]
        fields = {}
        if content is not None and content != message.content:
            fields.update(content=content, search_text=segment_for_index(content), **_pending())
        if role is not None and role != message.role:
            fields["role"] = role
        if speaker is not None and speaker != message.speaker:
            fields["speaker"] = speaker
        if not fields:
            return message
        fields["edited_at"] = timezone.now()
        ChatMessage.objects.filter(pk=message.pk).update(**fields)
        to_embed = [message.pk] if "content" in fields else []
        if "content" in fields:
            embedding_cache_forget(texts=old_texts)
            following = _next_turn(user, message)
            if following is not None:
                ChatMessage.objects.filter(pk=following.pk).update(
                    context_text=content[-CONTEXT_CHARS:], **_pending()
                )
                to_embed.append(following.pk)
            to_embed += _summaries_forget(user, message, before["content"])
        change_record(
            user=user,
            actor=actor,
            entity="message",
            entity_id=message_id,
            action=ChangeAction.UPDATE,
            before=before,
            after={k: fields[k] for k in ("content", "role", "speaker") if k in fields},
        )
        if to_embed:
            enqueue_embed(to_embed)
    return ChatMessage.objects.get(pk=message.pk)


def message_delete(*, user, message_id: str, actor) -> None:
    """Delete one message; its chat and its summaries no longer carry what it said."""
    with transaction.atomic():
        message = _locked_message(user, message_id)
        before = {"content": message.content, "role": message.role, "ts": message.ts.isoformat()}
        following = _next_turn(user, message)
        embedding_cache_forget(texts=[message.embedding_text(), message.content])
        to_embed = _summaries_forget(user, message, message.content)
        message.delete()
        if following is not None:
            # The turn after now follows the turn before the deleted one.
            ChatMessage.objects.filter(pk=following.pk).update(
                context_text=_previous_content(user, following), **_pending()
            )
            to_embed.append(following.pk)
        change_record(
            user=user,
            actor=actor,
            entity="message",
            entity_id=message_id,
            action=ChangeAction.DELETE,
            before=before,
            after={},
        )
        if to_embed:
            enqueue_embed(to_embed)


def supersede_contradicting(*, user, preference: Preference, actor) -> list[Preference]:
    """Retire the user's preferences in force that ``preference`` contradicts; return them.

    In its category, in every category (see :mod:`memory.stance`), and across likes and
    dislikes.

    The retired rows stay, with ``superseded_at`` and ``superseded_by``: the history. Runs in the
    caller's transaction (``preference_upsert``).
    """
    retired = [
        old
        for old in Preference.active.select_for_update()
        .filter(user=user, category__in=related_categories(preference.category))
        .exclude(pk=preference.pk)
        if contradicts(old.value, preference.value, old.category, preference.category)
    ]
    now = timezone.now()
    for old in retired:
        Preference.objects.filter(pk=old.pk).update(superseded_at=now, superseded_by=preference)
        change_record(
            user=user,
            actor=actor,
            entity="preference",
            entity_id=old.pk,
            action=ChangeAction.SUPERSEDE,
            before={"category": old.category, "value": old.value},
            after={"superseded_by": preference.pk, "value": preference.value},
        )
    return retired


def _locked_preference(user, preference_id: int) -> Preference:
    pref = Preference.active.select_for_update().filter(user=user, pk=preference_id).first()
    if pref is None:
        raise NotFound(gettext("No such preference."))
    return pref


def preference_update(*, user, preference_id: int, actor, category=None, value=None):
    """Correct a preference in force; a contradicted one is replaced as on upsert."""
    category = category.strip() if isinstance(category, str) else None
    value = value.strip() if isinstance(value, str) else None
    if category == "" or value == "":
        raise InvalidArgument(gettext("category and value must be non-empty."))
    with transaction.atomic():
        pref = _locked_preference(user, preference_id)
        before = {"category": pref.category, "value": pref.value}
        after = {"category": category or pref.category, "value": value or pref.value}
        if after == before:
            return pref
        if (
            Preference.objects.filter(user=user, **after).exclude(pk=pref.pk).exists()
        ):  # the corrected value is stated already: keep that row, retire this one
            raise InvalidArgument(
                gettext("This preference is stated already."), details={"field": "value"}
            )
        pref.category, pref.value = after["category"], after["value"]
        pref.save(update_fields=["category", "value", "updated_at"])
        change_record(
            user=user,
            actor=actor,
            entity="preference",
            entity_id=pref.pk,
            action=ChangeAction.UPDATE,
            before=before,
            after=after,
        )
        supersede_contradicting(user=user, preference=pref, actor=actor)
    return pref


def preference_delete(*, user, preference_id: int, actor) -> None:
    """Delete a preference in force (the ones it replaced stay history, still retired)."""
    with transaction.atomic():
        pref = _locked_preference(user, preference_id)
        change_record(
            user=user,
            actor=actor,
            entity="preference",
            entity_id=pref.pk,
            action=ChangeAction.DELETE,
            before={"category": pref.category, "value": pref.value},
            after={},
        )
        pref.delete()


def _locked_entry(user, context_id: int, entry_id: int) -> ContextEntry:
    context = context_for(user=user, context_id=context_id, lock=True)
    entry = ContextEntry.objects.filter(context=context, pk=entry_id).first()
    if entry is None:
        raise NotFound(gettext("No such entry."))
    return entry


def context_entry_update(*, user, context_id: int, entry_id: int, actor, content: str):
    """Correct one entry of a shared context the user may write."""
    if not (content or "").strip():
        raise InvalidArgument(gettext("content must be non-empty."), details={"field": "content"})
    with transaction.atomic():
        entry = _locked_entry(user, context_id, entry_id)
        if entry.content == content:
            return entry
        before = {"content": entry.content, "agent_name": entry.agent_name}
        entry.content = content
        entry.save(update_fields=["content"])
        entry.context.save(update_fields=["updated_at"])
        change_record(
            user=entry.context.owner,
            actor=actor,
            entity="context_entry",
            entity_id=entry.pk,
            action=ChangeAction.UPDATE,
            before=before,
            after={"content": content},
        )
    return entry


def context_entry_delete(*, user, context_id: int, entry_id: int, actor) -> None:
    """Delete one entry of a shared context the user may write."""
    with transaction.atomic():
        entry = _locked_entry(user, context_id, entry_id)
        change_record(
            user=entry.context.owner,
            actor=actor,
            entity="context_entry",
            entity_id=entry.pk,
            action=ChangeAction.DELETE,
            before={"content": entry.content, "agent_name": entry.agent_name},
            after={},
        )
        context = entry.context
        entry.delete()
        context.save(update_fields=["updated_at"])
