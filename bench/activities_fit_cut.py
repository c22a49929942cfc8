"""Fit the activities relevance cut's depth on the DEV split of the held-out corpora.

The depth (rag/relevance.py): a hit whose margin over the query's background lies more than
``depth`` below the best hit's margin is dropped, so a list stops where relevance falls off.
This bench runs every DEV query of bench/data/activities_heldout_queries.jsonl through
``activities_search`` as shipped, recording what the cut was given (the hits' similarities,
the query's background, which hits name a word or cue of the query) and the order the service
returned, with the bare ratio switched off so every hit past the gate is recorded. It then
replays the cut offline for each candidate (``depth`` for hits naming something of the query,
``bareDepth`` for the others, the bare ratio 0.5 or none) and prints, per language, precision@10
(grade >= 1) and nDCG@5 of the replayed lists (the labels as written, without the time
window the held-out bench applies; a replay keeps the service's order among the hits kept).

Choice rule (printed): the highest pooled DEV precision@10 whose nDCG@5 stays within
``NDCG_SLACK`` of the shipped cut (bare ratio 0.5, no depth), in zh and in en. The test
split is never read. Never writes docs/BENCHMARKS.md: set the chosen depth in the live
``relevance_cuts`` (or rag.models.DEFAULT_RELEVANCE_CUTS) and run bench/activities_heldout.py
for the test figures.

    .venv/bin/python bench/activities_fit_cut.py
"""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402

DB_NAME = "bench_activities_fit_cut"
LIMIT = 10
NDCG_SLACK = 0.01
DEPTHS = [0.06, 0.08, 0.10, 0.12, 0.14, 0.16, 0.18, 0.20, 0.25, 0.30, None]
BARE_RATIOS = [None, 0.5]
SHIPPED_BARE_RATIO = 0.5  # rag.models.DEFAULT_RELEVANCE_CUTS, e5, activities


def record_dev() -> list[dict]:
    """Run every DEV query as shipped; return one record per query with the cut's inputs."""
    from django.contrib.auth import get_user_model

    import activities.search as search
    from bench.activities_heldout import CORPORA, loaded_corpus, read_queries
    from rag import relevance

    calls: list[dict] = []
    decide, relevant_hits = relevance.decide, search.relevant_hits

    def recording_decide(scores, background, cut, **kw):
        calls.append(
            {
                "scores": [float(s) for s in scores],
                "background": background,
                "hit_evidence": list(kw.get("hit_evidence") or [True] * len(scores)),
            }
        )
        outcome = decide(scores, background, cut, **kw)
        calls[-1]["off_topic"] = outcome.off_topic
        return outcome

    def recording_hits(hits, vector, meta, **kw):
        count = len(calls)
        kept = relevant_hits(hits, vector, meta, **kw)
        if len(calls) > count:
            calls[-1]["titles"] = [hit.obj.title for hit in hits]
        return kept

    relevance.decide, search.relevant_hits = recording_decide, recording_hits
    creator, _ = get_user_model().objects.get_or_create(username="bench-fit-cut")
    records = []
    try:
        for name in CORPORA:
            with loaded_corpus(name, creator) as (_, now, tz_name):
                for q in read_queries("dev", name):
                    calls.clear()
                    out = search.activities_search(
                        semantic_query=q["query"], limit=LIMIT, time_zone=tz_name, now=now
                    )
                    records.append(
                        {**q, "calls": list(calls), "results": [r["title"] for r in out["results"]]}
                    )
    finally:
        relevance.decide, search.relevant_hits = decide, relevant_hits
    return records


def replay(record: dict, depth, bare_depth, bare_ratio=None) -> list[str]:
    """Return the list the service would give with (depth, bare_depth, bare_ratio)."""
    if not record["calls"]:
        return record["results"]  # the few-rows path: no cut
    call = record["calls"][-1]
    if call["off_topic"]:
        return []
    margins = [call["background"].margin(s) for s in call["scores"]]
    top = max(margins)
    kept = set()
    for margin, has, title in zip(margins, call["hit_evidence"], call["titles"], strict=True):
        limit = depth if has or bare_depth is None else bare_depth
        below = not has and bare_ratio is not None and margin < bare_ratio * top
        if (limit is None or top - margin <= limit) and not below:
            kept.add(title)
    order = [t for t in record["results"] if t in kept]
    order += [t for t in call["titles"] if t in kept and t not in order]
    return order[:LIMIT]


def figures(records: list[dict], depth, bare_depth, bare_ratio=None) -> tuple[float, float]:
    """Return (precision@10, nDCG@5) of the labelled queries under the replayed cut."""
    from bench.activities_relevance import ndcg_at

    precision, ndcg = [], []
    for record in records:
        if record.get("offTopic") or not record["relevant"]:
            continue
        shown = replay(record, depth, bare_depth, bare_ratio)
        good = sum(1 for t in shown if record["relevant"].get(t, 0) >= 1)
        precision.append(good / len(shown) if shown else 0.0)
        ndcg.append(ndcg_at(shown, record["relevant"]))
    return sum(precision) / len(precision), sum(ndcg) / len(ndcg)


def main() -> None:
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django(migrate=True)
    from rag import live
    from rag.models import RagSettings

    # Recorded without the bare ratio and without a depth: every candidate is replayed from it.
    RagSettings.objects.all().delete()
    live.invalidate()
    row = live.get_settings()
    cuts = row.relevance_cuts
    for surfaces in cuts.values():
        if "activities" in surfaces:
            surfaces["activities"].update(depth=None, bareDepth=None, bareRatio=None)
    row.relevance_cuts = cuts
    row.save()
    live.invalidate()
    records = record_dev()
    by_lang = {lang: [r for r in records if r["lang"] == lang] for lang in ("zh", "en")}
    # The baseline: the cut as shipped (bare ratio SHIPPED_BARE_RATIO, no depth).
    base = {lang: figures(rs, None, None, SHIPPED_BARE_RATIO) for lang, rs in by_lang.items()}
    print("shipped, no depth (dev):", {k: [round(x, 3) for x in v] for k, v in base.items()})
    best = None
    for depth, bare, ratio in itertools.product(DEPTHS, DEPTHS, BARE_RATIOS):
        per = {lang: figures(rs, depth, bare, ratio) for lang, rs in by_lang.items()}
        if any(per[lang][1] < base[lang][1] - NDCG_SLACK for lang in per):
            continue
        pooled = figures(records, depth, bare, ratio)[0]
        print(
            f"depth {depth} bareDepth {bare} bareRatio {ratio}: P@10 {pooled:.3f}; "
            + "; ".join(f"{k} P@10 {v[0]:.3f} nDCG@5 {v[1]:.3f}" for k, v in per.items())
        )
        if best is None or pooled > best[0] + 1e-9:
            best = (pooled, depth, bare, ratio)
    print(
        f"\nchosen on dev: depth {best[1]}, bareDepth {best[2]}, bareRatio {best[3]} "
        f"(P@10 {best[0]:.3f}; shipped {figures(records, None, None, SHIPPED_BARE_RATIO)[0]:.3f})"
    )


if __name__ == "__main__":
    main()
