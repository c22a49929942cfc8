"""Summaries of long chats: the LLM when configured, an extractive summary offline.

The offline summariser splits the messages into sentences, embeds them, and picks central,
non-redundant sentences by maximal marginal relevance against the centroid, within the live
``summary_max_chars``. Sentences quoting a legal reference (``《民法典》第1165条``) are kept
first and verbatim; the LLM's answer is checked for the same references and replaced by the
offline summary when it drops one or runs over the limit.
"""

from __future__ import annotations

import logging
import re

import numpy as np
from django.db import connection, transaction

from config.queues import BULK
from memory.cursors import new_message_id
from memory.enqueue import enqueue_embed
from memory.models import ChatMessage, EmbedState, Kind, Role
from memory.selectors import memory_settings_get
from rag.chunking import split_sentences
from rag.embeddings import content_hash, current_model, embed_texts
from rag.llm import get_llm
from rag.text import segment_for_index

logger = logging.getLogger(__name__)

LEGAL_REF_RE = re.compile(
    r"《[^《》\n]{1,60}》(?:第[0-9０-９一二三四五六七八九十百千零〇两]+条(?:第[0-9一二三四五六七八九十]+款)?)?"
)
MIN_SENTENCE_CHARS = 4
# One provider call per summary: longer chats are sampled evenly (reference sentences kept).
MAX_SENTENCES = 64
MMR_LAMBDA = 0.7
LLM_SYSTEM = (
    "你是对话摘要助手。用简洁的中文（对话为英文时用英文）写出对话的关键事实和结论，"
    "不超过{max_chars}个字符。引用的法律条文（如《民法典》第1165条）必须原样保留。只输出摘要。"
)


def legal_refs(text: str) -> list[str]:
    """Return the quoted legal references in a text, in order, without repeats."""
    return list(dict.fromkeys(match.group(0) for match in LEGAL_REF_RE.finditer(text)))


def _sentences(texts: list[str]) -> list[str]:
    out = []
    for text in texts:
        for span in split_sentences(text):
            sentence = text[span.start : span.end].strip()
            if len(sentence) >= MIN_SENTENCE_CHARS and sentence not in out:
                out.append(sentence)
    return out


def _join(sentences: list[str]) -> str:
    """Join sentences: nothing between CJK sentences, a space after Latin ones."""
    out = ""
    for s in sentences:
        if out and out[-1].isascii() and out[-1] not in " \n":
            out += " "
        out += s
    return out


def _mmr_order(vectors: np.ndarray, first: list[int]) -> list[int]:
    """Return indices by maximal marginal relevance to the centroid, after ``first``."""
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    centroid = vectors.mean(axis=0)
    centroid /= max(float(np.linalg.norm(centroid)), 1e-12)
    relevance = vectors @ centroid
    chosen = list(first)
    candidates = [i for i in range(len(vectors)) if i not in chosen]
    while candidates:
        picked = chosen[len(first) :] + first
        redundancy = (vectors[candidates] @ vectors[picked].T).max(axis=1) if picked else 0.0
        scores = MMR_LAMBDA * relevance[candidates] - (1 - MMR_LAMBDA) * redundancy
        best = candidates[int(np.argmax(scores))]
        candidates.remove(best)
        chosen.append(best)
    return chosen[len(first) :]


def extractive_summary(texts: list[str], *, max_chars: int, vectors: list | None = None) -> str:
    """Return central, non-redundant sentences of ``texts`` in order, at most ``max_chars``.

    ``vectors`` (one per text, e.g. the messages' stored embeddings) rank the texts by MMR
    against their centroid without another provider call; without them the sentences are
    embedded (one call) and ranked themselves. Sentences quoting a legal reference come first.
    """
    if vectors is not None and len(vectors) == len(texts):
        units = [_sentences([t]) for t in texts]
        unit_vectors = np.asarray(vectors, dtype=np.float32)
    else:
        sentences = _sentences(texts)
        if len(sentences) > MAX_SENTENCES:
            step = len(sentences) / MAX_SENTENCES
            keep = {int(i * step) for i in range(MAX_SENTENCES)}
            sentences = [s for i, s in enumerate(sentences) if i in keep or legal_refs(s)]
        units = [[s] for s in sentences]
        if not units:
            return ""
        # Not cached: sentences are cut from the user's messages and are not stored anywhere,
        # so user_erase could not find their cache rows by hash (docs/memory.md, deletion).
        vectors_now = embed_texts(sentences, role="passage", use_cache=False)
        unit_vectors = np.asarray(vectors_now, dtype=np.float32)
    # Flatten to (unit, sentence) in text order; legal references first, verbatim.
    flat = [(u, s) for u, group in enumerate(units) for s in group]
    chosen: list[tuple[int, str]] = []
    used = 0
    for u, s in flat:
        if legal_refs(s) and used + len(s) + 1 <= max_chars:
            chosen.append((u, s))
            used += len(s) + 1
    kept = _join([s for _, s in chosen])
    missing = [r for _, s in flat for r in legal_refs(s) if r not in kept]
    if missing:
        tail = "；".join(dict.fromkeys(missing))  # a reference sentence too long to fit whole
        if used + len(tail) <= max_chars:
            chosen.append((len(units), tail))
            used += len(tail) + 1
    first_units = sorted({u for u, _ in chosen if u < len(units)})
    for u in _mmr_order(unit_vectors, first_units):
        # The leading sentences of a chosen text carry its point; later ones only if room.
        for s in units[u][:2]:
            if (u, s) not in chosen and used + len(s) + 1 <= max_chars:
                chosen.append((u, s))
                used += len(s) + 1
    order = {pair: i for i, pair in enumerate(flat)}
    chosen.sort(key=lambda pair: order.get(pair, len(order)))
    return _join([s for _, s in chosen])[:max_chars]


