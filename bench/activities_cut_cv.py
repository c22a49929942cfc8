"""Cross-validate the activities per-hit cut on two halves of the development data.

Issue 30: the old held-out dev+test (bench/data/activities_heldout_queries.jsonl, half "old")
and the first fresh split (activities_fresh_queries.jsonl, half "fresh") are both development
data now; a later fresh split is the test set and is never read here. Every query of both
halves goes through ``activities_search`` once with every per-hit rule open (no ratio, depth
or pool rule; the gates as shipped), recording what the cut was given (the hits' similarities,
the query's background, which hits name a word or cue of the query) and the service's fused
order (bench/activities_fit_cut.py records the same way). Then the per-hit cut is replayed
offline: the margin rules as shipped before the pool rule (bare ratio 0.7, depth 0.3), and the
pool rule on a grid of ``poolZ`` x ``poolZEvidence`` (with the margin rules below
``rag.pool_stats.POOL_MIN`` candidates, and ``KEEP_BEST``), as ``rag.relevance.decide`` applies
them. The replay keeps the service's order among the hits kept; it reproduced the real runs of
bench/activities_heldout.py to the third decimal on both halves.

For each half it picks, on that half alone, the cell with the best precision@10 (the lower of
zh and en) whose nDCG@5 stays within ``NDCG_KEEP`` of the margin rules' in each language, and
prints it measured on both halves: a choice that holds on the half it was not fitted on is
likely to hold on the test split. Never writes docs/BENCHMARKS.md.

    .venv/bin/python bench/activities_cut_cv.py [--save /tmp/cv.pkl] [--load /tmp/cv.pkl]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402

DB_NAME = "bench_activities_cut_cv"
LIMIT = 10
HALVES = {"old": "all", "fresh": "fresh"}  # half: split of bench/activities_heldout.py
POOL_Z = [0.5, 0.75, 1.0, 1.25, 1.5]
POOL_Z_EVIDENCE = [-0.25, 0.0, 0.25, 0.5]
NDCG_KEEP = 0.005
# The per-hit rules off, the gates as shipped (rag.models.DEFAULT_RELEVANCE_CUTS).
OPEN = {"ratio": None, "bareRatio": None, "depth": None, "poolZ": None, "poolZEvidence": None}
MARGINS = {"bareRatio": 0.7, "depth": 0.3}  # the per-hit cut before the pool rule (rag 0016)


def record(halves: dict | None = None) -> list[dict]:
    """Run every query of ``halves`` (default :data:`HALVES`: {half: split}) with the per-hit
    rules open; return one record each. Each recorded call also keeps what the learned ranker
    reads of its candidates (``pool``: activities.search_ranker.pool_of). The learned precision
    gate is open too (its threshold 0: it drops nothing), as the per-hit rules are."""
    from django.contrib.auth import get_user_model

    import activities.search as search
    from activities import search_ranker
    from activities.models import Activity
    from activities.negation import negated_terms
    from activities.reasons import query_terms
    from activities.search_filters import hard_filter, parse_filters
    from activities.search_kind import meta_similarity
    from activities.search_ranker import pool_of
    from activities.search_ranking import (
        cue_counts,
        cue_ranking,
        fusion_held,
        lexical_held,
        lexical_ranking,
        naming_pks,
        refused_similarity,
    )
    from bench.activities_fit_cut import set_cut
    from bench.activities_heldout import TUNING_CORPORA, labels_of, loaded_corpus, read_queries
    from rag import relevance
    from rag.embeddings import embed_query
    from rag.search import vector_search

    calls: list[dict] = []
    decide, relevant_hits, hybrid = relevance.decide, search.relevant_hits, search.hybrid_scores

    def recording_decide(scores, background, cut, **kw):
        calls.append(
            {
                "scores": [float(s) for s in scores],
                "background": background,
                "kw": {k: v for k, v in kw.items() if k != "keep_best"},
            }
        )
        return decide(scores, background, cut, **{**kw, "keep_best": 0})

    def recording_hits(hits, vector, meta, **kw):
        count = len(calls)
        kept = relevant_hits(hits, vector, meta, **kw)
        if len(calls) > count:
            call = calls[-1]
            call["titles"] = [hit.obj.title for hit in hits]
            margins = [call["background"].margin(s) for s in call["scores"]]
            query, understood = kw.get("query", ""), kw.get("understood")
            held = lexical_held(query, [h.obj for h in hits])
            named = kw.get("named")
            if named is None:  # a caller that did not read it (the time window's probe)
                named = naming_pks(query, [h.obj for h in hits], understood, held=held)
            call["pool"] = pool_of(
                hits, margins, named=named, understood=understood, query=query, held=held
            )
            # The query's vector and the candidates' (read apart: the search defers them), for
            # an order reading the candidates' similarity to one another
            # (bench/activities_fit_fusion.py).
            call["vector"] = np.asarray(vector, dtype=np.float32)
            vectors = dict(
                Activity.objects.filter(pk__in=[hit.obj.pk for hit in hits]).values_list(
                    "pk", "embedding"
                )
            )
            call["embeddings"] = np.asarray([vectors[hit.obj.pk] for hit in hits], dtype=np.float32)
        return kept

    def recording_hybrid(hits, query, **kw):
        fused = hybrid(hits, query, **kw)
        titles = {hit.obj.pk: hit.obj.title for hit in hits}
        activities = [hit.obj for hit in hits]
        calls[-1]["fused"] = {titles[pk]: score for pk, score in fused.items()}
        # What the fusion reads of each candidate, apart (bench/activities_fit_fusion.py
        # refits it): the query's content words each holds and its kind and mood cues.
        held = kw.get("held") or {}
        counts = cue_counts(activities, kw.get("understood"))
        asked = cue_counts(activities, kw.get("understood"), negated=False)
        refused = cue_counts(activities, kw.get("understood"), negated=True)
        refused_terms = negated_terms(query, query_terms(query))
        plain = fusion_held(activities, held, refused_terms)
        understood = kw.get("understood")
        like = refused_similarity(activities, kw.get("refused", ()))
        meta_like = meta_similarity(activities, kw.get("vector"))
        kinds_asked = cue_counts(
            activities,
            dataclasses.replace(understood, moods=()) if understood is not None else None,
            negated=False,
        )
        calls[-1]["lists"] = {
            "dense": [hit.obj.title for hit in hits],
            "lexical": [titles[pk] for pk in lexical_ranking(query, activities, held=held)],
            "cue": [titles[pk] for pk in cue_ranking(activities, kw.get("understood"))],
            "terms": query_terms(query),
            "held": {a.title: sorted(held.get(a.pk, ())) for a in activities},
            "cues": {a.title: c for a, c in zip(activities, counts, strict=True)},
            # The same apart: the words and cues under a negation of the query
            # (activities.negation), and the cues outside one.
            "negated": sorted(refused_terms),
            "held_plain": {a.title: sorted(h) for a, h in zip(activities, plain, strict=True)},
            "kinds_asked": dict(zip(titles.values(), kinds_asked, strict=True)),
            "cues_asked": dict(zip(titles.values(), asked, strict=True)),
            "cues_refused": dict(zip(titles.values(), refused, strict=True)),
            # Each candidate's similarity to what the query refuses, read by meaning (None: the
            # query refuses nothing).
            "refused_like": (
                dict(zip(titles.values(), like, strict=True)) if like is not None else None
            ),
            # Each candidate's similarity to the query by its kind vector (type and tags
            # embedded apart; None: the row has none).
            "meta_like": (
                dict(zip(titles.values(), meta_like, strict=True))
                if meta_like is not None
                else None
            ),
        }
        return fused

    search.relevant_hits, search.hybrid_scores = recording_hits, recording_hybrid
    relevance.decide = recording_decide
    threshold, search_ranker.THRESHOLD = search_ranker.THRESHOLD, 0.0
    second, search_ranker.SECOND_THRESHOLD = search_ranker.SECOND_THRESHOLD, 0.0
    floor, search_ranker.FLOOR_THRESHOLD = search_ranker.FLOOR_THRESHOLD, 0.0
    creator, _ = get_user_model().objects.get_or_create(username="bench-cut-cv")
    records = []
    try:
        for name in TUNING_CORPORA:
            with loaded_corpus(name, creator) as (_, now, tz_name):
                eligible = set(
                    hard_filter(parse_filters({}), now=now).values_list("title", flat=True)
                )
                starts = dict(Activity.objects.values_list("title", "start_at"))
                for half, split in (halves or HALVES).items():
                    for q in read_queries(split, name):
                        set_cut(**OPEN)
                        calls.clear()
                        ask = {"semantic_query": q["query"], "limit": LIMIT, "time_zone": tz_name}
                        out = search.activities_search(now=now, **ask)
                        time = (out["meta"].get("understood") or {}).get("time") or {}
                        rec = {
                            **q,
                            "half": half,
                            # A decision made without candidates (a query-level one before
                            # any hit was read) has nothing to replay: replay reads the first
                            # call with its titles (fit_fusion's replay stopped on one: a
                            # helper's report, session 54).
                            "calls": [c for c in calls if "titles" in c],
                            "path": out["meta"]["path"],
                            "applied": time.get("applied"),
                            "results": [r["title"] for r in out["results"]],
                            "wide": None,
                        }
                        if rec["applied"] == "filter":
                            # The gate closed: the service judges the widened pool too.
                            set_cut(**{**OPEN, "gate": 1.0})
                            calls.clear()
                            search.activities_search(now=now, **ask)
                            widened = len(calls) > 1 and "titles" in calls[-1]
                            rec["wide"] = calls[-1] if widened else None
                        joinable = hard_filter(parse_filters({}), now=now)
                        hits, _ = vector_search(joinable, embed_query(q["query"]), k=LIMIT)
                        rec["bare"] = [hit.obj.title for hit in hits]
                        rec["relevant_kept"] = labels_of(q, eligible, starts, now, tz_name)[1]
                        records.append(rec)
                print(f"{name}: recorded", flush=True)
    finally:
        relevance.decide, search.relevant_hits = decide, relevant_hits
        search.hybrid_scores = hybrid
        search_ranker.THRESHOLD = threshold
        search_ranker.SECOND_THRESHOLD = second
        search_ranker.FLOOR_THRESHOLD = floor
    return records


def _kept(call: dict, params) -> tuple[bool, str | None, list[str]]:
    """Return (off_topic, reason, titles kept) of a recorded call under ``params`` (a dict,
    or a function of the call giving one: a rule that reads the query, as
    bench/activities_cut_vague.py replays; ``keepBest`` in it replaces the shipped KEEP_BEST)."""
    from activities.search_relevance import KEEP_BEST
    from rag.relevance import cut_for, decide

    if callable(params):
        params = params(call)
    cut = dataclasses.replace(
        cut_for("activities"),  # the shipped gates (set_cut(**OPEN) left them)
        bare_ratio=params.get("bareRatio"),
        depth=params.get("depth"),
        pool_z=params.get("poolZ"),
        pool_z_evidence=params.get("poolZEvidence"),
    )
    keep_best = params.get("keepBest", KEEP_BEST)
    decision = decide(call["scores"], call["background"], cut, **call["kw"], keep_best=keep_best)
    titles = [t for t, keep in zip(call["titles"], decision.keep, strict=True) if keep]
    return decision.off_topic, decision.reason, titles


def replay(rec: dict, params, gate=None) -> list[str]:
    """Return the list the service would give under ``params`` (see the module docstring;
    a dict, or a function of the call giving one).

    ``gate``: a function of the on-topic call and the titles the cut kept, in order, giving
    the titles to show (the learned precision gate, bench/activities_fit_ranker.py).
    """
    from rag.relevance import INTENT_REASON, NOISE_REASON, QUESTION_REASON

    if not rec["calls"]:
        return rec["results"]
    call = rec["calls"][0]
    off, reason, kept = _kept(call, params)
    if rec["path"] == "hard_filter_small":
        return [] if off else rec["results"]
    if off and rec["applied"] == "filter" and rec["wide"] is not None:
        if reason in (INTENT_REASON, NOISE_REASON, QUESTION_REASON):
            return []
        call = rec["wide"]
        off, _, kept = _kept(call, params)
        if off:
            return []
        rec_order = []
    elif off:
        return []
    else:
        rec_order = rec["results"]
    fused = call.get("fused")
    if fused and rec["applied"] != "rank":
        shown = sorted(kept, key=lambda t: -fused.get(t, 0.0))
    else:
        order = [t for t in rec_order if t in kept]
        shown = order + [t for t in call["titles"] if t in kept and t not in order]
    return (shown if gate is None else gate(call, shown[:LIMIT]))[:LIMIT]


def figures(records: list[dict], params: dict | None, *, halves=HALVES, answer=None) -> dict:
    """Return {(half, lang): nDCG@5, P@10, results per query, off-topic empty, labelled empty}
    (``params`` None: the bare model; ``answer``: a function of a record giving the list
    shown, in place of :func:`replay` under ``params``)."""
    from bench.activities_relevance import ndcg_at

    out = {}
    for half in halves:
        for lang in ("zh", "en"):
            ndcg, precision, sizes, off, empty = [], [], [], [], 0
            for rec in records:
                if rec["half"] != half or rec["lang"] != lang:
                    continue
                if answer is not None:
                    shown = answer(rec)
                else:
                    shown = rec["bare"] if params is None else replay(rec, params)
                if rec.get("offTopic"):
                    off.append(not shown)
                    continue
                empty += not shown
                relevant = rec["relevant_kept"]
                if not relevant:
                    continue
                sizes.append(len(shown))
                good = sum(1 for t in shown if relevant.get(t, 0) >= 1)
                precision.append(good / len(shown) if shown else 0.0)
                ndcg.append(ndcg_at(shown, relevant))

            def mean(values):
                return sum(values) / len(values) if values else float("nan")

            out[(half, lang)] = {
                "ndcg5": mean(ndcg),
                "p10": mean(precision),
                "size": mean(sizes),
                "off_empty": mean(off),
                "empty": empty,
            }
    return out


def _line(label: str, fig: dict) -> str:
    cells = " | ".join(
        f"{half} {lang} {f['ndcg5']:.3f} {f['p10']:.3f} {f['size']:.1f} "
        f"off {f['off_empty']:.2f} empty {f['empty']}"
        for (half, lang), f in fig.items()
    )
    return f"{label:34s} {cells}"


def recorded(description: str, halves: dict | None = None, db_name: str = DB_NAME) -> list[dict]:
    """Parse ``--save`` / ``--load``, open the per-hit cut and return the recorded queries of
    ``halves`` (see :func:`record`) run in the database ``db_name``: replayed from ``--load``,
    else run (and pickled to ``--save``). The one entry of the benches that replay a recording."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--save", help="pickle the recorded queries here")
    parser.add_argument("--load", help="replay recorded queries instead of running them")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(db_name)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django(migrate=True)
    from bench.activities_fit_cut import set_cut

    set_cut(**OPEN)
    if args.load:
        return pickle.loads(Path(args.load).read_bytes())
    records = record(halves)
    # The recording leaves the cut of its last widened query (gate 1.0); replay the shipped one.
    set_cut(**OPEN)
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(records))
    return records


