"""Hybrid search over one user's messages: the fusion of the lexical and semantic lists.

Reciprocal-rank fusion (``memory.ranking.FUSION_K``) of the lexical list (memory/search.py),
the BM25 list (memory/bm25.py), the semantic list (memory/search_semantic.py, past the same
relevance cut) and the stand-in summaries' lists; a Chinese question's lexical hits weighed by
the share of the query they hold (:func:`held_scores`); then neighbour turns and whole chats
re-ranked (memory/ranking.py), each item carrying both component scores and ranks.
memory/search.py has the overview.
"""

from __future__ import annotations

from memory import bm25, ranking
from memory.models import Kind
from memory.search import (
    EXPLICIT,
    LEXICAL_ORDER,
    Scored,
    content_tsquery,
    drop_common_words,
    lexical_query,
    lexical_queryset,
    read_lists,
    scoped,
    single_han,
    tsquery_lexemes,
    with_inside_words,
)
from memory.search_semantic import (
    exact_nearest_query,
    load_rows,
    nearest_messages,
    order_key,
    query_vector,
    relevant_pairs,
)
from memory.speakers import unnamed_query
from memory.stand_ins import (
    stand_in_query,
    summary_similarities,
    with_stand_ins,
)
from rag.embeddings import ProviderError
from rag.search import exact_by_bound, rrf
from rag.understand import language, normalise

# Each list fed to the fusion is this many times longer than top_k (at least HYBRID_POOL_MIN).
HYBRID_POOL_FACTOR = 3
HYBRID_POOL_MIN = 50


def summary_lists(
    *, user, flt: dict, tsquery: str, vector: list[float] | None, ids: list[int]
) -> tuple[list[list[int]], dict[int, float]]:
    """Return the lexical and semantic lists of the stand-in summaries, and their similarities.

    A chat has at most one stand-in summary, so they are few: both lists rank all of them (the
    lexical list those matching the query), fused with the turns' lists. ``ids``: the
    stand-in summaries (:func:`memory.stand_ins.stand_in_summaries`).
    """
    if not ids:
        return [], {}
    lists: list[list[int]] = []
    if tsquery:
        summary_flt = {**flt, "kind": Kind.SUMMARY}
        matched = lexical_queryset(user=user, flt=summary_flt, tsquery=tsquery).filter(pk__in=ids)
        lists.append(list(matched.order_by(*LEXICAL_ORDER).values_list("pk", flat=True)))
    sims: dict[int, float] = {}
    if vector is not None:
        sims = summary_similarities(ids, vector, user=user)
        passed = dict(relevant_pairs(sorted(sims.items(), key=lambda p: -p[1]), vector))
        lists.append(sorted(passed, key=lambda pk: -passed[pk]))
    return lists, sims


def weighs_coverage(query_text: str) -> bool:
    """Return whether a query's lexical hits are weighed by coverage (its language's rule)."""
    return language(normalise(query_text)[0]) in bm25.COVERAGE_LANGUAGES


def held_scores(
    fused: list, texts: dict[int, str], lexemes: list[str], stats, *, lexical: tuple[int, ...]
) -> dict[int, float]:
    """Return the reciprocal-rank fusion with each lexical list's term weighed by coverage.

    A lexical hit adds ``coverage ** COVERAGE_POWER / (k + rank)`` (memory.bm25.coverage:
    the share of the query's word weight the turn holds), the other lists ``1 / (k + rank)``.
    Plain fusion counts a turn matching one common word of a Chinese question as much as the
    dense list's best turn: on bench/memory_zh_set.json dev the lexical lists took recall@5
    from 0.886 (dense list and context alone) down to 0.867.
    """
    weights = bm25.word_weights(lexemes, stats)
    k = ranking.FUSION_K
    out = {}
    for item in fused:
        held = None
        score = 0.0
        for index, rank in enumerate(item.ranks):
            if rank is None:
                continue
            share = 1.0
            if index in lexical:
                if held is None:
                    held = bm25.coverage(texts.get(item.key, ""), weights, stats.terms)
                share = held**bm25.COVERAGE_POWER
            score += share / (k + rank)
        out[item.key] = score
    return out