def llm_summary(texts: list[str], *, max_chars: int) -> str | None:
    """Return the LLM's summary, or None when no LLM is configured or it fails the checks."""
    llm = get_llm()
    if not getattr(llm, "enabled", False):
        return None
    transcript = "\n".join(texts)
    try:
        answer = llm.complete(transcript, system=LLM_SYSTEM.format(max_chars=max_chars)).strip()
    except Exception as exc:  # noqa: BLE001 - the offline summary stands in
        logger.warning("LLM summary failed, using the extractive one: %s", exc)
        return None
    if not answer or len(answer) > max_chars:
        return None
    if any(ref not in answer for ref in legal_refs(transcript)):
        return None
    return answer


def summarise_texts(texts: list[str], *, max_chars: int, vectors: list | None = None) -> str:
    """Return a summary of ``texts``: the LLM's when available and valid, else extractive."""
    return llm_summary(texts, max_chars=max_chars) or extractive_summary(
        texts, max_chars=max_chars, vectors=vectors
    )


def _row_vectors(rows) -> list | None:
    """Return the rows' stored vectors, embedding (and storing) those still missing.

    Normally the embedding tasks ran first; a row still pending is embedded here in one call
    and its vector saved, so the embedding task finds it current and skips it.
    """
    missing = [r for r in rows if r.embedding is None]
    if missing:
        try:
            # Cached like the embedding task's vectors (user_erase deletes them by hash).
            fresh = embed_texts([r.embedding_text() for r in missing], role="passage")
        except Exception:  # noqa: BLE001 - fall back to sentence embeddings
            return None
        model = current_model()
        for row, vec in zip(missing, fresh, strict=True):
            row.embedding, row.embedding_model = vec, model
            row.embedding_hash = content_hash(row.embedding_text())
            row.embed_state, row.embed_error = EmbedState.READY, ""
        ChatMessage.objects.bulk_update(
            missing,
            ["embedding", "embedding_model", "embedding_hash", "embed_state", "embed_error"],
        )
    return [list(r.embedding) for r in rows]


def write_summary(*, user_pk: int, chat_id: str, force: bool = False) -> str:
    """Summarise a chat if more than the threshold of its messages are unsummarised.

    ``force`` summarises any unsummarised message, whatever their number (retention does so
    before it deletes). Runs in one transaction under an advisory lock per (user, chat), so
    two runs never summarise the same messages twice. The new summary row folds in the
    previous summary and covers up to the later of its last message and that summary, so the
    newest summary (by ``ts``) always covers every summarised message of the chat.
    """
    settings_row = memory_settings_get()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                [f"memory.summary:{user_pk}:{chat_id}"],
            )
        pending = list(
            ChatMessage.objects.filter(
                user_id=user_pk, chat_id=chat_id, kind=Kind.MESSAGE, summarised=False
            ).order_by("ts", "message_id")
        )
        if not pending or (not force and len(pending) <= settings_row.summary_trigger_messages):
            return "not due"
        previous = (
            ChatMessage.objects.filter(user_id=user_pk, chat_id=chat_id, kind=Kind.SUMMARY)
            .order_by("-ts", "-message_id")
            .first()
        )
        rows = ([previous] if previous else []) + pending
        texts = [m.content for m in rows]
        vectors = _row_vectors(rows)
        text = summarise_texts(texts, max_chars=settings_row.summary_max_chars, vectors=vectors)
        if not text and force:
            # Only very short turns ("ok"): the extractive summary skips them; keep them as said.
            text = _join([t.strip() for t in texts if t.strip()])[: settings_row.summary_max_chars]
        if not text:
            return "empty"
        # A late message (older ts than the previous summary) must not make this summary look
        # older than the one it folds in: the newest summary is the one the context shows.
        until = pending[-1].ts
        if previous is not None:
            until = max(until, previous.covers_until_ts or previous.ts)
        summary = ChatMessage.objects.create(
            user_id=user_pk,
            message_id="s_" + new_message_id()[2:],
            chat_id=chat_id,
            ts=until,
            role=Role.SYSTEM,
            kind=Kind.SUMMARY,
            content=text,
            search_text=segment_for_index(text),
            summarised=True,
            covers_until_ts=until,
            covered_count=len(pending) + (previous.covered_count if previous else 0),
        )
        ChatMessage.objects.filter(pk__in=[m.pk for m in pending]).update(summarised=True)
        enqueue_embed([summary.pk], queue=BULK)
    return f"summarised {len(pending)}"
