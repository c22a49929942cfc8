"""Leave-one-set-out check of the activities off-topic decision (issue 30).

The off-topic decision is made per query (rag.relevance.decide: the question, noise and intent
rules and the margin gates), so whether a change to it generalises is a query-level question:
does it empty the off-topic queries of a set it was not chosen on, without emptying a labelled
query? ``record`` runs every query of the five development sets (old dev+test, fresh, fresh2,
fresh3 on chengdu and london_en; fresh4 on hangzhou and toronto_en) once through
``activities_search`` as shipped, keeping what each relevance decision was given (scores,
background, flags, the query vector) and the answer. ``replay`` re-decides each recorded call
with the intent margin read against other example files (the files under test), as
``rag.relevance.decide`` would; a query whose answer is not made empty or kept is left as
recorded. nDCG@5 changes only where a labelled query's answer becomes empty (counted).

    .venv/bin/python bench/activities_fit_offtopic.py --save /tmp/offtopic.pkl
    .venv/bin/python bench/activities_fit_offtopic.py --load /tmp/offtopic.pkl
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402

DB_NAME = "bench_activities_fit_offtopic"
LIMIT = 10
# set name: split of bench/activities_heldout.py (old = dev + test of the first file).
SETS = {"old": "all", "fresh": "fresh", "fresh2": "fresh2", "fresh3": "fresh3", "fresh4": "fresh4"}


def record() -> list[dict]:
    """Run every query of :data:`SETS` through the search as shipped; one record each."""
    from django.contrib.auth import get_user_model

    import activities.search as search
    from bench.activities_heldout import TUNING_CORPORA, loaded_corpus, read_queries
    from rag import relevance

    calls: list[dict] = []
    decide, relevant_hits = relevance.decide, search.relevant_hits

    def recording_decide(scores, background, cut, **kw):
        calls.append(
            {
                "scores": [float(s) for s in scores],
                "background": background,
                "kw": {k: v for k, v in kw.items()},
            }
        )
        return decide(scores, background, cut, **kw)

    def recording_hits(hits, vector, meta, **kw):
        count = len(calls)
        kept = relevant_hits(hits, vector, meta, **kw)
        if len(calls) > count:
            calls[-1]["vector"] = np.asarray(vector, dtype=np.float32)
        return kept

    search.relevant_hits, relevance.decide = recording_hits, recording_decide
    creator, _ = get_user_model().objects.get_or_create(username="bench-fit-offtopic")
    records = []
    try:
        for name in TUNING_CORPORA:
            with loaded_corpus(name, creator) as (_, now, tz_name):
                for set_name, split in SETS.items():
                    for q in read_queries(split, name):
                        calls.clear()
                        ask = {"semantic_query": q["query"], "limit": LIMIT, "time_zone": tz_name}
                        out = search.activities_search(now=now, **ask)
                        understood = out["meta"].get("understood") or {}
                        records.append(
                            {
                                **q,
                                "set": set_name,
                                "calls": list(calls),
                                "path": out["meta"]["path"],
                                "applied": (understood.get("time") or {}).get("applied"),
                                "reason": out["meta"].get("reason"),
                                "results": [r["title"] for r in out["results"]],
                            }
                        )
                print(f"{name}: recorded", flush=True)
    finally:
        relevance.decide, search.relevant_hits = decide, relevant_hits
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save")
    parser.add_argument("--load")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    if args.load:
        records = pickle.loads(Path(args.load).read_bytes())
    else:
        os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
        setup_django(migrate=True)
        from config import live
        from rag.models import RagSettings

        RagSettings.objects.all().delete()
        live.invalidate()
        records = record()
        if args.save:
            Path(args.save).write_bytes(pickle.dumps(records))
    for set_name in SETS:
        for lang in ("zh", "en"):
            sub = [r for r in records if r["set"] == set_name and r["lang"] == lang]
            off = [r for r in sub if r.get("offTopic")]
            lab = [r for r in sub if not r.get("offTopic")]
            print(
                set_name,
                lang,
                f"off-topic empty {sum(not r['results'] for r in off)}/{len(off)}",
                f"labelled empty {sum(not r['results'] for r in lab)}/{len(lab)}",
            )


if __name__ == "__main__":
    main()