def checked_dense(pairs, vector, min_score: float | None) -> tuple[list, list[int]]:
    """Return a dense list's (pairs, ids to fuse): the pairs the memory relevance cut keeps
    for ``vector`` (:func:`memory.search_semantic.relevant_pairs`) when no ``min_score`` is
    given, else the pairs as found and the ids at or above ``min_score``."""
    if min_score is None:
        pairs = relevant_pairs(pairs, vector)
        return pairs, [pk for pk, _ in pairs]
    return pairs, [pk for pk, sim in pairs if sim >= min_score]


def unnamed_list(
    *, user, flt: dict, query_text: str, stats, pool: int, min_score: float | None
) -> list[list[int]]:
    """Return the dense list of the question said without the speakers it names, as one list
    to fuse (none when it names no speaker of the user's recent turns, or that text cannot be
    embedded in time).

    The turns embed their speaker's name, so a question naming one finds that person's turns
    on any topic (:func:`memory.speakers.unnamed_query`). Fitted on LoCoMo, split dev
    (bench/memory_locomo_tune.py, 760 questions, in process; issue 30): hybrid recall@5 / @10
    0.723 / 0.805 -> 0.742 / 0.817 (single-hop 0.829 / 0.909 -> 0.848 / 0.915); the name said
    as "they" was chosen on conversations conv-26/30/41 (0.828 @10; removed 0.826, "I" 0.823;
    before 0.820) and held on conv-42/43 (0.789 -> 0.806). The question with the name replaced
    as the only dense list: 0.808-0.809 (dev, measured before its pairs passed the relevance
    check below; the test split, asked again after it, gave the same 0.787 @10). One more model
    call when a speaker is named.

    Its pairs pass the same check as the main dense list: ``min_score`` when given, otherwise
    the memory relevance cut (:func:`memory.search_semantic.relevant_pairs`) on its own vector.
    The caller asks for no list at all when that check dropped every main dense hit.
    """
    text = unnamed_query(query_text, stats.speakers)
    if text is None:
        return []
    try:
        vector = query_vector(text, None)
    except ProviderError:  # the named question's own list still answers
        return []
    nearest = nearest_messages(
        vector, pool, user=user, flt=flt, rows_at_most=stats.messages_at_most(flt)
    )
    _, ids = checked_dense(nearest, vector, min_score)
    return [ids]


