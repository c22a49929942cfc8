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

from rag import live

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
    seen: list[str] = []
    for match in LEGAL_REF_RE.finditer(text):
        if match.group(0) not in seen:
            seen.append(match.group(0))
    return seen


def _sentences(texts: list[str]) -> list[str]:
    from rag.chunking import split_sentences

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


def extractive_summary(texts: list[str], *, max_chars: int) -> str:
    """Return central, non-redundant sentences of ``texts`` in order, at most ``max_chars``."""
    from rag.embeddings import embed_texts

    sentences = _sentences(texts)
    if not sentences:
        return ""
    if len(sentences) > MAX_SENTENCES:
        step = len(sentences) / MAX_SENTENCES
        sampled = {int(i * step) for i in range(MAX_SENTENCES)}
        sentences = [s for i, s in enumerate(sentences) if i in sampled or legal_refs(s)]
    chosen: list[int] = []
    used = 0

    def fits(i: int) -> bool:
        return used + len(sentences[i]) + 1 <= max_chars

    # Sentences with a legal reference first: they are never paraphrased or dropped.
    for i, s in enumerate(sentences):
        if legal_refs(s) and fits(i):
            chosen.append(i)
            used += len(s) + 1
    refs_missing = [r for s in sentences for r in legal_refs(s) if r not in _join(
        [sentences[i] for i in chosen]
    )]
    if refs_missing:
        # A reference sentence too long to fit: keep the bare references.
        tail = "；".join(dict.fromkeys(refs_missing))
        if used + len(tail) <= max_chars:
            sentences.append(tail)
            chosen.append(len(sentences) - 1)
            used += len(tail) + 1
    vectors = np.asarray(embed_texts(sentences, role="passage"), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    centroid = vectors.mean(axis=0)
    centroid /= max(float(np.linalg.norm(centroid)), 1e-12)
    relevance = vectors @ centroid
    candidates = [i for i in range(len(sentences)) if i not in chosen]
    while candidates:
        best, best_score = None, -1e9
        for i in candidates:
            redundancy = max((float(vectors[i] @ vectors[j]) for j in chosen), default=0.0)
            score = MMR_LAMBDA * float(relevance[i]) - (1 - MMR_LAMBDA) * redundancy
            if score > best_score:
                best, best_score = i, score
        candidates.remove(best)
        if fits(best):
            chosen.append(best)
            used += len(sentences[best]) + 1
    summary = _join([sentences[i] for i in sorted(chosen)])
    return summary[:max_chars]


def llm_summary(texts: list[str], *, max_chars: int) -> str | None:
    """Return the LLM's summary, or None when no LLM is configured or it fails the checks."""
    from rag.llm import get_llm

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


def summarise_texts(texts: list[str], *, max_chars: int) -> str:
    """Return a summary of ``texts``: the LLM's when available and valid, else extractive."""
    return llm_summary(texts, max_chars=max_chars) or extractive_summary(texts, max_chars=max_chars)


def write_summary(*, user_pk: int, chat_id: str) -> str:
    """Summarise a chat if more than the threshold of its messages are unsummarised.

    Runs in one transaction under an advisory lock per (user, chat), so two runs never
    summarise the same messages twice. The new summary row folds in the previous summary.
    """
    from memory.cursors import new_message_id
    from memory.models import ChatMessage, Kind, Role
    from memory.tasks import enqueue_embed
    from rag.text import segment_for_index

    settings_row = live.get_settings()
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
        if len(pending) <= settings_row.summary_trigger_messages:
            return "not due"
        previous = (
            ChatMessage.objects.filter(user_id=user_pk, chat_id=chat_id, kind=Kind.SUMMARY)
            .order_by("-ts", "-message_id")
            .first()
        )
        texts = ([previous.content] if previous else []) + [m.content for m in pending]
        text = summarise_texts(texts, max_chars=settings_row.summary_max_chars)
        if not text:
            return "empty"
        last = pending[-1]
        summary = ChatMessage.objects.create(
            user_id=user_pk,
            message_id="s_" + new_message_id()[2:],
            chat_id=chat_id,
            ts=last.ts,
            role=Role.SYSTEM,
            kind=Kind.SUMMARY,
            content=text,
            search_text=segment_for_index(text),
            summarised=True,
            covers_until_ts=last.ts,
            covered_count=len(pending) + (previous.covered_count if previous else 0),
        )
        ChatMessage.objects.filter(pk__in=[m.pk for m in pending]).update(summarised=True)
        enqueue_embed([summary.pk])
    return f"summarised {len(pending)}"
