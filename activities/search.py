"""THE activity search: ``activities_search`` serves ``POST /rag/search`` and the agent's tool.

Pipeline (docs/activities.md has the diagram):

1. Hard filter: active, starting in the future, not full, within the radius, inside the time
   range, of the type.
2. At most ``SMALL_RESULT`` rows pass: return them, those the query names first
   (:func:`evidence_order`), without calling the embedding provider; unless the query's own
   time phrase left them, when the query is embedded, the relevance gate judges it against
   every joinable row (:func:`fits_nothing`), an off-topic query answers nothing, and the few
   rows are ordered by meaning (:func:`meaning_order`).
3. No ``semantic_query``: order by distance (by start time without a location).
4. Otherwise embed the query (with what it refuses, partly taken out of its vector:
   :func:`activities.negation.away_from_refused`), rank by cosine similarity among the filtered
   rows, apply the relevance cut (:func:`relevant_hits`), with the live ``activities_hybrid``
   (default on) order by a fitted score of the dense similarity, the query's words and cues
   in each row (:func:`hybrid_scores`), re-rank with the personal boost (``score = order *
   (1 + boost)``, the order being the similarity or the fused score, boost <=
   ``personal_boost_max``, or negative for a listing naming what the user cannot eat or drink:
   ``activities.avoided``), keep ``limit`` and drop the hits after the first that the learned
   precision gate finds unlikely (:func:`activities.search_ranker.likely_hits`).
5. Embedding provider down, or no query embedding within ``SEARCH_TIME_BUDGET_SECONDS``: the
   hard-filter order with ``degraded: true`` and ``degradedReason``; never an error.
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext

from activities.negation import asked_part, away_from_refused, refused_phrases
from activities.personalize import Personalizer
from activities.reasons import ReasonContext, one_search
from activities.search_filters import parse_filters, query_filtered, with_words
from activities.search_kind import read_meta_like
from activities.search_ranker import likely_hits
from activities.search_ranking import (
    candidate_cues,
    evidence_order,
    hybrid_scores,
    lexical_held,
    meaning_order,
    naming_pks,
)
from activities.search_relevance import (
    SMALL_RESULT,
    SURFACE,
    answer_question,
    keeps_window,
    relevant_hits,
)
from activities.search_results import add_reasons, provenance, result_of, shown_value
from activities.search_window import (
    mark_outside,
    widen_time,
    window_fits_nothing,
    window_only_few,
)
from activities.selectors import activity_settings_get
from activities.understanding import (
    EMBED_REST,
    RANK,
    QueryUnderstanding,
    order_by_closeness,
    rank_by_time,
)
from config.errors import InvalidArgument
from rag import pool_stats, relevance
from rag.cardinality import count_and_plan, plan_vector_path
from rag.embeddings import (
    ProviderError,
    current_model,
    degraded_reason,
    embed_query,
    embed_texts,
    search_budget,
)
from rag.preferences import ratings
from rag.search import vector_search
from rag.selectors import rag_settings_get

logger = logging.getLogger(__name__)

DEFAULT_LIMIT = 20
MAX_LIMIT = 50
# With personalisation or the hybrid, the vector search reads limit x this many rows to re-rank.
# A filtered HNSW scan's work grows with it (100k activities, 5 km radius: 8 / 12 / 15 ms for
# 20 / 40 / 60 rows, 10 / 15 / 30 ms where 5% pass); 2 instead of 3 left the relevance of the
# labelled queries unchanged (nDCG@5 0.941 vs 0.936, docs/BENCHMARKS.md).
RERANK_POOL = 2
# Ranking by closeness to a time window re-orders a larger pool: the window, not the query,
# decides which rows come first (3 x limit: nDCG@5 0.919 on the understanding queries, 0.916
# with 2 x limit).
TIME_RANK_POOL = 3


def _number(value, name: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidArgument(
            gettext("%(field)s must be a number.") % {"field": name}, details={"field": name}
        )
    if number != number or number in (float("inf"), float("-inf")):
        raise InvalidArgument(
            gettext("%(field)s must be a finite number.") % {"field": name}, details={"field": name}
        )
    return number


def _plain_order(qs, parsed, understood: QueryUnderstanding | None = None):
    if understood is not None and understood.time.applied == RANK:
        return order_by_closeness(qs, understood.time)
    if parsed["location"]:
        return qs.order_by("distance_km", "start_at", "pk")
    return qs.order_by("start_at", "pk")


def activities_search(
    *,
    user=None,
    semantic_query: str | None = None,
    filters: dict | None = None,
    limit: int | None = None,
    time_zone: str | None = None,
    now: datetime | None = None,
) -> dict:
    """Search joinable activities; return ``{"results": [...], "meta": {...}}`` (plain data).

    Each result has id, title, type, startAt, locationName, distanceKm, similarity, boost, score
    and matchReason. ``meta`` has path, candidates and degraded, plus floor, model and the
    vector search path for staff tools.
    """
    with one_search():  # the query's words segmented once, not by each step that reads them
        return _search(
            user=user,
            semantic_query=semantic_query,
            filters=filters,
            limit=limit,
            time_zone=time_zone,
            now=now,
        )


def _search(*, user, semantic_query, filters, limit, time_zone, now) -> dict:
    limit = DEFAULT_LIMIT if limit in (None, "") else int(_number(limit, "limit"))
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidArgument(
            gettext("limit must be between 1 and %(max)d.") % {"max": MAX_LIMIT},
            details={"field": "limit"},
        )
    query = with_words((semantic_query or "").strip()[:500])
    parsed = parse_filters(filters)
    now = now or timezone.now()
    # Query understanding (activities/understanding.py): time narrows or ranks, "附近" is a
    # radius with a location; the embedded text is the query without them (EMBED_REST).
    # Read once: the dislikes are hidden here, the likes feed the personal boost (_ranked).
    rated = ratings(user, "activity")
    understood, qs, unnarrowed = query_filtered(
        query, parsed, time_zone=time_zone, now=now, hidden=disliked_activities(user, rated)
    )
    semantic = understood.rest if EMBED_REST else query
    row, activity_row = rag_settings_get(), activity_settings_get()
    # Counting stops at SMALL_RESULT + 1: all the small path needs. Past it, the rows behind
    # the filter are estimated (rag/cardinality.py): counting them costs more than the search.
    # A time phrase's plan counted the rows it leaves already (plan_time, same cap).
    candidates = understood.time.rows
    plan = None
    if candidates is None:
        candidates, plan = count_and_plan(
            qs, small=SMALL_RESULT, exact_max_rows=row.exact_search_max_rows, k=limit
        )
    elif candidates > SMALL_RESULT:
        plan = plan_vector_path(qs, exact_max_rows=row.exact_search_max_rows, k=limit)
    if plan is not None:
        candidates = max(plan.rows, SMALL_RESULT + 1)  # counted past SMALL_RESULT already
    meta = {
        "path": "",
        "candidates": candidates,
        "candidatesEstimated": bool(plan and plan.estimated),
        "degraded": False,
        "degradedReason": None,
        "floor": None,
        "model": None,
        "vectorPath": None,
        "personalised": None,
        "understood": understood.as_meta(),
        "relevance": None,
        "reason": None,
        "hybrid": False,
    }
    results: list[dict] = []
    if plan is None:
        meta["path"] = "hard_filter_small"
        vector = None
        if answer_question(query, understood):
            # Nothing is compared on this path, but a question is off-topic whatever passes.
            meta["reason"] = relevance.QUESTION_REASON
            rows = []
        else:
            if window_only_few(understood, semantic):
                vector = small_path_vector(semantic)
            if vector is not None and fits_nothing(
                unnarrowed, vector, understood=understood, meta=meta, row=row, query=semantic
            ):
                rows = []
            else:
                rows = list(_plain_order(qs, parsed, understood)[:limit])
        # The query's vector is there only when its time phrase left these rows: then it also
        # orders them (a window of a part of the day often leaves three unrelated rows).
        if vector is None:
            rows = evidence_order(rows, semantic, understood)
        else:
            rows = meaning_order(rows, vector)
        results = [result_of(a) for a in rows]
    elif not semantic:
        meta["path"] = "hard_filter_sorted"
        results = [result_of(a) for a in _plain_order(qs, parsed, understood)[:limit]]
    else:
        reason = None
        try:
            # Within SEARCH_TIME_BUDGET_SECONDS; skipped at once while the breaker is open.
            # Kept out of the caches: a query is stored nowhere, so erasure could not find it.
            # What the query refuses is embedded in the same call (activities.negation).
            refusing = refused_phrases(understood.rest or query)
            if refusing:
                asked = asked_part(semantic)
                vector, *vectors = embed_texts(
                    [semantic, *refusing, *asked],
                    role="query",
                    use_cache=False,
                    budget=search_budget(),
                )
                refused, asked = vectors[: len(refusing)], vectors[len(refusing) :]
                vector = away_from_refused(vector, refused, asked=asked[0] if asked else None)
            else:
                vector, refused = embed_query(semantic, use_cache=False), []
        except ProviderError as exc:
            logger.warning("query embedding failed, answering from the hard filter: %s", exc)
            vector, reason = None, degraded_reason(exc)
        if vector is None:
            meta.update(path="hard_filter_degraded", degraded=True, degradedReason=reason)
            results = [result_of(a) for a in _plain_order(qs, parsed, understood)[:limit]]
        else:
            # Ranking by closeness to a time window re-orders the whole candidate pool (limit x
            # TIME_RANK_POOL), not only the best ``limit`` of it.
            keep = limit * TIME_RANK_POOL if understood.time.applied == RANK else limit
            ranking = {
                "vector": vector,
                "query": understood.rest or query,
                "user": user,
                "limit": limit,
                "meta": meta,
                "settings_row": row,
                "activity_row": activity_row,
                "rated": rated,
                "refused": refused,
            }
            results = _ranked(qs, understood=understood, keep=keep, path=plan.path, **ranking)
            if window_fits_nothing(understood, meta):
                # The gate judged the query against the few rows of the time window: nothing
                # there is close, which says nothing about the request itself. Judge it against
                # every joinable row and rank those by closeness to the window instead (the
                # reasons then say the window has nothing that fits and when each one is).
                understood = dataclasses.replace(understood, time=widen_time(understood.time))
                meta["understood"] = understood.as_meta()
                wide = plan_vector_path(
                    unnarrowed, exact_max_rows=row.exact_search_max_rows, k=limit
                )
                candidates = meta["candidates"] = max(wide.rows, SMALL_RESULT + 1)
                meta["candidatesEstimated"] = wide.estimated
                meta["reason"] = None
                results = _ranked(
                    unnarrowed,
                    understood=understood,
                    keep=limit * TIME_RANK_POOL,
                    path=wide.path,
                    **ranking,
                )
            results = rank_by_time(results, understood.time)[:limit]
    context = ReasonContext(
        query=query,
        understood=understood,
        small=meta["path"] == "hard_filter_small",
        total=candidates,
        ranked=meta["path"] == "semantic",
    )
    add_reasons(results, query, activity_row, context)
    mark_outside(results, understood)  # every path: a row outside the time window says so
    for item in results:
        item.pop("_obj", None)
        item["provenance"] = provenance(item, meta)
    return {"results": results, "meta": meta}


def small_path_vector(semantic: str):
    """Return the query's vector for the small path, or None with the provider down (the few
    rows are then shown as without a query: no relevance gate, the order of their words)."""
    try:
        return embed_query(semantic, use_cache=False)
    except ProviderError as exc:
        logger.warning("small path: query not embedded, no relevance gate: %s", exc)
        return None


def fits_nothing(unnarrowed, vector, *, query: str, understood, meta: dict, row) -> bool:
    """Return whether the relevance gate finds the query off-topic against every joinable row
    (not the few of its window); record the decision in ``meta`` either way (its intent margin
    and best margin, as the full path records them). The reference sample not embedded: False
    (the few rows are shown)."""
    wide = plan_vector_path(unnarrowed, exact_max_rows=row.exact_search_max_rows, k=DEFAULT_LIMIT)
    hits, _ = vector_search(
        unnarrowed.defer("embedding", "meta_embedding"),
        vector,
        k=DEFAULT_LIMIT,
        force_path=wide.path,
    )
    probe: dict = {"relevance": None, "reason": None}
    relevant_hits(hits, vector, probe, query=query, understood=understood, window=False)
    decision = probe["relevance"]
    if decision is not None:
        # The per-hit cut ran over every joinable row, not over the few shown: none is dropped.
        meta["relevance"] = {**decision, "dropped": 0}
    off_topic = bool((decision or {}).get("offTopic"))
    if off_topic:
        meta["reason"] = probe["reason"]
    return off_topic


def _ranked(
    qs,
    vector,
    *,
    query,
    understood=None,
    user,
    limit,
    keep=None,
    meta,
    settings_row,
    activity_row,
    path,
    rated=None,
    refused=(),
) -> list[dict]:
    """Return the best ``keep`` (default ``limit``) results of the vector search, re-ranked.

    The pool read is ``limit`` x RERANK_POOL when something re-ranks it (personalisation, the
    hybrid), and at least ``keep``: a caller that re-orders the pool itself (time ranking)
    asks for all of it, without multiplying it again (60 rows for 20 results, not 120).
    ``refused``: the vectors of what the query refuses (the hybrid reads the candidates' own).
    """
    keep = limit if keep is None else keep
    model = current_model()
    floor = settings_row.floor_for(SURFACE, model)
    personalizer = Personalizer.for_user(
        user, cap=activity_row.personal_boost_max, floor=floor, rated=rated
    )
    hybrid = activity_row.activities_hybrid and bool(query)
    # At least the cut's own pool (pool_stats.STAT_POOL): the pool rule judges a hit against the
    # query's best 20 candidates, so what a list keeps must not depend on ``limit``.
    k = max(
        limit * RERANK_POOL if personalizer.active or hybrid else limit, keep, pool_stats.STAT_POOL
    )
    if personalizer.vectors is None and not (hybrid and refused):
        # Only the distance is needed: reading 60 vectors back costs ~5 ms of parsing.
        qs = qs.defer("embedding")
    # The kind vectors are read by the hybrid's order only (search_kind.meta_similarity), as
    # one cosine per candidate computed in SQL once the candidates are known (parsing 60
    # vectors of 384 floats back cost ~8 ms; annotated on the search itself, the exact path
    # computed it for every filtered row before its sort).
    qs = qs.defer("meta_embedding")
    # The path is planned already (activities_search): vector_search need not plan it again.
    hits, report = vector_search(
        qs,
        vector,
        k=min(k, MAX_LIMIT * max(RERANK_POOL, TIME_RANK_POOL)),
        floor=floor,
        force_path=path,
    )
    if hybrid:
        read_meta_like([hit.obj for hit in hits], vector)
    meta.update(
        path="semantic",
        floor=floor,
        model=model,
        vectorPath=report.path,
        personalised=personalizer.kind,
    )
    # The query's words in each candidate, found once for the cut's evidence and the hybrid's
    # full-text rank (which scores every candidate: the gate's floor reads the fused order).
    held = lexical_held(query, [hit.obj for hit in hits])
    # The query's kind, mood and audience cues in each candidate, read once for the cut's
    # evidence, the hybrid's order and the precision gate.
    cues = candidate_cues([hit.obj for hit in hits], understood)
    # Which candidates name the query: read once for the cut and the precision gate.
    named = naming_pks(query, [hit.obj for hit in hits], understood, held=held, cues=cues)
    candidates = hits
    hits = relevant_hits(hits, vector, meta, query=query, understood=understood, named=named)
    # A time and "what is there" only: the window's rows, none cut as off the "topic".
    whole = keeps_window(understood, meta)
    if whole:
        hits, meta["relevance"]["dropped"] = candidates, 0
    # Ordered by similarity, or with the hybrid by the fused rank score; then the boost.
    order = {hit.obj.pk: hit.score for hit in hits}
    fused = None
    if hybrid and hits:
        # Over every candidate (the features are read over all of them anyway): the precision
        # gate's floor reads where each stands in the fused order among all (search_ranker).
        order = fused = hybrid_scores(
            candidates,
            query,
            candidates=candidates,
            understood=understood,
            held=held,
            cues=cues,
            refused=refused,
            vector=vector,
        )
        meta["hybrid"] = True
    # Relative to every candidate the cut judged, not to the rows it kept: a request naming no
    # topic keeps three, whose median and spread say nothing of what the user likes among the
    # city's rows (bench/activities_fit_personal.py over the dev users of eight corpora:
    # docs/RELEVANCE.md, "Personalisation after the kind feature").
    boosts = personalizer.boosts([hit.obj for hit in hits], pool=[hit.obj for hit in candidates])
    scored = []
    for hit, boost in zip(hits, boosts, strict=True):
        score = order[hit.obj.pk] * (1.0 + boost)
        # Ordered as the results' own "score" (as shown) and "id" would order them; only the
        # kept ones become results (a pool of 40-60 rows for 20: each costs a local time).
        scored.append((-shown_value(score), hit.obj.pk, hit, boost, score))
    scored.sort(key=lambda s: (s[0], s[1]))
    shown = scored[:keep]
    ranked_by_time = understood is not None and understood.time.applied == RANK
    if shown and meta["relevance"] is not None and not ranked_by_time and not whole:
        # The learned precision gate (activities/search_ranker.py): after the first, a hit the
        # fitted model finds unlikely is dropped; the order stays. Not on the rank mode's pool
        # (re-ordered by closeness to the window afterwards): it was fitted on top-10 lists.
        likely = likely_hits(
            candidates,
            [hit for _, _, hit, _, _ in shown],
            vector,
            named=named,
            understood=understood,
            query=query,
            held=held,
            cues=cues,
            fused=fused,
        )
        pks = {hit.obj.pk for hit in likely}
        # The rows the gate drops count as dropped by relevance, as the cut's do.
        meta["relevance"]["dropped"] += len(shown) - len(pks)
        shown = [s for s in shown if s[1] in pks]
    return [
        result_of(hit.obj, similarity=hit.score, boost=boost, score=score)
        for _, _, hit, boost, score in shown
    ]


def disliked_activities(user, rated: dict[str, int] | None = None) -> list[int]:
    """Return the ids of the activities the user rated -1 (the feedback API): never shown.

    ``rated``: the user's activity ratings when the caller has read them (None reads them).
    """
    rated = ratings(user, "activity") if rated is None else rated
    return [int(pk) for pk, rating in rated.items() if rating < 0]
