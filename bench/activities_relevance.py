"""Relevance of the activities search on the demo data: the bare model beside the service.

Used by ``bench/activities_search.py`` (its step 1, or alone with ``--relevance-only``). Loads
the demo activities, then runs every labelled query of ``activities/fixtures/eval_queries.json``
(graded 1-3; ``window``: a time phrase's window relative to the load day; ``offTopic``: the
expected answer is nothing) through:

- the bare model: cosine nearest neighbours over the joinable rows, no cut, no time;
- the service with the hybrid switched off (live ``activities_hybrid``, on by default: RRF of
  the dense rank, a jieba full text and the kind/mood cues), the one default this bench
  changes, and says so;
- the service as shipped: ``activities_search`` with the default live settings.

Figures: nDCG@5 over the queries that expect something (labels of rows the hard filter
excludes, or outside a query's window, leave the ideal ranking); the share of off-topic queries
answered empty; the share of relevant results (grade >= 2) the relevance cut removes (the
service with and without the cut, limit 10); for time-phrase queries the share of results that
start inside the window the service states it filtered by (``meta.understood.time`` with
``applied: "filter"``; a query it ranked by time instead, because no row starts in the window,
states no narrowed window and is counted apart), and for the bare model the share inside the
labelled window. The relevance cut itself is fitted on a different labelled file
(``activities/fixtures/relevance_labels.jsonl``), so these queries are held out.
"""

from __future__ import annotations

import json
import math
import zoneinfo
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "activities" / "fixtures"
LIMIT = 10
K = 5


