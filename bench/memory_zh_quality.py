"""Evidence recall of memory search on a Chinese multi-day companion chat set (dev and test).

One command::

    python bench/memory_zh_quality.py [--database-url URL] [--set FILE] [--split dev|test|both|NAME]
                                      [--verbose]

Loads ``bench/memory_zh_set.json`` (12 users, 4 days of user and assistant turns each, 187
questions with their evidence turn ids and a fixed dev/test split: 91 dev, 96 test; the first
four users split by question, the eight added later by user) into its own database
(``bench_memory_zh`` on the embedded server, created when missing; or ``--database-url``),
afresh each run: the set's users are erased, their turns written through
``memory.services.messages_write`` and embedded in this process by ``memory.tasks``'s own
embedding task (no worker needed, no summary written). Then every question is asked as:

- ``dense``: the bare model, the 10 nearest turns by cosine (``match_conversations``, no
  relevance cut, no lexical list);
- ``service``: what ``POST /v1/messages/hybrid_search`` answers (top_k 10), through the same
  service function as the view (``memory.understanding.hybrid_answer``), with ``understand``
  off and on (the default); relative phrases count back from each user's ``now`` in the set.

Printed: evidence recall@5 and @10 (the share of a question's evidence turns in the first 5 or
10 hits, averaged over questions) per split, and for the day questions ("5月2日我们聊了什么")
alone. Constants are tuned on dev only; test is the figure to report. ``--publish`` writes
the table to docs/BENCHMARKS.md.

``--set`` reads another file of the same format (for example
``bench/memory_zh_fresh_set.json``, a held-out set written later by other hands, split
``fresh``); ``--split NAME`` then names its split. Such a set is measured, never tuned on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime, timedelta
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import ROOT, bench_database_url, markdown_table, setup_django  # noqa: E402

DB_NAME = "bench_memory_zh"
SET_PATH = ROOT / "bench" / "memory_zh_set.json"
USER_PREFIX = "zhbench_"
TOP_K = 10
MODES = ("dense", "service", "service+understand")


def load_set(path: Path = SET_PATH) -> dict:
    """Return the labelled set as parsed JSON."""
    return json.loads(path.read_text())


def load_users(doc: dict) -> dict:
    """Write the set's chats afresh (one user each) and embed them; return users by name."""
    from django.contrib.auth import get_user_model

    from memory import services, tasks
    from memory.models import ChatMessage

    users = {}
    step = timedelta(minutes=doc["minutes_per_turn"])
    for entry in doc["users"]:
        user, _ = get_user_model().objects.get_or_create(username=USER_PREFIX + entry["user"])
        ChatMessage.objects.filter(user=user).delete()
        items = []
        for session in entry["sessions"]:
            start = datetime.fromisoformat(session["start"])
            for i, turn in enumerate(session["turns"]):
                items.append(
                    {
                        "message_id": turn["id"],
                        "ts": (start + i * step).isoformat(),
                        "role": turn["role"],
                        "content": turn["content"],
                        "chat_id": session["chat_id"],
                    }
                )
        # Embedded below in this process: nothing is queued for a worker.
        with (
            mock.patch.object(tasks, "enqueue_embed"),
            mock.patch.object(tasks, "enqueue_summarize"),
        ):
            services.messages_write(user=user, items=items)
        ids = list(ChatMessage.objects.filter(user=user).values_list("pk", flat=True))
        tasks.messages_embed(ids)
        users[entry["user"]] = user
    return users


def dense_ids(user, question: str) -> list[str]:
    """Return the message ids of the bare model's 10 nearest turns."""
    from memory import search, search_semantic

    vector = search_semantic.query_vector(question, None)
    pairs = search_semantic.nearest_messages(vector, TOP_K, user=user, flt=search.scoped({}))
    rows = search_semantic.load_rows([pk for pk, _ in pairs])
    return [rows[pk].message_id for pk, _ in pairs if pk in rows]


