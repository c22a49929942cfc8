"""Shopping and comparison forms read over a recording, left out one set at a time (issue 30).

Reads a recording of ``bench/activities_fit_offtopic.py --save`` (every query of ``DEV_SETS``
through the search as it was recorded) and prints:

1. every off-topic query the recorded service answers with listings, with what let it through
   (``bench.activities_fit_chat.answered_off_topic``), then the form of this round that reads
   it, if any: a part of ``rag.understand.shopping`` (a shop's opening hours: "open_when",
   "what_time", "zh_hours"; goods by price: "priced", "new", "under_sum") or the comparison of
   ``rag.understand.opinions`` ("compare");
2. every query, off-topic or labelled, that the current code reads as a question
   (``activities.search_relevance.question_form``) and the recorded run answered: the query
   the current code answers empty (a question is off-topic whatever the scores);
3. per set and language, recorded -> with the forms **held out**: a query is emptied only when
   the part reading it reads a query of another set too (a part no other set holds would not
   have been written with that set out); then the same with every part (in sample). nDCG@5 and
   P@10 are scored on the recorded lists against each query's full labels (a time query's
   window not applied), so they sit under the published figures; only an emptied labelled
   query could move them.

    .venv/bin/python bench/activities_fit_offtopic.py --save /tmp/offtopic.pkl
    .venv/bin/python bench/activities_fit_shopping.py --load /tmp/offtopic.pkl
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402
from bench.activities_fit_chat import answered_off_topic, per_set  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_offtopic"


def form_part(query: str) -> str | None:
    """Return the part of this round's forms that reads ``query``, or None."""
    from rag.understand.opinions import comparison
    from rag.understand.shopping import shopping_form

    return shopping_form(query) or ("compare" if comparison(query) else None)


def newly_read(records: list[dict]) -> list[dict]:
    """Return the records the recorded run answered that the current code reads as a
    question (answered empty now), each with the part of this round's forms reading it."""
    from activities.search_relevance import question_form

    out = []
    for r in records:
        if r["results"] and question_form(r["query"]) == "elsewhere":
            out.append({**r, "part": form_part(r["query"])})
    return out


def held_out(records: list[dict], read: list[dict]) -> set[tuple[str, str]]:
    """Return (set, query) emptied with each set held out: read by a part that reads a query
    (answered or not) of another set too."""
    sets_of: dict[str, set[str]] = {}
    for r in records:
        part = form_part(r["query"])
        if part:
            sets_of.setdefault(part, set()).add(r["set"])
    return {
        (r["set"], r["query"])
        for r in read
        if r["part"] is None or sets_of.get(r["part"], set()) - {r["set"]}
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--load", required=True)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    setup_django()
    records = pickle.loads(Path(args.load).read_bytes())
    answered_off_topic(records)
    print("\n## the form of this round reading each off-topic query answered")
    for r in records:
        if r.get("offTopic") and r["results"]:
            print(f"{r['lang']} | {r['set']} | {r['query']} | {form_part(r['query'])}")
    read = newly_read(records)
    print(f"\n## answered in the recording, a question to the current code ({len(read)})")
    print("set | lang | label | query | part | parts' other sets")
    for r in read:
        others = sorted(
            {x["set"] for x in records if form_part(x["query"]) == r["part"]} - {r["set"]},
            key=list(DEV_SETS).index,
        )
        label = "off-topic" if r.get("offTopic") else "LABELLED"
        print(
            f"{r['set']} | {r['lang']} | {label} | {r['query']} | {r['part']} | "
            f"{', '.join(others) or 'none'}"
        )
    print("\n# held out: a part emptying a query only when it reads one of another set")
    per_set(records, held_out(records, read))
    print("\n# in sample: every part")
    per_set(records, {(r["set"], r["query"]) for r in read})


if __name__ == "__main__":
    main()