def main() -> None:
    records = recorded(__doc__.split("\n")[0])
    print("per cell: nDCG@5, P@10, results per labelled query, off-topic empty, labelled empty")
    print(_line("bare model", figures(records, None)))
    before = figures(records, MARGINS)
    print(_line("margin rules (bareRatio 0.7, depth 0.3)", before))
    grid = {
        (z, z_evidence): figures(records, {**MARGINS, "poolZ": z, "poolZEvidence": z_evidence})
        for z in POOL_Z
        for z_evidence in POOL_Z_EVIDENCE
        if z_evidence <= z
    }
    for (z, z_evidence), fig in grid.items():
        print(_line(f"poolZ {z} poolZEvidence {z_evidence}", fig))
    for half in HALVES:
        keeping = [
            cell
            for cell, fig in grid.items()
            if all(
                fig[(half, lang)]["ndcg5"] >= before[(half, lang)]["ndcg5"] - NDCG_KEEP
                for lang in ("zh", "en")
            )
        ]
        if not keeping:
            print(f"fitted on {half}: no cell keeps nDCG@5 within {NDCG_KEEP}")
            continue
        best = max(
            keeping, key=lambda c: min(grid[c][(half, lang)]["p10"] for lang in ("zh", "en"))
        )
        print(
            f"fitted on {half} ({len(keeping)} of {len(grid)} cells keep nDCG@5): poolZ "
            f"{best[0]} poolZEvidence {best[1]}"
        )
        print(_line("  measured on both halves", grid[best]))


if __name__ == "__main__":
    main()
