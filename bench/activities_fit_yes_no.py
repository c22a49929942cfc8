"""Labelled queries answered empty, and the yes/no questions the intent gate reads (issue 30).

Reads a recording of ``bench/activities_fit_offtopic.py --save`` (every query of ``DEV_SETS``
through the search as shipped, with each relevance call's scores and the answer's
``meta.relevance``) and prints:

1. every labelled query answered empty, with the stage that emptied it (``meta.reason``) and
   the numbers the decision read: the intent margin against ``intentGate``, the learned score,
   the best margin, the best hit's standout (``rag.pool_stats.standout``), the best hit;
2. every query answered empty as a question by the yes/no reading alone
   (``activities.search_relevance.question_form`` "yes_no": a yes/no question naming no activity,
   kind or time), with its intent margin and learned score, and whether the intent gate reads
   it as a request (the margin at or under ``intentGate``, the learned
   score not above 0): the rule session 52 shipped and reverted after its audit (it answered
   off-topic health questions such as 老人能喝咖啡吗; docs/RELEVANCE.md);
3. leave one set out, the same reading with a free bound T on the intent margin in place of
   the intent gate: on the other sets, the run of T answering the most labelled yes/no
   questions and no off-topic one, its middle measured on the held-out set, beside the intent
   gate (no constant of its own).

A query the rule answers lists what the real search lists: re-run its split with
``bench/activities_heldout.py --split S`` (the recording holds the candidates, not the cut).

    .venv/bin/python bench/activities_fit_offtopic.py --save /tmp/offtopic.pkl
    .venv/bin/python bench/activities_fit_yes_no.py --load /tmp/offtopic.pkl
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_offtopic"


def _first_call(record: dict) -> dict | None:
    """Return the record's first relevance call that read hits (a probe may read none)."""
    return next((call for call in record["calls"] if call.get("titles")), None)


def rows_of(records: list[dict]) -> list[dict]:
    """Return one row per query emptied at the query level, with what the decision read."""
    from activities.search_relevance import question_form
    from rag.relevance import QUESTION_REASON, standout

    rows = []
    for r in records:
        call = _first_call(r)
        if r["results"] or call is None:
            continue
        best = max(range(len(call["scores"])), key=lambda i: call["scores"][i])
        rows.append(
            {
                "set": r["set"],
                "lang": r["lang"],
                "query": r["query"],
                "off_topic": bool(r.get("offTopic")),
                "reason": (r["reason"] or "")[:48],
                # The form read without the query's understanding: only a question's reading.
                "form": question_form(r["query"]) if r["reason"] == QUESTION_REASON else None,
                "intent": call["kw"].get("intent"),
                "learned": call["kw"].get("learned"),
                "top": (r["relevance"] or {}).get("topMargin"),
                "standout": standout(call["scores"]),
                "best": call["titles"][best],
            }
        )
    return rows


def _answered(row: dict, bound: float) -> bool:
    """Return whether a yes/no question is read as a request under ``bound``."""
    learned = row["learned"]
    return row["intent"] is not None and row["intent"] <= bound and not (learned or 0) > 0


def report(rows: list[dict], gate: float) -> None:
    """Print the three parts of the module docstring."""
    print("## Labelled queries answered empty")
    for row in rows:
        if not row["off_topic"]:
            print(
                f"{row['set']} | {row['lang']} | {row['query']} | {row['reason']} | form "
                f"{row['form']} | intent {row['intent']:.4f} (gate {gate}) | learned "
                f"{row['learned']} | top {row['top']} | standout {row['standout']:.2f} | "
                f"{row['best']}"
            )
    yes_no = [r for r in rows if r["form"] == "yes_no"]
    print("\n## Emptied by the yes/no reading alone")
    for row in yes_no:
        print(
            f"{row['set']} | {row['lang']} | {'off-topic' if row['off_topic'] else 'labelled'} | "
            f"{row['query']} | intent {row['intent']:.4f} | learned {row['learned']} | read as a "
            f"request by the gate: {_answered(row, gate)}"
        )
    print("\n## Leave one set out: a free bound T against the intent gate")
    margins = sorted(r["intent"] for r in yes_no if r["intent"] is not None)
    bounds = [(a + b) / 2 for a, b in zip(margins, margins[1:], strict=False)]
    bounds = [margins[0] - 1e-4, *bounds, margins[-1] + 1e-4] if margins else []
    for held in DEV_SETS:
        train = [r for r in yes_no if r["set"] != held]
        scored = []
        for bound in bounds:
            if not any(_answered(r, bound) for r in train if r["off_topic"]):
                answered = sum(_answered(r, bound) for r in train if not r["off_topic"])
                scored.append((answered, bound))
        best = max(count for count, _ in scored)
        run = [bound for count, bound in scored if count == best]
        chosen = (min(run) + max(run)) / 2
        out = [r for r in yes_no if r["set"] == held]
        if not out:
            continue
        for lang in ("zh", "en"):
            sub = [r for r in out if r["lang"] == lang]
            if sub:
                print(
                    f"{held} | {lang} | T run {min(run):.4f}..{max(run):.4f}, chosen "
                    f"{chosen:.4f} | answered by T: "
                    f"{[(r['query'], r['off_topic']) for r in sub if _answered(r, chosen)]} | by "
                    f"the gate: {[(r['query'], r['off_topic']) for r in sub if _answered(r, gate)]}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--load", required=True)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    setup_django(migrate=False)
    from rag.relevance import cut_for

    records = pickle.loads(Path(args.load).read_bytes())
    report(rows_of(records), cut_for("activities").intent_gate)


if __name__ == "__main__":
    main()
