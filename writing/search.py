"""Small-to-big search: find child chunks, return their parents' text around the match.

Each StoryBlock appears once: when a long block was split into several parents, only its
best-scoring parent is returned (:func:`once_per_block`).

Score (when the live setting ``parent_size_normalization`` is on)::

    score = raw * sqrt(1 / ratio) + LEXICAL_WEIGHT * lexical,   ratio = parent.size / median_size

``raw`` is the cosine similarity of the best child of the parent, ``median_size`` the
median size of all parents in the searched scope (the book, the chapters, or all the
user's books). Without normalisation, ``score = raw + LEXICAL_WEIGHT * lexical``.

``lexical`` (0 to 1) is the share of the query's word weight that the parent's children hold
(:func:`_lexical`): each query word (jieba, stopwords dropped) weighs its inverse document
frequency over the children in scope, so the parent holding the question's rare words (a name,
a title) gains up to ``LEXICAL_WEIGHT`` (0.1; e5's similarities of one query differ by a few
hundredths, so the words break near-ties without overriding the meaning). Only parents the
dense search found are re-ranked. Measured on CMRC 2018 dev (docs/BENCHMARKS.md, "Writing:
search ranking"): this weighting beat the earlier bonus (``ts_rank_cd`` of the best child over
the query's best, weight 0.03), and held over weights 0.08-0.12; reciprocal rank fusion with
the full-text list scored lower than dense alone.

Degraded: when the query cannot be embedded within ``SEARCH_TIME_BUDGET_SECONDS`` (the provider
is down or slow), the children are found by full text instead (``ts_rank_cd`` over their
jieba-segmented ``search_text``; bare words joined by OR, stopwords dropped), ``raw`` is that
rank, and the answer says ``degraded: true`` with a ``degraded_reason``.
"""

from __future__ import annotations

import logging
import math
import statistics
from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery
from django.utils.translation import gettext

from config.errors import InvalidArgument, NotFound
from config.permissions import acts_for_any_user
from config.replicas import read_snapshot
from rag.embeddings import ProviderError, degraded_reason, embed_query
from rag.search import TS_CONFIG, fulltext_search, search_vector, vector_search
from rag.text import STOPWORDS, quote_lexeme, segment_query
from writing.models import Chapter, ChildChunk, ParentChunk, ParentSegment
from writing.selectors import book_get, writing_settings_get

logger = logging.getLogger(__name__)

MAX_TOP_K = 50
# Chosen on about 900 CMRC 2018 dev questions (a partial index; hit@1 held over 0.08-0.12 on
# both halves of them): docs/writing.md, "Word-weight bonus".
LEXICAL_WEIGHT = 0.1
# Each query word costs one indexed COUNT: a long query weighs its first words only.
MAX_LEXICAL_WORDS = 32
ORDERS = ("relevance", "story")


@dataclass
class ParentResult:
    parent: ParentChunk
    raw_score: float
    score: float = 0.0
    lexical: float = 0.0
    children: list[dict] = field(default_factory=list)
    text_start: int = 0
    text_end: int = 0
    blocks: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "parent_id": self.parent.pk,
            "chapter_id": self.parent.chapter_id,
            "blocks": self.blocks,
            "text": self.parent.text[self.text_start : self.text_end],
            "text_start": self.text_start,
            "text_end": self.text_end,
            "children": self.children,
            "raw_score": round(self.raw_score, 6),
            "lexical": round(self.lexical, 6),
            "score": round(self.score, 6),
        }


def normalised_score(raw: float, size: int, median_size: float) -> float:
    """Return ``raw * sqrt(1 / (size / median_size))``: longer parents are damped."""
    if size <= 0 or median_size <= 0:
        return raw
    return raw * math.sqrt(median_size / size)