def hybrid_search(
    *,
    user,
    query_text: str,
    flt: dict,
    top_k: int,
    vector: list[float] | None,
    min_score: float | None = None,
) -> list[Scored]:
    """Return the top_k of the RRF fusion of the lexical and semantic lists.

    ``min_score`` (when given) drops semantic candidates below it before fusion, otherwise the
    relevance cut does (an off-topic query fuses no semantic list); lexical matches always take
    part, since a literal match is evidence on its own. Without a
    ``vector`` (the query could not be embedded) the lexical list alone is fused.
    """
    with_summaries = with_stand_ins(flt)
    flt = scoped(flt)
    pool = max(top_k * HYBRID_POOL_FACTOR, HYBRID_POOL_MIN)
    # Both lexical lists drop the same common words (lexical_tsquery's rule), and BM25 weighs
    # the words left by counts over the same sample of turns: read every count in one scan.
    # The words are the query's content words: without stopwords, the words that ask about a
    # memory and the time phrase (content_tsquery), which otherwise match turns about anything.
    tsquery = content_tsquery(query_text)
    stats, chars = None, []
    if tsquery and not EXPLICIT.search(query_text):
        if vector is not None:
            stats = bm25.term_stats(user=user, lexemes=tsquery_lexemes(tsquery))
        tsquery = drop_common_words(tsquery, user=user, stats=stats)
        chars = single_han(tsquery)
    # The sample of term_stats counted the user's turns: their count bounds the rows the
    # nearest-neighbour search reads; when few, it is the exact search, read with the lists,
    # and the lexical lists test those turns (just read) rather than the full-text index.
    at_most = None if stats is None else stats.messages_at_most(flt)
    exact_nearest = vector is not None and exact_by_bound(at_most)
    # The lexical list, the BM25 list, the stand-in summaries (and the nearest neighbours) in
    # one round trip.
    bm25_asked = vector is not None and not EXPLICIT.search(query_text)
    read = read_lists(
        {
            "lexical": (
                lexical_query(
                    user=user, flt=flt, tsquery=tsquery, limit=pool, few_rows=at_most is not None
                )
                if tsquery
                else None
            ),
            "bm25": (
                bm25.bm25_query(
                    user=user, lexemes=tsquery_lexemes(tsquery), flt=flt, limit=pool, stats=stats
                )
                if bm25_asked
                else None
            ),
            "stand_ins": stand_in_query(user=user, flt=flt) if with_summaries else None,
            "nearest": (
                exact_nearest_query(vector, pool, user=user, flt=flt) if exact_nearest else None
            ),
        }
    )
    lexical = with_inside_words(
        [(pk, rank, text) for pk, rank, _, text, *_ in read["lexical"]],
        user=user,
        flt=flt,
        chars=chars,
        limit=pool,
    )
    if exact_nearest:
        # rank is minus the distance; the similarity as vector_search computes it.
        nearest = [(pk, 1.0 - (-rank)) for pk, rank, *_ in read["nearest"]]
    else:
        nearest = [] if vector is None else nearest_messages(vector, pool, user=user, flt=flt)
    pairs, semantic_ids = ([], []) if vector is None else checked_dense(nearest, vector, min_score)
    # The check found the question off-topic: no dense list of it is fused, unnamed or not.
    off_topic = bool(nearest) and not semantic_ids
    sims = {pk: float(sim) for pk, sim in pairs}
    lexical_ids = [pk for pk, *_ in lexical]
    texts = {pk: text for pk, _, text in lexical}
    lists = [lexical_ids, semantic_ids]
    if vector is not None:  # a degraded answer stays the lexical list alone
        bm25_hits = [(pk, text) for pk, _, _, text, *_ in read["bm25"]]
        texts.update(bm25_hits)
        lists.append([pk for pk, _ in bm25_hits])
    if with_summaries:
        found, summary_sims = summary_lists(
            user=user,
            flt=flt,
            tsquery=tsquery,
            vector=vector,
            ids=[pk for pk, *_ in read["stand_ins"]],
        )
        lists += found
        sims.update(summary_sims)
    if stats is not None and not off_topic:
        lists += unnamed_list(
            user=user, flt=flt, query_text=query_text, stats=stats, pool=pool, min_score=min_score
        )
    fused = rrf(lists, k=ranking.FUSION_K)
    ranks = {f.key: f.ranks for f in fused}
    scores = {f.key: f.score for f in fused}
    if stats is not None and weighs_coverage(query_text):
        # Each lexical hit weighed by the share of the query it holds (Chinese questions).
        scores = held_scores(fused, texts, tsquery_lexemes(tsquery), stats, lexical=(0, 2))
    if vector is not None:  # a degraded answer stays the lexical list alone
        top = ranking.rerank_top(scores, flt, top_k, user=user, query_text=query_text)
    else:
        top = [(pk, scores[pk]) for pk in sorted(scores, key=lambda pk: -scores[pk])[:top_k]]
    best = [pk for pk, _ in top]
    scores = dict(top)
    rows = load_rows(best, vector, user=user)
    if vector is not None:  # lexical-only hits (and neighbours) get their similarity too
        sims.update(
            (pk, float(r.similarity))
            for pk, r in rows.items()
            if pk not in sims and r.similarity is not None
        )
    lexical_scores = {pk: float(rank) for pk, rank, _ in lexical}
    items = []
    for pk in best:
        if pk not in rows:
            continue
        lexical_rank, semantic_rank = ranks.get(pk, (None, None))[:2]
        items.append(
            Scored(
                row=rows[pk],
                score=scores[pk],
                extra={
                    "hybrid_score": scores[pk],
                    "lexical_score": lexical_scores.get(pk, 0.0),
                    "lexical_rank": lexical_rank,
                    "semantic_score": sims.get(pk),
                    "semantic_rank": semantic_rank,
                },
            )
        )
    items.sort(key=order_key)
    return items
