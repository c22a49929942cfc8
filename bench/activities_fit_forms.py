"""Form readings of off-topic queries, read again over a recording, left out one set at a time
(issue 30, session 55).

Reads a recording of ``bench/activities_fit_offtopic.py --save`` (every query of ``DEV_SETS``
through the search as shipped when it was recorded) and reads every query again with the code
on disk, where a form reading empties an answer whatever the scores:

- ``activities.search_relevance.answer_question`` (a question: small talk, small talk after a
  form of address, schoolwork, an information request...): the relevance decision's
  ``question`` flag, or the small path's own check, answers empty.

(The weather, tips and shore readings this bench first measured were withdrawn after session
55's audit: docs/RELEVANCE.md.)

A query the recording answered and the code on disk reads so is answered empty; nothing else
changes (nDCG@5 and P@10 move only where a labelled answer is emptied). It prints every query
whose reading changed, then per set and language: nDCG@5, P@10 (lists scored against each
query's full labels, a time window not applied: a little off the published figures), labelled
and off-topic queries answered empty, recorded -> held out -> all forms.

Held out: a form written after a set's queries had been seen is absent when that set is held
out, unless another set showed the same form (:data:`WRITTEN_AFTER`); so the held-out column
is what the forms would have done to a set nobody had looked at.

    .venv/bin/python bench/activities_fit_offtopic.py --save /tmp/offtopic.pkl
    .venv/bin/python bench/activities_fit_forms.py --load /tmp/offtopic.pkl
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402
from bench.activities_fit_chat import _ndcg5, _p10  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_offtopic"
# Which sets each reading of session 55 was written after (its queries seen answered). Small
# talk after a form of address: fresh24's 「靓仔 食咗饭未啊」 and fresh25's 「老乡 吃了没咧」, one
# form twice, so either set held out still has it from the other. A kind of exam question
# (「英语完形填空有甚技巧」) from fresh25 alone.
WRITTEN_AFTER = {
    "opening": ("fresh24", "fresh25"),
    "other forms": ("fresh25",),
}


def readings(records: list[dict]) -> dict[tuple[str, str], str]:
    """Return, per (set, query) the recording answered, the reading of the code on disk that
    answers it empty ("opening", "other forms"); a query read by none is absent."""
    from django.utils import timezone

    from activities.search_relevance import answer_question, read_query, user_zone
    from rag.understand.small_talk import addressed_small_talk

    found = {}
    for r in records:
        if not r["results"]:
            continue
        query = r["query"]
        recorded_question = any(c["kw"].get("question") for c in r["calls"])
        understood = read_query(query, now=timezone.now(), tz=user_zone(None))
        if not recorded_question and answer_question(query, understood):
            opening = addressed_small_talk(query)
            found[(r["set"], query)] = "opening" if opening else "other forms"
    return found


def held_out(found: dict[tuple[str, str], str]) -> set[tuple[str, str]]:
    """Return the (set, query) the readings empty with each set held out in turn."""
    return {
        (name, query) for (name, query), form in found.items() if set(WRITTEN_AFTER[form]) - {name}
    }


def report(records: list[dict], found: dict[tuple[str, str], str]) -> None:
    """Print the changed readings and the per-set table."""
    kept = held_out(found)
    print("## answered in the recording, read empty now (set, lang, kind, reading, held out)")
    for r in records:
        key = (r["set"], r["query"])
        if key in found:
            kind = "off-topic" if r.get("offTopic") else "LABELLED"
            cells = [r["set"], r["lang"], kind, r["query"], found[key], str(key in kept)]
            print(" | ".join(cells))

    def figures(sub: list[dict], emptied) -> list[str]:
        def results(r: dict) -> list[str]:
            return [] if (r["set"], r["query"]) in emptied else r["results"]

        lab = [r for r in sub if not r.get("offTopic") and r.get("relevant")]
        off = [r for r in sub if r.get("offTopic")]
        nd = sum(_ndcg5(results(r), r["relevant"]) for r in lab) / max(len(lab), 1)
        p = sum(_p10(results(r), r["relevant"]) for r in lab) / max(len(lab), 1)
        return [
            f"{nd:.3f}",
            f"{p:.3f}",
            str(sum(not results(r) for r in lab)),
            f"{sum(not results(r) for r in off)}/{len(off)}",
        ]

    print("\n## per set (recording -> held out -> all forms)")
    print("set | lang | nDCG@5 | P@10 | labelled empty | off-topic answered empty")
    totals: dict[str, list[list[str]]] = {}
    for name in DEV_SETS:
        for lang in ("zh", "en"):
            sub = [r for r in records if r["set"] == name and r["lang"] == lang]
            if not sub:
                continue
            cells = [figures(sub, s) for s in (set(), kept, set(found))]
            totals.setdefault(lang, []).append(cells)
            row = " | ".join(" -> ".join(c[i] for c in cells) for i in range(4))
            print(f"{name} | {lang} | {row}")
    for lang, rows in totals.items():
        means = []
        for i in range(3):
            nd = sum(float(r[i][0]) for r in rows) / len(rows)
            p = sum(float(r[i][1]) for r in rows) / len(rows)
            lab = sum(int(r[i][2]) for r in rows)
            off = sum(int(r[i][3].split("/")[0]) for r in rows)
            of = sum(int(r[i][3].split("/")[1]) for r in rows)
            means.append(f"{nd:.4f} / {p:.4f} / {lab} / {off}/{of}")
        print(f"all, mean of sets | {lang} | " + " -> ".join(means))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--load", required=True)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    setup_django()
    records = pickle.loads(Path(args.load).read_bytes())
    report(records, readings(records))


if __name__ == "__main__":
    main()