def context_window(size: int, start: int, end: int, limit: int) -> tuple[int, int]:
    """Return at most ``limit`` characters of a parent, centred on the child ``[start, end)``.

    The window is clamped to the parent; a child longer than the limit is cut at its start.
    """
    if size <= limit:
        return 0, size
    centre = (start + end) / 2
    lo = int(round(centre - limit / 2))
    lo = max(0, min(lo, size - limit))
    if end - start <= limit:
        lo = min(max(lo, end - limit), start)  # the whole child stays inside
    else:
        lo = start
    return lo, lo + limit


def once_per_block(ranked: list[ParentResult], segments: dict[int, list[int]]):
    """Keep each StoryBlock once: drop a parent that shares a block with a better one.

    A block above the parent size limit is split into several parents (seed 001); the best
    of them (its window around the best child) stands for the block.
    """
    seen: set[int] = set()
    kept = []
    for result in ranked:
        blocks = segments.get(result.parent.pk, [])
        if seen.intersection(blocks):
            continue
        seen.update(blocks)
        kept.append(result)
    return kept


def _lexical(children_qs, query: str, parent_ids: list[int]) -> dict[int, float]:
    """Return ``{parent_id: share of the query's word weight found in the parent's children}``.

    Words: the query in jieba precise mode without stopwords; a word weighs its inverse
    document frequency over the children in scope, ``log(1 + n / df)`` (``df`` counted through
    the full-text index; a word no child holds weighs ``log(1 + n)``; the first
    ``MAX_LEXICAL_WORDS`` words only). A parent scores the
    weight of the words its children hold (their jieba ``search_text``) over the weight of all
    the words, 0 to 1: a rare name of the question counts far more than a common word.
    """
    terms = [t for t in dict.fromkeys(segment_query(query)) if t not in STOPWORDS]
    terms = terms[:MAX_LEXICAL_WORDS]
    if not terms or not parent_ids:
        return {}
    n = children_qs.count()
    if not n:
        return {}
    vector = search_vector("search_text")
    weights = {}
    for term in terms:
        matches = SearchQuery(quote_lexeme(term), search_type="raw", config=TS_CONFIG)
        df = children_qs.alias(_vector=vector).filter(_vector=matches).count()
        weights[term] = math.log(1 + n / max(df, 1))
    total = sum(weights.values())
    words: dict[int, set[str]] = {}
    for parent_id, text in ChildChunk.objects.filter(parent_id__in=parent_ids).values_list(
        "parent_id", "search_text"
    ):
        words.setdefault(parent_id, set()).update(text.split())
    return {
        parent_id: sum(w for t, w in weights.items() if t in found) / total
        for parent_id, found in words.items()
    }


def _scope(user, book, chapters):
    children = ChildChunk.objects.all()
    parents = ParentChunk.objects.all()
    if not acts_for_any_user(user):
        children = children.filter(book__owner=user)
        parents = parents.filter(chapter__book__owner=user)
    if book is not None:
        book_obj = book_get(user=user, book_id=book)
        children = children.filter(book=book_obj)
        parents = parents.filter(chapter__book=book_obj)
    if chapters:
        if not isinstance(chapters, list) or not all(isinstance(c, int) for c in chapters):
            raise InvalidArgument(gettext("chapters must be a list of ids."))
        visible = Chapter.objects.filter(pk__in=chapters)
        if not acts_for_any_user(user):
            visible = visible.filter(book__owner=user)
        if book is not None:
            visible = visible.filter(book_id=book)
        found = set(visible.values_list("pk", flat=True))
        missing = [c for c in chapters if c not in found]
        if missing:
            raise NotFound(gettext("No such chapter."), details={"chapters": missing})
        children = children.filter(chapter_id__in=found)
        parents = parents.filter(chapter_id__in=found)
    return children, parents


