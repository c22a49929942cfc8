"""Off-topic queries answered with listings, and a chit-chat reading by the vector (issue 30).

Reads a recording of ``bench/activities_fit_offtopic.py --save`` (every query of ``DEV_SETS``
through the search as shipped, with each relevance call's query vector and the answer's
``meta.relevance``) and prints:

1. every off-topic query the service answers with listings, English first, with what let it
   through: the reading of its own words (``meta.relevance.asks``: "need" read by the vector,
   ``activities.search_relevance.stated_need``, or a word form), the intent margin against
   ``intentGate``, the learned score (``rag.intent.learned_score``, read again from the vector
   where the search did not read it), the need margin against ``NEED_GATE``, the best margin,
   whether a best hit holds a word of the query (``evidence``) and the path;
2. per set and language, from the recording: nDCG@5 and P@10 of the labelled queries (lists
   scored against each query's full labels, a time query's window not applied: a little off
   the published figures), labelled and off-topic queries answered empty;
3. the chit-chat reading tried in session 53, left out one set at a time: a query whose own
   words do not ask (``asks`` None or "need" read by the vector) and that the service answers is
   read as small talk when its vector is nearer the chit-chat lines of ``--chat`` than the
   requests for activities (``INTENT_ON``; with ``--against-needs``, than the closer of those
   and the need examples) by more than a bound, unless its best hit reaches ``intentClose``
   (as a query past the intent gate). The bound: on the other sets, the highest such margin of
   a labelled query the service answers (+1e-4), so none of them is emptied there; measured
   on the held-out set. ``--no-evidence``: only for a query none of whose words a best hit
   holds.

The chit-chat lines (bench/data/chat_examples.txt) were written for this measurement; nothing
ships from it (docs/RELEVANCE.md, "Chit-chat and other off-topic queries answered", session 53).

    .venv/bin/python bench/activities_fit_offtopic.py --save /tmp/offtopic.pkl
    .venv/bin/python bench/activities_fit_chat.py --load /tmp/offtopic.pkl \
        [--chat FILE] [--against-needs] [--no-evidence]
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_offtopic"
CHAT = Path(__file__).resolve().parent / "data" / "chat_examples.txt"
CLOSE = 0.2  # intentClose as shipped (rag 0016): a hit this close answers a query past the gate
EPSILON = 1e-4


def _vector(record: dict):
    return next((c["vector"] for c in record["calls"] if "vector" in c), None)


def _ndcg5(results: list[str], labels: dict[str, int]) -> float:
    gains = [labels.get(t, 0) for t in results[:5]]
    dcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(gains))
    ideal = sorted(labels.values(), reverse=True)[:5]
    best = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / best if best else 0.0


def _p10(results: list[str], labels: dict[str, int]) -> float:
    shown = results[:10]
    return sum(labels.get(t, 0) >= 1 for t in shown) / len(shown) if shown else 0.0


def answered_off_topic(records: list[dict]) -> None:
    """Print every off-topic query answered with listings and the numbers that let it through."""
    from activities.search_relevance import INTENT_LEARNED, NEED_GATE, need_margin
    from rag import intent

    rows = [r for r in records if r.get("offTopic") and r["results"]]
    rows.sort(key=lambda r: (r["lang"] != "en", list(DEV_SETS).index(r["set"])))
    print(f"## off-topic answered with listings ({len(rows)}); NEED_GATE {NEED_GATE}")
    print("lang | set | query | rows | asks | intent margin | learned | need margin | best | ev")
    for r in rows:
        rel, vector = r.get("relevance") or {}, _vector(r)
        learned = intent.learned_score(vector, INTENT_LEARNED) if vector is not None else None
        need = need_margin(vector) if vector is not None else None

        def f(x):
            return "-" if x is None else f"{x:.4f}"

        print(
            f"{r['lang']} | {r['set']} | {r['query']} | {len(r['results'])} | {rel.get('asks')} | "
            f"{f(rel.get('intentMargin'))} | {f(learned)} | {f(need)} | {f(rel.get('topMargin'))} "
            f"| {rel.get('evidence')}{'' if r['path'] == 'semantic' else ' (' + r['path'] + ')'}"
        )


def per_set(records: list[dict], emptied: set[tuple[str, str]]) -> None:
    """Print nDCG@5, P@10 and the empties per set and language, from the recording, as
    recorded -> with the held-out chit-chat reading (``emptied``: (set, query) it empties)."""

    def answer(r: dict) -> list[str]:
        return [] if (r["set"], r["query"]) in emptied else r["results"]

    def figures(sub: list[dict], results) -> str:
        lab = [r for r in sub if not r.get("offTopic") and r.get("relevant")]
        off = [r for r in sub if r.get("offTopic")]
        nd = sum(_ndcg5(results(r), r["relevant"]) for r in lab) / max(len(lab), 1)
        p = sum(_p10(results(r), r["relevant"]) for r in lab) / max(len(lab), 1)
        empty_lab = sum(not results(r) for r in lab)
        empty_off = sum(not results(r) for r in off)
        return [f"{nd:.3f}", f"{p:.3f}", str(empty_lab), f"{empty_off}/{len(off)}"]

    print("\n## per set (recording -> chit-chat reading held out)")
    print("set | lang | nDCG@5 | P@10 | labelled empty | off-topic answered empty")
    for name in DEV_SETS:
        for lang in ("zh", "en"):
            sub = [r for r in records if r["set"] == name and r["lang"] == lang]
            if not sub:
                continue
            before, after = figures(sub, lambda r: r["results"]), figures(sub, answer)
            cells = " | ".join(f"{b} -> {a}" for b, a in zip(before, after, strict=True))
            print(f"{name} | {lang} | {cells}")


def chat_loso(
    records: list[dict], chat: Path, against_needs: bool, no_evidence: bool
) -> set[tuple[str, str]]:
    """Print the chit-chat reading left out one set at a time (see the module docstring);
    return the (set, query) it empties held out."""
    from activities.search_relevance import INTENT_ON, NEED_EXAMPLES
    from rag import intent

    lines = intent.example_vectors(chat)
    on, needs = intent.example_vectors(INTENT_ON), intent.example_vectors(NEED_EXAMPLES)
    rows = []
    for r in records:
        rel, vector = r.get("relevance") or {}, _vector(r)
        if vector is None or not r["results"] or rel.get("asks") not in (None, "need"):
            continue  # its words ask, or no vector, or already empty: the reading changes nothing
        if no_evidence and rel.get("evidence"):
            continue
        request = intent.closest(vector, on)
        if against_needs:
            request = max(request, intent.closest(vector, needs))
        top = rel.get("topMargin")
        rows.append(
            {
                "set": r["set"],
                "lang": r["lang"],
                "query": r["query"],
                "off": bool(r.get("offTopic")),
                "margin": intent.closest(vector, lines) - request,
                "close": top is not None and top >= CLOSE,
            }
        )
    print(
        f"\n## chit-chat reading, leave one set out ({chat.name}; against needs: {against_needs};"
        f" no evidence only: {no_evidence})"
    )
    print("held out | lang | bound | off-topic emptied | labelled emptied")
    totals = {"zh": [0, 0], "en": [0, 0]}
    emptied = set()
    for held in DEV_SETS:
        train = [x for x in rows if x["set"] != held and not x["off"] and not x["close"]]
        bound = max(x["margin"] for x in train) + EPSILON
        for lang in ("zh", "en"):
            sub = [x for x in rows if x["set"] == held and x["lang"] == lang and not x["close"]]
            off = [x["query"] for x in sub if x["off"] and x["margin"] > bound]
            lab = [x["query"] for x in sub if not x["off"] and x["margin"] > bound]
            emptied |= {(held, q) for q in off + lab}
            totals[lang][0] += len(off)
            totals[lang][1] += len(lab)
            if off or lab:
                print(f"{held} | {lang} | {bound:.4f} | {off} | {lab}")
    print(f"all | emptied held out (off-topic, labelled): {totals}")
    print("closest 20 (margin, best-hit close, kind, set, query):")
    for x in sorted(rows, key=lambda x: -x["margin"])[:20]:
        kind = "OFF" if x["off"] else "labelled"
        print(f"  {x['margin']:.4f} {x['close']} {kind} {x['set']} {x['lang']} {x['query']!r}")
    return emptied


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--load", required=True)
    parser.add_argument("--chat", default=str(CHAT))
    parser.add_argument("--against-needs", action="store_true")
    parser.add_argument("--no-evidence", action="store_true")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    setup_django()
    records = pickle.loads(Path(args.load).read_bytes())
    answered_off_topic(records)
    emptied = chat_loso(records, Path(args.chat), args.against_needs, args.no_evidence)
    per_set(records, emptied)


if __name__ == "__main__":
    main()
