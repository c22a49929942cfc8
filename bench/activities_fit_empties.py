"""Labelled queries answered empty: the stage of each, and what a change moves (issue 30).

Reads recordings of ``bench/activities_fit_offtopic.py --save`` (every query of ``DEV_SETS``
through the search as shipped, with each relevance call and the answer's ``meta.relevance``)
and prints:

1. every labelled (non-offTopic) query answered empty, with the stage that empties it (the
   answer's ``meta.reason``: the intent gate, read by the example margin, the learned score or
   both; a question form; the margin gates; a kind the city lacks) and the numbers it read
   (intent margin against ``intentGate``, learned score, best margin, evidence, the need
   margin against ``NEED_GATE``, whether the rare-word rescue was read);
2. the queries read as an outing (``activities.audience.outing_for``: someone named and
   where they can go) that say what that someone loves (``activities.audience.interest_stated``,
   session 54), off-topic ones first, with what the recording read (``asks``, intent margin,
   rows): the queries the interest form can move (on a recording of the code before it, those
   whose recorded ``asks`` is not "outing");
3. with ``--after``, a recording of the changed code: per set and language, recording ->
   after, nDCG@5 and P@10 of the labelled queries (lists scored against each query's full
   labels, a time query's window not applied: a little off the published figures), labelled
   and off-topic queries answered empty; then every answer that differs, title for title.

Nothing is fitted here: a rule with no constant of its own holds each set out by itself (the
held-out row of a set is its own row).

    .venv/bin/python bench/activities_fit_offtopic.py --save /tmp/before.pkl
    .venv/bin/python bench/activities_fit_empties.py --load /tmp/before.pkl [--after AFTER.pkl]
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402
from bench.activities_fit_chat import _ndcg5, _p10, _vector  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_offtopic"


def _f(x) -> str:
    return "-" if x is None else f"{x:.4f}"


def stage(record: dict) -> str:
    """Return the stage that emptied a recorded answer, read off its ``meta.reason`` and
    ``meta.relevance``."""
    from activities.search_relevance import ABSENT_REASON
    from rag import relevance

    reason, rel = record.get("reason"), record.get("relevance") or {}
    if reason == relevance.INTENT_REASON:
        margin, learned = rel.get("intentMargin"), rel.get("intentLearned")
        by = []
        if margin is not None and margin > rel.get("intentGate", float("inf")):
            by.append("example margin")
        if learned is not None and learned > 0:
            by.append("learned score")
        return f"intent gate ({' and '.join(by) or '?'})"
    names = {
        relevance.QUESTION_REASON: "question form",
        relevance.NOISE_REASON: "noise",
        relevance.BARE_REASON: "bare gate",
        relevance.OFF_TOPIC_REASON: "margin gate",
        ABSENT_REASON: "a kind the city lacks",
    }
    return names.get(reason, f"no rows ({record['path']}, {reason})")


def labelled_empties(records: list[dict]) -> None:
    """Print every labelled query answered empty, its stage and the numbers it read."""
    from activities.search_relevance import INTENT_LEARNED, NEED_GATE, need_margin
    from rag import intent

    rows = [r for r in records if not r.get("offTopic") and not r["results"]]
    print(f"## labelled queries answered empty ({len(rows)}); NEED_GATE {NEED_GATE}")
    print("set | lang | query | stage | asks | intent margin | learned | best | ev | need | rare")
    for r in rows:
        rel, vector = r.get("relevance") or {}, _vector(r)
        learned = rel.get("intentLearned")
        if learned is None and vector is not None:
            learned = intent.learned_score(vector, INTENT_LEARNED)
        need = need_margin(vector) if vector is not None else None
        print(
            f"{r['set']} | {r['lang']} | {r['query']} | {stage(r)} | {rel.get('asks')} | "
            f"{_f(rel.get('intentMargin'))} | {_f(learned)} | {_f(rel.get('topMargin'))} | "
            f"{rel.get('evidence')} | {_f(need)} | {rel.get('namedRare')}"
        )


def interest_readings(records: list[dict]) -> None:
    """Print the queries read as an outing that say what someone loves (the interest form)."""
    from activities.audience import interest_stated, outing_for

    rows = [r for r in records if interest_stated(r["query"]) and outing_for(r["query"])]
    rows.sort(key=lambda r: (not r.get("offTopic"), list(DEV_SETS).index(r["set"])))
    print(f"\n## queries naming someone and what they love ({len(rows)})")
    print("kind | set | lang | query | persons | asks recorded | intent margin | rows recorded")
    for r in rows:
        rel = r.get("relevance") or {}
        print(
            f"{'OFF' if r.get('offTopic') else 'labelled'} | {r['set']} | {r['lang']} | "
            f"{r['query']} | {sorted(outing_for(r['query']))} | {rel.get('asks')} | "
            f"{_f(rel.get('intentMargin'))} | {len(r['results'])}"
        )


def _figures(sub: list[dict]) -> list[str]:
    lab = [r for r in sub if not r.get("offTopic") and r.get("relevant")]
    off = [r for r in sub if r.get("offTopic")]
    nd = sum(_ndcg5(r["results"], r["relevant"]) for r in lab) / max(len(lab), 1)
    p = sum(_p10(r["results"], r["relevant"]) for r in lab) / max(len(lab), 1)
    return [
        f"{nd:.4f}",
        f"{p:.4f}",
        str(sum(not r["results"] for r in lab)),
        f"{sum(not r['results'] for r in off)}/{len(off)}",
    ]


def compare(before: list[dict], after: list[dict]) -> None:
    """Print per set and language the recording -> after, then every answer that differs."""
    print("\n## per set (recording -> after)")
    print("set | lang | nDCG@5 | P@10 | labelled answered empty | off-topic answered empty")
    for name in DEV_SETS:
        for lang in ("zh", "en"):
            b = [r for r in before if r["set"] == name and r["lang"] == lang]
            a = [r for r in after if r["set"] == name and r["lang"] == lang]
            if not b:
                continue
            cells = zip(_figures(b), _figures(a), strict=True)
            print(f"{name} | {lang} | " + " | ".join(f"{x} -> {y}" for x, y in cells))
    for lang in ("zh", "en"):
        b = [r for r in before if r["lang"] == lang]
        a = [r for r in after if r["lang"] == lang]
        cells = zip(_figures(b), _figures(a), strict=True)
        print(f"all (pooled) | {lang} | " + " | ".join(f"{x} -> {y}" for x, y in cells))
    keyed = {(r["set"], r.get("corpus"), r["query"]): r for r in before}
    changed = [
        (keyed.get((r["set"], r.get("corpus"), r["query"])), r)
        for r in after
        if (old := keyed.get((r["set"], r.get("corpus"), r["query"]))) is None
        or old["results"] != r["results"]
    ]
    print(f"\n## answers that differ ({len(changed)} of {len(after)})")
    for old, new in changed:
        kind = "OFF" if new.get("offTopic") else "labelled"
        print(f"{kind} | {new['set']} | {new['query']}")
        print(f"   before: {old['results'] if old else None}")
        print(f"   after:  {new['results']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--load", required=True)
    parser.add_argument("--after")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    setup_django()
    records = pickle.loads(Path(args.load).read_bytes())
    labelled_empties(records)
    interest_readings(records)
    if args.after:
        after = pickle.loads(Path(args.after).read_bytes())
        print("\n# the after recording")
        labelled_empties(after)
        compare(records, after)


if __name__ == "__main__":
    main()