def writing_search(
    *, user, query: str, book=None, chapters=None, top_k: int = 10, order: str = "relevance"
) -> dict:
    """Search child chunks, return each parent once with a window around its best child."""
    query = (query or "").strip()
    if not query:
        raise InvalidArgument(gettext("query must not be empty."))
    if not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
        raise InvalidArgument(gettext("top_k must be between 1 and %(max)d.") % {"max": MAX_TOP_K})
    if order not in ORDERS:
        raise InvalidArgument(
            gettext("order must be one of %(choices)s.") % {"choices": ", ".join(ORDERS)}
        )
    settings_row = writing_settings_get()
    reason = None
    try:
        # Within the time budget; kept out of the caches: a query is stored nowhere, so
        # erasure could not find it by hash (docs/ARCHITECTURE.md, "Erasure").
        vector = embed_query(query, use_cache=False)
    except ProviderError as exc:
        logger.warning("query embedding failed, searching full text: %s", exc)
        vector, reason = None, degraded_reason(exc)
    # Children and their parents are read by separate statements: under READ COMMITTED a
    # chunking run committing in between would replace the parents and drop the hits.
    with read_snapshot():
        body = _search(user, vector, book, chapters, top_k, order, settings_row, query=query)
    body.update(degraded=reason is not None, degraded_reason=reason)
    return body


def _search(
    user, vector, book, chapters, top_k: int, order: str, settings_row, *, query: str = ""
) -> dict:
    children_qs, parents_qs = _scope(user, book, chapters)
    if vector is None:  # degraded: no embedding, find the children by their words
        hits, report = fulltext_search(
            children_qs, query, k=top_k * 3, default_operator="or", drop_stopwords=True
        )
    else:
        # The filter is part of the queryset: vector_search applies it before the NN scan.
        hits, report = vector_search(children_qs, vector, k=top_k * 3)
    grouped: dict[int, ParentResult] = {}
    for hit in hits:
        child = hit.obj
        result = grouped.get(child.parent_id)
        if result is None:
            result = grouped[child.parent_id] = ParentResult(parent=None, raw_score=hit.score)
        result.children.append(
            {"id": child.pk, "start": child.start, "end": child.end, "score": round(hit.score, 6)}
        )
    if not grouped:
        return {"results": [], "median_parent_size": None, "path": report.path}
    lexical = _lexical(children_qs, query, list(grouped)) if vector is not None else {}
    parents = ParentChunk.objects.select_related("chapter", "first_block").in_bulk(list(grouped))
    sizes = list(parents_qs.values_list("size", flat=True))
    median_size = float(statistics.median(sizes)) if sizes else 0.0
    normalise = settings_row.parent_size_normalization
    for parent_id, result in list(grouped.items()):
        parent = parents.get(parent_id)
        if parent is None:  # only inside a caller's READ COMMITTED transaction
            del grouped[parent_id]
            continue
        result.parent = parent
        result.lexical = lexical.get(parent_id, 0.0)
        result.score = (
            normalised_score(result.raw_score, parent.size, median_size)
            if normalise
            else result.raw_score
        ) + LEXICAL_WEIGHT * result.lexical
    segments: dict[int, list[int]] = {}
    for parent_id, block_id in (
        ParentSegment.objects.filter(parent_id__in=list(grouped))
        .order_by("parent_id", "position")
        .values_list("parent_id", "block_id")
    ):
        segments.setdefault(parent_id, []).append(block_id)
    ranked = once_per_block(sorted(grouped.values(), key=lambda r: -r.score), segments)[:top_k]
    limit = settings_row.context_window_chars
    for result in ranked:
        best = result.children[0]  # hits arrive best first
        result.text_start, result.text_end = context_window(
            result.parent.size, best["start"], best["end"], limit
        )
        result.blocks = segments.get(result.parent.pk, [])
    if order == "story":
        ranked.sort(
            key=lambda r: (
                r.parent.chapter.sequence,
                r.parent.chapter_id,
                r.parent.first_block.order,
                r.parent.first_block_start,
            )
        )
    return {
        "results": [r.as_dict() for r in ranked],
        "median_parent_size": median_size,
        "normalised": normalise,
        "path": report.path,
    }
