"""Ask the LoCoMo dev questions of ``bench/memory_locomo.py`` in process: the tuning loop.

The HTTP benchmark starts a server and embeds every question again on each run; tuning needs
many runs over the same stored turns. This script asks the dev split already stored by
``bench/memory_locomo.py --split dev`` (same database, ``bench_memory``) through the service
functions the endpoints call, with no server, and keeps each question's query vector in
``.runtime/locomo_query_vectors.json`` (by model and text), so a run after the first costs
only the searches::

    python bench/memory_locomo.py --split dev --reuse-embeddings --no-write   # once
    python bench/memory_locomo_tune.py [--set memory.ranking.FUSION_K=10] [--misses FILE]

Modes: ``semantic`` (the bare model: the 10 nearest turns, no cut), ``hybrid`` (what
``POST /v1/messages/hybrid_search`` answers with top_k 10 and ``understand: false``,
``memory.understanding.hybrid_answer``) and ``hybrid+understand`` (the same with
``understand: true``, the default, UTC, now = the day after the conversation's last session).
Printed: recall@5 and @10 of the evidence turns per category.
``--set module.NAME=value`` changes a constant for the run (a sweep without editing code);
``--misses`` writes each question whose evidence hybrid search misses at 10 (JSON lines: the
question, the evidence turns, the top 10, and where each evidence turn ranks in the bare
model's and the BM25 list's whole ordering and in hybrid's top 200).

Dev only: the test split is asked once, through ``bench/memory_locomo.py``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import DEFAULT_DATASETS, ROOT, markdown_table  # noqa: E402
from bench.memory_locomo import (  # noqa: E402
    CATEGORIES,
    DB_NAME,
    missing_users,
    questions,
    select,
    setup,
)

MODES = ("semantic", "hybrid", "hybrid+understand")
TOP_K = 10
VECTORS = ROOT / ".runtime" / "locomo_query_vectors.json"
SAVE_EVERY = 25  # query vectors written to the file every this many new ones
DEEP = 200  # how far a miss's evidence is looked for in each ordering


class QueryVectors:
    """Query-role vectors by text, kept in a file between runs (the model's name in the key)."""

    def __init__(self, path: Path):
        from rag.embeddings import get_provider

        self.path = path
        self.model = getattr(get_provider(), "model", "") or type(get_provider()).__name__
        self.vectors = json.loads(path.read_text()) if path.exists() else {}
        self.added = 0

    def __call__(self, text: str) -> list[float]:
        from rag.embeddings import embed_query

        key = f"{self.model}\n{text}"
        if key not in self.vectors:
            # A generous budget: a loaded machine must not turn a tuning run degraded.
            self.vectors[key] = embed_query(text, use_cache=False, budget=120.0)
            self.added += 1
            if self.added % SAVE_EVERY == 0:  # an interrupted first run keeps what it paid for
                self.save()
        return self.vectors[key]

    def save(self) -> None:
        if self.added:
            self.path.parent.mkdir(exist_ok=True)
            self.path.write_text(json.dumps(self.vectors))


def apply_settings(pairs: list[str]) -> list[str]:
    """Set each ``module.NAME=value`` (a Python literal) for this run; return what was set."""
    done = []
    for pair in pairs:
        target, _, value = pair.partition("=")
        module_name, _, name = target.rpartition(".")
        module = importlib.import_module(module_name)
        if not hasattr(module, name):
            raise SystemExit(f"{module_name} has no {name}")
        setattr(module, name, ast.literal_eval(value))
        done.append(f"{target}={value}")
    return done


def message_ids(hits) -> list[str]:
    return [hit.row.message_id for hit in hits]


def ask(user, q: dict, mode: str, top_k: int = TOP_K) -> list[str]:
    """Return the message ids one mode answers for a question, best first."""
    from memory import search, search_semantic, understanding

    if mode == "semantic":
        vector = search_semantic.query_vector(q["question"], None)
        pairs = search_semantic.nearest_messages(vector, top_k, user=user, flt=search.scoped({}))
        rows = search_semantic.load_rows([pk for pk, _ in pairs])
        return [rows[pk].message_id for pk, _ in pairs if pk in rows]
    answer = understanding.hybrid_answer(
        user=user,
        query_text=q["question"],
        query_embedding=None,
        flt={},
        top_k=top_k,
        min_score=None,
        tz=UTC,
        now=datetime.fromisoformat(q["now"]),
        understand=mode == "hybrid+understand",
    )
    return message_ids(answer.hits)


def where(ids: list[str], evidence: list[str]) -> dict[str, int | None]:
    """Return each evidence turn's 1-based rank in ``ids`` (None: not there)."""
    rank = {mid: i + 1 for i, mid in enumerate(ids)}
    return {e: rank.get(e) for e in evidence}


def diagnose(user, q: dict, found: list[str]) -> dict:
    """Return what a missed question looks like: texts, and the evidence's rank per ordering."""
    from memory import bm25, search, search_semantic
    from memory.models import ChatMessage

    evidence = sorted(q["evidence"])
    text = dict(
        ChatMessage.objects.filter(user=user, message_id__in=[*evidence, *found]).values_list(
            "message_id", "content"
        )
    )
    vector = search_semantic.query_vector(q["question"], None)
    pairs = search_semantic.nearest_messages(vector, DEEP, user=user, flt=search.scoped({}))
    by_pk = dict(ChatMessage.objects.filter(user=user).values_list("pk", "message_id"))
    dense = [by_pk[pk] for pk, _ in pairs]
    tsquery = search.content_tsquery(q["question"])
    lexemes = search.tsquery_lexemes(tsquery)
    bm25 = [
        by_pk[pk]
        for pk in bm25.bm25_ids(user=user, lexemes=lexemes, flt=search.scoped({}), limit=DEEP)
    ]
    deep = ask(user, q, "hybrid", top_k=DEEP)
    return {
        "question": q["question"],
        "category": CATEGORIES[q["category"]],
        "user": q["user_id"],
        "words": lexemes,
        "evidence": {e: text.get(e) for e in evidence},
        "rank": {
            "hybrid": where(deep, evidence),
            "dense": where(dense, evidence),
            "bm25": where(bm25, evidence),
        },
        "top10": [f"{mid} {text.get(mid, '')[:160]}" for mid in found[:TOP_K]],
    }


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", default=str(DEFAULT_DATASETS))
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated subset")
    parser.add_argument("--set", action="append", default=[], help="module.NAME=literal")
    parser.add_argument("--misses", default=None, help="write hybrid's misses here (JSON lines)")
    parser.add_argument("--questions", type=int, default=None, help="ask only the first N")
    parser.add_argument(
        "--conversations", type=int, default=None, help="ask only the first N conversations"
    )
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)

    from bench._common import bench_database_url

    setup(bench_database_url(DB_NAME, args.database_url))
    changed = apply_settings(args.set)
    from django.contrib.auth import get_user_model

    from memory import search_semantic

    data = select(json.loads((Path(args.datasets) / "locomo10.json").read_text()), "dev")
    data = data[: args.conversations] if args.conversations else data
    missing = missing_users(data)
    if missing:
        raise SystemExit(
            f"nothing stored for {', '.join(missing)}: run bench/memory_locomo.py --split dev "
            "--reuse-embeddings --no-write first"
        )
    vectors = QueryVectors(VECTORS)
    search_semantic.embed_uncached_query = vectors  # the query vectors of earlier runs, by text
    users = {u.username: u for u in get_user_model().objects.filter(username__startswith="locomo_")}
    qs = questions(data, args.questions)
    modes = args.modes.split(",")
    recall = {m: defaultdict(lambda: {5: [], 10: []}) for m in modes}
    misses = []
    try:
        for q in qs:
            user = users[q["user_id"]]
            for mode in modes:
                found = ask(user, q, mode)
                for k in (5, 10):
                    hit = len(q["evidence"] & set(found[:k])) / len(q["evidence"])
                    recall[mode][q["category"]][k].append(hit)
                    recall[mode]["all"][k].append(hit)
                if args.misses and mode == "hybrid" and not q["evidence"] <= set(found):
                    misses.append(diagnose(user, q, found))
    finally:
        vectors.save()
    headers = ["mode"]
    for cat in [*CATEGORIES, "all"]:
        headers += [f"{CATEGORIES.get(cat, 'all')} R@5", "R@10"]
    rows = []
    for mode in modes:
        row = [mode]
        for cat in [*CATEGORIES, "all"]:
            row += [mean(recall[mode][cat][5]), mean(recall[mode][cat][10])]
        rows.append(row)
    print(f"dev split, {len(qs)} questions" + (f"; set {', '.join(changed)}" if changed else ""))
    print(markdown_table(headers, rows))
    if args.misses:
        Path(args.misses).write_text("".join(json.dumps(m) + "\n" for m in misses))
        print(f"{len(misses)} questions with evidence missed at 10 written to {args.misses}")


if __name__ == "__main__":
    main()
