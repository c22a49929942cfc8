"""THE activity search: ``activities_search`` serves ``POST /rag/search`` and the agent's tool.

Pipeline (docs/activities.md has the diagram):

1. Hard filter: active, starting in the future, not full, within the radius, inside the time
   range, of the type.
2. At most ``SMALL_RESULT`` rows pass: return them, those the query names first
   (:func:`evidence_order`), without calling the embedding provider; unless the query's own
   time phrase left them, when the relevance gate judges the query against every joinable row
   (:func:`fits_nothing`) and an off-topic query answers nothing.
3. No ``semantic_query``: order by distance (by start time without a location).
4. Otherwise embed the query, rank by cosine similarity among the filtered rows, apply the
   relevance cut (:func:`relevant_hits`), with the live ``activities_hybrid`` (default on)
   fuse the dense rank with the lexical and the cue ranks (:func:`hybrid_scores`), re-rank with
   the personal boost (``score = order * (1 + boost)``, the order being the similarity or the
   fused score, boost <= ``personal_boost_max``) and keep ``limit``.
5. Embedding provider down, or no query embedding within ``SEARCH_TIME_BUDGET_SECONDS``: the
   hard-filter order with ``degraded: true`` and ``degradedReason``; never an error.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from datetime import datetime
from pathlib import Path

from django.utils import timezone
from django.utils.translation import gettext

from activities.models import INDEX_BOOKKEEPING_FIELDS, Activity, ActivityStatus
from activities.personalize import Personalizer
from activities.reasons import ReasonContext, match_reasons, query_terms
from activities.selectors import activity_settings_get
from activities.serializers import SearchFiltersSerializer
from activities.understanding import (
    EMBED_REST,
    FILTER,
    RANK,
    QueryUnderstanding,
    TimePlan,
    apply_time,
    order_by_closeness,
    plan_place,
    plan_time,
    rank_by_time,
    read_query,
    user_zone,
)
from config.errors import InvalidArgument, field_path, first_error
from rag import intent, relevance
from rag.cardinality import count_and_plan, plan_vector_path
from rag.embeddings import ProviderError, current_model, degraded_reason, embed_query
from rag.preferences import ratings
from rag.search import rrf, vector_search
from rag.selectors import rag_settings_get
from rag.text import held_terms, rank_held
from rag.understand import information_request, keyboard_noise, yes_no_question

logger = logging.getLogger(__name__)

DEFAULT_LIMIT = 20
MAX_LIMIT = 50
SMALL_RESULT = 3  # this many or fewer filtered rows are returned without ranking
# An on-topic query keeps at least this many of its best hits whatever the per-hit cut says
# (rag.relevance.decide ``keep_best``): the cut relative to the best hit stopped lists at one
# or two rows where the labels had three to five good answers (English and cross-language
# queries, whose hits rarely share a word with the query). SMALL_RESULT, the count the service
# already shows without ranking, not a fitted number. Checked on heldout old dev+test and the
# demo set (docs/RELEVANCE.md, "Generalising"): nDCG@5 rose in all four halves and on the demo.
KEEP_BEST = SMALL_RESULT
# With personalisation or the hybrid, the vector search reads limit x this many rows to re-rank.
# A filtered HNSW scan's work grows with it (100k activities, 5 km radius: 8 / 12 / 15 ms for
# 20 / 40 / 60 rows, 10 / 15 / 30 ms where 5% pass); 2 instead of 3 left the relevance of the
# labelled queries unchanged (nDCG@5 0.941 vs 0.936, docs/BENCHMARKS.md).
RERANK_POOL = 2
# Ranking by closeness to a time window re-orders a larger pool: the window, not the query,
# decides which rows come first (3 x limit: nDCG@5 0.919 on the understanding queries, 0.916
# with 2 x limit).
TIME_RANK_POOL = 3
SURFACE = "activities"
# Columns a search never reads (indexing bookkeeping, the full-text column): not loaded, so each
# of the 40-60 rows it reads carries less, four timestamps fewer to parse.
UNREAD_FIELDS = (*INDEX_BOOKKEEPING_FIELDS, "index_task", "search_text", "created_at", "updated_at")
# Example requests for activities and for things that belong elsewhere (rag.intent): a query
# closer to the second by more than the live cut's intentGate is off-topic, whatever the rows
# a filter left (docs/RELEVANCE.md, "Intent gate").
INTENT_ON = Path(__file__).resolve().parent / "fixtures" / "intent_activities.txt"
INTENT_OFF = Path(__file__).resolve().parent / "fixtures" / "intent_elsewhere.txt"


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


# A bare date as the end of a range means the whole of that day.
_BARE_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_filters(filters: dict | None) -> dict:
    """Validate a search's ``filters`` into plain values (raise InvalidArgument).

    The rules are the API's (``SearchFiltersSerializer``), for every caller: the API, the agent's
    tools, the staff page.
    """
    out: dict = {"location": None, "start": None, "end": None, "type": None}
    if not filters:
        return out
    if not isinstance(filters, dict):
        raise InvalidArgument(gettext("filters must be an object."), details={"field": "filters"})
    time_range = filters.get("timeRange")
    if isinstance(time_range, dict) and _BARE_DATE_RE.match(str(time_range.get("end") or "")):
        filters = {**filters, "timeRange": {**time_range, "end": f"{time_range['end']}T23:59:59"}}
    serializer = SearchFiltersSerializer(data=filters)
    if not serializer.is_valid():
        path, message = first_error(serializer.errors)
        field = field_path(("filters", *path))
        raise InvalidArgument(f"{field}: {message}", details={"field": field})
    data = serializer.validated_data
    location = data.get("location")
    if location:
        out["location"] = (location["lat"], location["lng"], location.get("radiusInKm"))
    time_range = data.get("timeRange") or {}
    out["start"], out["end"] = time_range.get("start"), time_range.get("end")
    if (data.get("type") or "").strip():
        out["type"] = data["type"].strip()
    return out


def hard_filter(parsed: dict, *, now: datetime | None = None):
    """Return the queryset of joinable rows passing every hard filter (distance annotated)."""
    from django.db.models import F

    from activities.geo import bounding_box, distance_expression

    now = now or timezone.now()
    qs = Activity.objects.filter(
        status=ActivityStatus.ACTIVE,
        start_at__gt=now,
        current_participants__lt=F("max_participants"),
    ).defer(*UNREAD_FIELDS)
    if parsed["type"]:
        qs = qs.filter(type=parsed["type"])
    if parsed["start"]:
        qs = qs.filter(start_at__gte=parsed["start"])
    if parsed["end"]:
        qs = qs.filter(start_at__lte=parsed["end"])
    if parsed["location"]:
        lat, lng, radius = parsed["location"]
        qs = qs.annotate(distance_km=distance_expression(lat, lng))
        if radius is not None:
            qs = qs.filter(**bounding_box(lat, lng, radius)).filter(distance_km__lte=radius)
    return qs


def _plain_order(qs, parsed, understood: QueryUnderstanding | None = None):
    if understood is not None and understood.time.applied == RANK:
        return order_by_closeness(qs, understood.time)
    if parsed["location"]:
        return qs.order_by("distance_km", "start_at", "pk")
    return qs.order_by("start_at", "pk")


def _result(activity, *, similarity=None, boost=0.0, score=None) -> dict:
    distance = getattr(activity, "distance_km", None)
    return {
        "id": activity.pk,
        "title": activity.title,
        "type": activity.type,
        "startAt": timezone.localtime(activity.start_at).isoformat(),
        "locationName": activity.location_name,
        "distanceKm": None if distance is None else round(float(distance), 2),
        "similarity": None if similarity is None else round(float(similarity), 4),
        "boost": round(float(boost), 4),
        "score": None if score is None else round(float(score), 4),
        "matchReason": "",
        "_obj": activity,
    }


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
    limit = DEFAULT_LIMIT if limit in (None, "") else int(_number(limit, "limit"))
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidArgument(
            gettext("limit must be between 1 and %(max)d.") % {"max": MAX_LIMIT},
            details={"field": "limit"},
        )
    query = (semantic_query or "").strip()[:500]
    parsed = parse_filters(filters)
    now = now or timezone.now()
    # Query understanding (activities/understanding.py): time narrows or ranks, "附近" is a
    # radius with a location; the embedded text is the query without them (EMBED_REST).
    # Read once: the dislikes are hidden here, the likes feed the personal boost (_ranked).
    rated = ratings(user, "activity")
    understood, qs, unnarrowed = _understand(
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
        if answer_question(query, understood):
            # Nothing is compared on this path, but a question is off-topic whatever passes.
            meta["reason"] = relevance.QUESTION_REASON
            rows = []
        elif window_only_few(understood, semantic) and fits_nothing(
            unnarrowed, semantic, understood=understood, meta=meta, row=row
        ):
            rows = []
        else:
            rows = list(_plain_order(qs, parsed, understood)[:limit])
        results = [_result(a) for a in evidence_order(rows, semantic, understood)]
    elif not semantic:
        meta["path"] = "hard_filter_sorted"
        results = [_result(a) for a in _plain_order(qs, parsed, understood)[:limit]]
    else:
        reason = None
        try:
            # Within SEARCH_TIME_BUDGET_SECONDS; skipped at once while the breaker is open.
            # Kept out of the caches: a query is stored nowhere, so erasure could not find it.
            vector = embed_query(semantic, use_cache=False)
        except ProviderError as exc:
            logger.warning("query embedding failed, answering from the hard filter: %s", exc)
            vector, reason = None, degraded_reason(exc)
        if vector is None:
            meta.update(path="hard_filter_degraded", degraded=True, degradedReason=reason)
            results = [_result(a) for a in _plain_order(qs, parsed, understood)[:limit]]
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
    _add_reasons(results, query, activity_row, context)
    for item in results:
        item.pop("_obj", None)
        item["provenance"] = provenance(item, meta)
    return {"results": results, "meta": meta}


def provenance(item: dict, meta: dict) -> dict:
    """Return where a result came from and why it was returned, for an agent to cite."""
    scores = {"similarity": item["similarity"], "boost": item["boost"], "score": item["score"]}
    return {
        "source": {"type": "activity", "id": item["id"]},
        "retrievedBy": meta["path"],
        "hybrid": bool(meta.get("hybrid")),
        "personalised": meta.get("personalised"),
        "scores": scores,
    }


def window_fits_nothing(understood: QueryUnderstanding, meta: dict) -> bool:
    """Return whether the search narrowed to a time window and the relevance gate found
    nothing in it close to the query (not noise, not a question, not a request for something
    else: those are off-topic anywhere).
    """
    relevance_meta = meta.get("relevance") or {}
    return (
        understood.time.applied == FILTER
        and relevance_meta.get("offTopic", False)
        and not relevance_meta.get("noise")
        and meta.get("reason") not in (relevance.QUESTION_REASON, relevance.INTENT_REASON)
    )


def window_only_few(understood: QueryUnderstanding, semantic: str) -> bool:
    """Return whether the query's own time phrase left the few rows of the small path and the
    query asks for something besides the time (then whether anything fits is still a question:
    a window holding three rows says nothing about the request)."""
    return understood.time.applied == FILTER and bool(semantic)


def fits_nothing(unnarrowed, semantic: str, *, understood, meta: dict, row) -> bool:
    """Return whether the relevance gate finds the query off-topic against every joinable row
    (not the few of its window); record the decision in ``meta``. The provider down, or the
    reference sample not embedded: False (the few rows are shown, as without a query)."""
    try:
        vector = embed_query(semantic, use_cache=False)
    except ProviderError as exc:
        logger.warning("small path: query not embedded, no relevance gate: %s", exc)
        return False
    wide = plan_vector_path(unnarrowed, exact_max_rows=row.exact_search_max_rows, k=DEFAULT_LIMIT)
    hits, _ = vector_search(
        unnarrowed.defer("embedding"), vector, k=DEFAULT_LIMIT, force_path=wide.path
    )
    probe: dict = {"relevance": None, "reason": None}
    relevant_hits(hits, vector, probe, query=semantic, understood=understood)
    off_topic = bool((probe["relevance"] or {}).get("offTopic"))
    if off_topic:
        meta.update(relevance=probe["relevance"], reason=probe["reason"])
    return off_topic


def widen_time(plan: TimePlan) -> TimePlan:
    """Return ``plan`` turned from narrowing to its window(s) into ranking by closeness."""
    reason = "nothing in the window fits the request: ranked by closeness to it"
    return dataclasses.replace(plan, applied=RANK, reason=reason, rows=None)


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
) -> list[dict]:
    """Return the best ``keep`` (default ``limit``) results of the vector search, re-ranked.

    The pool read is ``limit`` x RERANK_POOL when something re-ranks it (personalisation, the
    hybrid), and at least ``keep``: a caller that re-orders the pool itself (time ranking)
    asks for all of it, without multiplying it again (60 rows for 20 results, not 120).
    """
    keep = limit if keep is None else keep
    model = current_model()
    floor = settings_row.floor_for(SURFACE, model)
    personalizer = Personalizer.for_user(
        user, cap=activity_row.personal_boost_max, floor=floor, rated=rated
    )
    hybrid = activity_row.activities_hybrid and bool(query)
    k = max(limit * RERANK_POOL if personalizer.active or hybrid else limit, keep)
    if personalizer.vectors is None:
        # Only the distance is needed: reading 60 vectors back costs ~5 ms of parsing.
        qs = qs.defer("embedding")
    # The path is planned already (activities_search): vector_search need not plan it again.
    hits, report = vector_search(
        qs,
        vector,
        k=min(k, MAX_LIMIT * max(RERANK_POOL, TIME_RANK_POOL)),
        floor=floor,
        force_path=path,
    )
    meta.update(
        path="semantic",
        floor=floor,
        model=model,
        vectorPath=report.path,
        personalised=personalizer.kind,
    )
    # The query's words in each candidate, found once for the cut's evidence and the hybrid's
    # full-text rank (which reads the candidates the cut keeps).
    held = lexical_held(query, [hit.obj for hit in hits])
    hits = relevant_hits(hits, vector, meta, query=query, understood=understood, held=held)
    # Ordered by similarity, or with the hybrid by the fused rank score; then the boost.
    order = {hit.obj.pk: hit.score for hit in hits}
    if hybrid and hits:
        order = hybrid_scores(
            hits, query, fusion_k=settings_row.fusion_k, understood=understood, held=held
        )
        meta["hybrid"] = True
    results = []
    boosts = personalizer.boosts([hit.obj for hit in hits])  # relative to this pool
    for hit, boost in zip(hits, boosts, strict=True):
        score = order[hit.obj.pk] * (1.0 + boost)
        results.append(_result(hit.obj, similarity=hit.score, boost=boost, score=score))
    results.sort(key=lambda r: (-r["score"], r["id"]))
    return results[:keep]


def disliked_activities(user, rated: dict[str, int] | None = None) -> list[int]:
    """Return the ids of the activities the user rated -1 (the feedback API): never shown.

    ``rated``: the user's activity ratings when the caller has read them (None reads them).
    """
    rated = ratings(user, "activity") if rated is None else rated
    return [int(pk) for pk, rating in rated.items() if rating < 0]


def _understand(
    query: str, parsed: dict, *, time_zone, now, hidden=()
) -> tuple[QueryUnderstanding, object, object]:
    """Read the query; return it, the hard-filter queryset with its time and place applied, and
    the same queryset without the time window (to judge the query against every joinable row).

    Activities in ``hidden`` (the user rated them -1) are left out of both querysets.
    ``parsed`` gains the radius of a place cue (a location without a radius); the time phrase's
    window narrows the queryset, or is recorded to rank by (``understood.time``).
    """
    try:
        zone = user_zone(time_zone)
    except ValueError:
        raise InvalidArgument(
            gettext("timeZone must be an IANA time zone name."), details={"field": "timeZone"}
        )
    understood = read_query(query, now=now, tz=zone)
    place = plan_place(understood, parsed["location"])
    if place.applied == "radius":
        lat, lng, _ = parsed["location"]
        parsed["location"] = (lat, lng, place.radius_km)
    qs = hard_filter(parsed, now=now)
    if hidden:
        qs = qs.exclude(pk__in=list(hidden))
    plan = plan_time(
        understood, qs, start=parsed["start"], end=parsed["end"], count_upto_rows=SMALL_RESULT + 1
    )
    understood = dataclasses.replace(understood, time=plan, place=place)
    return understood, apply_time(qs, plan), qs


# Words that make a yes/no question a request for activities ("可以带狗的活动吗", "能学游泳吗",
# "可以一起打羽毛球吗"): activity nouns and the verbs of going, playing, learning and doing
# things. Erring towards a request only keeps a search that might have been cut.
ACTIVITY_WORDS = re.compile(
    r"活动|去|哪里|哪儿|推荐|参加|报名|一起|聚会|玩|学|练|打|看|听|唱|跑|爬|逛|做|"
    r"\b(events?|activit(y|ies)|things to do|where|join|meetups?|class(es)?|go|play|learn)\b",
    re.IGNORECASE,
)


def answer_question(query: str, understood=None) -> bool:
    """Return whether the query asks for an answer rather than for activities.

    A yes/no question (``rag.understand.yes_no_question``: "孕期可以喝咖啡吗", "can I bring my
    dog?") is a request for activities only when it names them: an activity word, a kind of
    activity or a time. A request for information or work (``information_request``: "空调漏水
    怎么办", "how do I renew my passport") only with an activity word or a kind: "明天会下雨吗"
    names a time and is still a question about the weather.
    """
    if ACTIVITY_WORDS.search(query):
        return False
    found = getattr(understood, "found", None)
    if information_request(query):
        return not (found is not None and found.kinds)
    if not yes_no_question(query):
        return False
    return not (found is not None and (found.kinds or found.time))


def relevant_hits(
    hits: list, vector, meta: dict, *, query: str = "", understood=None, held=None
) -> list:
    """Return the dense hits that pass the relevance cut; record the decision in ``meta``.

    An off-topic query answers nothing, with ``meta.reason`` saying so (rag/relevance.py):
    keyboard noise always; a query none of whose words or cues appears in the best hits
    (:func:`query_evidence`) against the bare gate; an English query against the cut's foreign
    gate (:func:`foreign_query`); a query closer to requests for something else than to
    requests for activities (:data:`INTENT_OFF`, :data:`INTENT_ON`) by more than the cut's
    intent gate, whatever the hits. The cut needs the reference sample's vectors: when they
    cannot be embedded, every hit is kept. ``held``: :func:`lexical_held` of the hits, when
    the caller has found it.
    """
    named = naming_pks(query, [hit.obj for hit in hits], understood, held=held)
    # Whether an activity names a word or cue of the query is its own fact, not the pool's:
    # the evidence of the best EVIDENCE_POOL hits is read off the same set.
    evidence = any(hit.obj.pk in named for hit in hits[: relevance.EVIDENCE_POOL])
    try:
        decision = relevance.judge(
            vector,
            [hit.score for hit in hits],
            SURFACE,
            evidence=evidence,
            noise=keyboard_noise(query),
            question=answer_question(query, understood),
            hit_evidence=[hit.obj.pk in named for hit in hits],
            foreign=foreign_query(understood),
            intent=lambda: intent.intent_margin_of(vector, INTENT_ON, INTENT_OFF),
            keep_best=KEEP_BEST,
        )
    except ProviderError as exc:
        logger.warning("relevance cut skipped, reference sample not embedded: %s", exc)
        return hits
    meta["relevance"] = decision.meta()
    if decision.off_topic:
        meta["reason"] = decision.reason
    return [hit for hit, keep in zip(hits, decision.keep, strict=True) if keep]


def foreign_query(understood) -> bool:
    """Return whether the query is English, not in the relevance reference sample's language
    (Chinese): its margin over that sample is read with the cut's foreign gate."""
    return understood is not None and understood.language == "en"


def lexical_text(activity) -> str:
    """Return the fields the hybrid's full text reads: title, tags, type and vibes."""
    tags = " ".join(str(t) for t in activity.tags or [])
    vibes = " ".join(str(v) for v in activity.vibes or [])
    return f"{activity.title} {tags} {activity.type} {vibes}"


def naming_pks(query: str, activities: list, understood, *, held=None) -> set:
    """Return the pks of the activities naming something of the query: one of its words in a
    title, tag, type or vibe (jieba, as the hybrid reads them), or a kind or mood cue of it
    in a type or the vibes."""
    if not activities:
        return set()
    lexical = lexical_ranking(query, activities, held=held)
    return set(cue_ranking(activities, understood)) | set(lexical)


def query_evidence(query: str, activities: list, understood) -> bool:
    """Return whether the query names something the activities have (:func:`naming_pks`)."""
    return bool(naming_pks(query, activities, understood))


def relevance_evidence(query: str, titles: list[str]) -> bool:
    """Return :func:`query_evidence` of a labelled query over activities named by title
    (``rag_calibrate``: the corpus is keyed by title), read as the search reads it."""
    understood = read_query(query, now=timezone.now(), tz=user_zone(None))
    by_title = {a.title: a for a in Activity.objects.filter(title__in=titles)}
    activities = [by_title[t] for t in titles if t in by_title]
    return query_evidence(understood.rest or query, activities, understood)


def evidence_order(rows: list, query: str, understood) -> list:
    """Return ``rows`` (the few that pass the filters) with those the query names first.

    The three-or-fewer path calls no provider: what orders them is what the query names, its
    words in title, tags, type and vibes and its kind and mood cues (RRF of the two lists);
    rows naming nothing keep their given order, after the others.
    """
    if not query or len(rows) < 2:
        return rows
    lexical = lexical_ranking(query, rows)
    fused = {f.key: f.score for f in rrf([lexical, cue_ranking(rows, understood)], k=1)}
    return [a for _, a in sorted(enumerate(rows), key=lambda p: (-fused.get(p[1].pk, 0.0), p[0]))]


def cue_ranking(activities: list, understood) -> list:
    """Return the pks of the activities having a kind or mood the query asks for, most first.

    Kinds match the activity's type, moods its vibes (the vibe lexicon, ``understood``); ties
    keep the dense order. A hit matching none is left out (RRF gives it nothing from this list).
    """
    if understood is None:
        return []
    kinds = {c.label for c in understood.kinds}
    moods = set(understood.mood_labels())
    if not kinds and not moods:
        return []
    scored = []
    for order, activity in enumerate(activities):
        matched = (activity.type in kinds) + len(moods & set(activity.vibes or ()))
        if matched:
            scored.append((-matched, order, activity.pk))
    return [pk for _, _, pk in sorted(scored)]


def lexical_ranking(query: str, activities: list, *, held=None) -> list:
    """Return the pks of the activities whose title, tags, type or vibes hold a content word of
    the query, best first (as ``rag.text.term_ranking`` ranks them). Content words are those a
    reason may name (``activities.reasons.query_terms``): no stop, filler or time words, and no
    single Han character that means little alone (做 in 做公益 would match 做一个卡包).

    ``held``: :func:`lexical_held` of the same query over these activities (or more), so that
    ranking a second pool of the same candidates segments nothing again; None finds them here.
    """
    terms = query_terms(query)
    if not terms:
        return []
    if held is None:
        held = held_terms({a.pk: lexical_text(a) for a in activities}, terms)
    return rank_held({a.pk: held[a.pk] for a in activities}, terms)


def lexical_held(query: str, activities: list) -> dict:
    """Return ``{pk: the query's content words in its title, tags, type or vibes}`` for
    :func:`lexical_ranking` of any of these activities (empty when the query has none)."""
    terms = query_terms(query)
    if not terms:
        return {}
    return held_terms({a.pk: lexical_text(a) for a in activities}, terms)


def hybrid_scores(hits: list, query: str, *, fusion_k: int, understood=None, held=None) -> dict:
    """Return {pk: RRF score} of the dense rank, a jieba full-text rank and the cue rank.

    The full text (rag.text.term_ranking) reads title, tags, type and vibes of the candidates
    only; the cue rank (:func:`cue_ranking`) puts first the hits of a kind or mood the query
    asks for. Both re-order what passed the filters and the relevance cut, never add a row.
    ``held``: :func:`lexical_held` of the hits (or of the pool they were cut from).
    """
    dense = [hit.obj.pk for hit in hits]
    activities = [hit.obj for hit in hits]
    lexical = lexical_ranking(query, activities, held=held)
    cues = cue_ranking(activities, understood)
    return {f.key: f.score for f in rrf([dense, lexical, cues], k=fusion_k)}


def relevance_corpus() -> list[tuple[str, list[float]]]:
    """Return (title, vector) of every embedded activity of the active model (rag_calibrate)."""
    rows = Activity.objects.filter(
        embedding__isnull=False, embedding_model=current_model()
    ).values_list("title", "embedding")
    return [(title, list(vector)) for title, vector in rows]


def _add_reasons(results: list[dict], query: str, activity_row, context=None) -> None:
    items = [(r["_obj"], r["distanceKm"]) for r in results]
    if not activity_row.match_reasons_enabled:
        from activities.reasons import default_reason

        english = bool(context and context.english)
        reasons = [default_reason(a, d, english=english) for a, d in items]
    else:
        reasons = match_reasons(
            items, query or None, use_llm=activity_row.llm_match_reasons, context=context
        )
    for result, reason in zip(results, reasons, strict=True):
        result["matchReason"] = reason


__all__ = ["activities_search", "hard_filter", "parse_filters"]