def ndcg_at(ranked: list[str], relevant: dict[str, int], k: int = K) -> float:
    dcg = sum((2 ** relevant.get(t, 0) - 1) / math.log2(i + 2) for i, t in enumerate(ranked[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def window_of(spec: dict, now: datetime, tz_name: str) -> tuple[datetime, datetime]:
    """Return the [start, end) a labelled time phrase means, from ``now`` (future direction).

    Written independently of rag/understand, so the bench checks the service against the
    labels, not against its own parser. Kinds: ``day`` (offset from today), ``weekday``
    (0 = Monday; the first one not over, today included), ``weekend`` (the first Saturday-Sunday
    not over), ``week`` (offset weeks, Monday to Monday); ``hours`` narrows each day.
    """
    tz = zoneinfo.ZoneInfo(tz_name)
    local = now.astimezone(tz)
    today = local.replace(hour=0, minute=0, second=0, microsecond=0)
    kind = spec["kind"]
    if kind == "day":
        start = today + timedelta(days=spec["offset"])
        end = start + timedelta(days=1)
    elif kind == "weekday":
        start = today + timedelta(days=(spec["weekday"] - today.weekday()) % 7)
        end = start + timedelta(days=1)
    elif kind == "weekend":
        start = today + timedelta(days=(5 - today.weekday()) % 7)
        if today.weekday() == 6:
            start = today - timedelta(days=1)
        end = start + timedelta(days=2)
    elif kind == "week":
        start = today - timedelta(days=today.weekday()) + timedelta(weeks=spec["offset"])
        end = start + timedelta(weeks=1)
    else:
        raise ValueError(f"unknown window kind {kind!r}")
    if "hours" in spec:
        first, last = spec["hours"]
        if kind == "weekday" and start + timedelta(hours=last) <= local:
            start, end = start + timedelta(days=7), end + timedelta(days=7)  # today's is over
        start, end = start + timedelta(hours=first), start + timedelta(hours=last)
    elif end <= local:
        start, end = start + timedelta(days=7), end + timedelta(days=7)
    return start, end


def _run(query: str, *, cut: bool = True, meta: dict | None = None) -> list:
    """Return the service's results for a query, with or without the cut (``meta`` filled)."""
    from unittest import mock

    from activities import search_ranker
    from activities.search import activities_search
    from rag import relevance
    from rag.relevance import Cut

    if cut:
        out = activities_search(semantic_query=query, limit=LIMIT)
    else:
        # Without the cut means without the learned precision gate too (it drops hits the cut
        # kept: activities/search_ranker.py).
        with (
            mock.patch.object(
                relevance, "cut_for", lambda surface, row=None: Cut(gate=-1.0, ratio=None)
            ),
            mock.patch.object(search_ranker, "THRESHOLD", 0.0),
            mock.patch.object(search_ranker, "SECOND_THRESHOLD", 0.0),
        ):
            out = activities_search(semantic_query=query, limit=LIMIT)
    if meta is not None:
        meta.update(out["meta"])
    return out["results"]


def relevance(creator) -> tuple[str, dict]:
    """Load the demo data, score the labelled queries; return Markdown and the figures."""
    from django.conf import settings
    from django.utils import timezone
    from django.utils.dateparse import parse_datetime

    from activities.demo import load_demo_activities
    from activities.models import Activity
    from activities.search_filters import hard_filter, parse_filters
    from activities.selectors import activity_settings_get
    from bench._common import markdown_table
    from rag.background import model_key
    from rag.embeddings import current_model, embed_query
    from rag.relevance import cut_for
    from rag.search import vector_search

    items = json.loads((FIXTURES / "demo_activities.json").read_text(encoding="utf-8"))
    queries = json.loads((FIXTURES / "eval_queries.json").read_text(encoding="utf-8"))
    load_demo_activities(items, creator=creator)
    now = timezone.now()
    starts = {a.title: a.start_at for a in Activity.objects.all()}
    eligible = set(hard_filter(parse_filters({})).values_list("title", flat=True))
    row = activity_settings_get()
    systems = ["bare model", "service, hybrid off", "service"]
    shipped_hybrid = row.activities_hybrid
    ndcg: dict[str, list[float]] = {s: [] for s in systems}
    ndcg_time: dict[str, list[float]] = {s: [] for s in systems}
    empty_off: dict[str, list[bool]] = {s: [] for s in systems}
    inside: dict[str, list[bool]] = {s: [] for s in systems}
    applied: dict[str, int] = {"filter": 0, "rank": 0, "none": 0}
    kept_with, kept_without = 0, 0
    per_query = []
    skipped_time = 0
    for q in queries:
        window = q.get("window")
        span = window_of(window, now, settings.TIME_ZONE) if window else None
        relevant = {
            t: g
            for t, g in q["relevant"].items()
            if t in eligible and (span is None or span[0] <= starts[t] < span[1])
        }
        vector = embed_query(q["query"])
        hits, _ = vector_search(hard_filter(parse_filters({})), vector, k=LIMIT)
        bare = [(h.obj.title, h.obj.start_at) for h in hits]
        runs = {"bare model": bare}
        stated: dict[str, dict | None] = {}
        for name, hybrid in (("service, hybrid off", False), ("service", True)):
            row.activities_hybrid = hybrid
            row.save()
            meta: dict = {}
            found = _run(q["query"], meta=meta)
            runs[name] = [(r["title"], parse_datetime(r["startAt"])) for r in found]
            stated[name] = (meta.get("understood") or {}).get("time")
        row.activities_hybrid = shipped_hybrid
        row.save()
        if span:
            shipped = stated["service"]
            applied[shipped["applied"] if shipped else "none"] += 1
        scores = {}
        for name, found in runs.items():
            titles = [t for t, _ in found]
            if q.get("offTopic"):
                empty_off[name].append(not found)
                continue
            if name == "bare model" and span:
                inside[name].extend(span[0] <= start < span[1] for _, start in found)
            elif name != "bare model" and (stated[name] or {}).get("applied") == "filter":
                lo = parse_datetime(stated[name]["start"])
                hi = parse_datetime(stated[name]["end"])
                inside[name].extend(lo <= start < hi for _, start in found)
            if relevant:
                scores[name] = ndcg_at(titles, relevant)
                ndcg[name].append(scores[name])
                if span:
                    ndcg_time[name].append(scores[name])
        if span and not relevant:
            skipped_time += 1
        if not q.get("offTopic"):
            strong = {t for t, g in q["relevant"].items() if g >= 2}
            with_cut = {t for t, _ in runs["service"]} & strong  # the shipped service
            without = {r["title"] for r in _run(q["query"], cut=False)} & strong
            kept_with += len(with_cut & without)
            kept_without += len(without)
        per_query.append(
            [
                q["query"],
                "off-topic" if q.get("offTopic") else ("time" if span else ""),
                *(
                    (f"{len(runs[s])} rows" if q.get("offTopic") else scores.get(s, "-"))
                    for s in systems
                ),
            ]
        )

    def mean(values):
        return sum(values) / len(values) if values else float("nan")

    def share(flags):
        return sum(flags) / len(flags) if flags else float("nan")

    lost = 1.0 - kept_with / kept_without if kept_without else 0.0
    figures = {
        s: {
            "ndcg5": mean(ndcg[s]),
            "ndcg5_time": mean(ndcg_time[s]),
            "off_topic_empty": share(empty_off[s]),
            "in_window": share(inside[s]),
        }
        for s in systems
    }
    figures["relevant_lost_by_cut"] = lost
    n_off = sum(1 for q in queries if q.get("offTopic"))
    n_time = sum(1 for q in queries if q.get("window"))
    cut = cut_for("activities")
    table = markdown_table(
        [
            "system",
            f"nDCG@5 ({len(ndcg['service'])} queries)",
            f"nDCG@5, time phrases ({len(ndcg_time['service'])})",
            f"off-topic answered empty ({n_off})",
            "results inside the window (bare: labelled; service: stated as filtered)",
        ],
        [
            [
                s,
                figures[s]["ndcg5"],
                figures[s]["ndcg5_time"],
                figures[s]["off_topic_empty"],
                figures[s]["in_window"],
            ]
            for s in systems
        ],
    )
    md = f"""Model `{current_model()}` (cut key `{model_key()}`: gate {cut.gate}, ratio {cut.ratio},
calibrated {cut.calibrated}); {len(items)} demo activities loaded {now:%Y-%m-%d %H:%M %Z}
({timezone.localtime(now):%A} in {settings.TIME_ZONE}); {len(queries)} labelled queries
(`activities/fixtures/eval_queries.json`): {n_time} with time phrases, {n_off} off-topic. The cut
was fitted on a different file (`activities/fixtures/relevance_labels.jsonl`), so these queries
are held out. Results: limit {LIMIT}; nDCG@{K} on the top {K}.
"service, hybrid off" switches the live `activities_hybrid` off (default on); nothing else
differs from the shipped defaults.

{table}

Target: nDCG@5 >= 0.90, off-topic empty >= 90%, relevant lost <= 2%, inside the window 100%.
Relevant results (grade >= 2) lost by the relevance cut (service with and without it, limit
{LIMIT}): **{lost:.1%}** ({kept_without - kept_with} of {kept_without}).
Time-phrase queries whose window holds no labelled relevant row on this load day (left out of
nDCG): {skipped_time}. Of the {n_time} time-phrase queries the shipped service narrowed the
filter to the phrase's window for {applied["filter"]} (their results are the ones checked against
the window `meta.understood.time` states) and ranked by closeness to it for {applied["rank"]}
(no joinable row starts in the window: `meta.understood.time.applied` is "rank", so no narrowed
window is stated; not counted); {applied["none"]} read no time phrase. The bare model states
no window: its column is the share of its results inside the labelled window.

Per query (nDCG@5; off-topic: rows returned):

{markdown_table(["query", "kind", *systems], per_query)}
"""
    return md, figures