def service_ids(user, question: str, *, understand: bool, now: datetime, tz) -> list[str]:
    """Return the message ids the hybrid search endpoint answers, in its order."""
    from memory import understanding

    answer = understanding.hybrid_answer(
        user=user,
        query_text=question,
        query_embedding=None,
        flt={},
        top_k=TOP_K,
        min_score=None,
        tz=tz,
        now=now,
        understand=understand,
    )
    return [hit.row.message_id for hit in answer.hits]


def recall(found: list[str], evidence: list[str], k: int) -> float:
    """Return the share of ``evidence`` among the first ``k`` of ``found``."""
    top = set(found[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def evaluate(doc: dict, users: dict, splits: list[str], verbose: bool) -> dict:
    """Return {(split, group, mode): (recall@5, recall@10, n)} over the set's questions."""
    from memory.understanding import time_zone

    tz = time_zone(doc["time_zone"])
    nows = {u["user"]: datetime.fromisoformat(u["now"]) for u in doc["users"]}
    sums: dict = {}
    for q in doc["questions"]:
        if q["split"] not in splits:
            continue
        user, now = users[q["user"]], nows[q["user"]]
        day = is_day_question(q["question"], tz, now)
        results = {
            "dense": dense_ids(user, q["question"]),
            "service": service_ids(user, q["question"], understand=False, now=now, tz=tz),
            "service+understand": service_ids(user, q["question"], understand=True, now=now, tz=tz),
        }
        for mode, found in results.items():
            r5, r10 = recall(found, q["evidence"], 5), recall(found, q["evidence"], 10)
            for group in ("all", "day" if day else "fact"):
                acc = sums.setdefault((q["split"], group, mode), [0.0, 0.0, 0])
                acc[0] += r5
                acc[1] += r10
                acc[2] += 1
            if verbose and r10 < 1:
                print(f"{q['id']} {mode} r5={r5:.2f} r10={r10:.2f} {q['question']} -> {found[:5]}")
    return {key: (a / n, b / n, n) for key, (a, b, n) in sums.items()}


def is_day_question(question: str, tz, now: datetime) -> bool:
    """Return whether the service reads this question as a range read of one day."""
    from memory.understanding import day_asked

    return day_asked(question, tz=tz, now=now) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help=f"default: {DB_NAME} on the embedded server")
    parser.add_argument("--set", type=Path, default=SET_PATH, help="the labelled set (JSON)")
    parser.add_argument(
        "--split", default="both", help="dev, test, both (dev and test) or a split of --set"
    )
    parser.add_argument("--verbose", action="store_true", help="print each missed question")
    parser.add_argument(
        "--publish", action="store_true", help="write the table to docs/BENCHMARKS.md"
    )
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    setup_django(migrate=True)
    doc = load_set(args.set)
    users = load_users(doc)
    splits = ["dev", "test"] if args.split == "both" else [args.split]
    figures = evaluate(doc, users, splits, args.verbose)
    rows = [
        [split, group, mode, *figures[(split, group, mode)]]
        for split in splits
        for group in ("all", "fact", "day")
        for mode in MODES
        if (split, group, mode) in figures
    ]
    table = markdown_table(["split", "questions", "mode", "recall@5", "recall@10", "n"], rows)
    print(table)
    if args.publish and args.set != SET_PATH:
        from bench._common import write_section

        write_section(
            f"memory-zh-quality-{args.set.stem}",
            f"Memory: Chinese multi-day chats, evidence recall ({args.set.name}, held out)",
            f"`bench/{args.set.name}`: {doc['about']} `dense` is the bare model; "
            "`service` is hybrid search with understand off and as shipped (understand on, "
            "the default). Nothing was tuned on this set.\n\n" + table,
        )
    elif args.publish:
        from bench._common import write_section

        write_section(
            "memory-zh-quality",
            "Memory: Chinese multi-day chats, evidence recall (dev and test)",
            "`bench/memory_zh_set.json` (12 users x 4 days, user and assistant turns; fixed "
            "dev/test split in the file: the first 4 users by question, the 8 added later by "
            "user). `dense` is the bare model; `service` is hybrid search with understand "
            "off and as shipped (understand on, the default). Constants are "
            "fitted on dev only: test is the figure to read.\n\n" + table,
        )


if __name__ == "__main__":
    main()
