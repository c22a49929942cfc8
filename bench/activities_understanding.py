"""Benchmark query understanding in the activities search: what to embed, and time windows.

Runs on its own database ``bench_understanding`` (created if missing), never the development
data, with the live settings as shipped. Loads the demo activities (dates follow their words),
then builds time-phrase queries: every labelled query of ``--labels`` that names a time as it
is, plus each of a set of base queries combined with each of a set of time phrases ("这周末" +
"玩水"). A result is relevant when the base query's label says so and the activity starts in the
phrase's window (the window the service reports in ``meta.understood``). Compares:

- **bare model**: the whole query embedded, no understanding (cosine over all joinable rows);
- **service, embed whole query**: time phrase applied, the whole query embedded;
- **service, embed rest**: time phrase applied, the query without the phrase embedded (shipped).

Prints nDCG@5 and the share of results inside the stated window ("filter" mode), and writes the
"Query understanding" section of docs/BENCHMARKS.md.

    .venv/bin/python bench/activities_understanding.py [--labels FILE]  # eval_queries.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402
    ROOT,
    bench_database_url,
    markdown_table,
    setup_django,
    write_section,
)

DB_NAME = "bench_understanding"
BASES = {
    "玩水": "zh",
    "轻松的小局": "zh",
    "热闹的地方": "zh",
    "想运动出出汗": "zh",
    "带孩子": "zh",
    "音乐现场": "zh",
    "做手工": "zh",
    "做公益": "zh",
    "吃辣的聚会": "zh",
    "安静的地方看书": "zh",
    "户外徒步": "zh",
    "学点新技能": "zh",
    "water sports": "en",
    "live music": "en",
    "board games with a few people": "en",
    "family day out with kids": "en",
}
PHRASES = {
    # The last two have no demo activity in their window: the service ranks by time instead.
    "zh": [
        "这周末",
        "周五晚上",
        "下周六",
        "下周",
        "周日下午",
        "下个月",
        "未来三天",
        "明天凌晨",
        "三月",
    ],
    "en": ["this weekend", "on Friday night", "next Saturday", "next week", "in March"],
}
LABEL_FOR = {"热闹的地方": "周五晚上热闹的地方", "带孩子": "带孩子周末去哪", "live music": None}


def ndcg(ranked: list[str], relevant: dict[str, int], k: int = 5) -> float:
    from bench.activities_relevance import ndcg_at

    return ndcg_at(ranked, relevant, k)


def labels_for(base: str, labelled: dict[str, dict]) -> dict[str, int] | None:
    """Return the labels of a base query: its own, or those of the labelled query it shortens."""
    if base in labelled:
        return labelled[base]
    key = LABEL_FOR.get(base)
    if key and key in labelled:
        return labelled[key]
    if base == "live music":
        return labelled.get("live music on friday night")
    return None


def inside(start: str, window: dict | None) -> bool:
    if not window or not window.get("start"):
        return True
    at = datetime.fromisoformat(start).timestamp()
    lo = datetime.fromisoformat(window["start"]).timestamp()
    hi = datetime.fromisoformat(window["end"]).timestamp()
    return lo <= at < hi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--labels", default=str(ROOT / "activities" / "fixtures" / "eval_queries.json")
    )
    parser.add_argument("--database-url")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    import activities.search as search
    from activities.demo import load_demo_activities
    from activities.search import activities_search
    from activities.search_filters import hard_filter, parse_filters
    from bench.activities_search import reset_tables
    from rag.embeddings import current_model, embed_query
    from rag.search import vector_search

    call_command("migrate", verbosity=0)
    reset_tables()
    creator, _ = get_user_model().objects.get_or_create(username="demo")
    items = json.loads((ROOT / "activities" / "fixtures" / "demo_activities.json").read_text())
    load_demo_activities(items, creator=creator)
    labelled = {q["query"]: q["relevant"] for q in json.loads(Path(args.labels).read_text())}

    queries: list[tuple[str, dict[str, int]]] = []
    for query, relevant in labelled.items():
        if search.read_query(query, now=datetime.now().astimezone(), tz=None).found.time:
            queries.append((query, relevant))
    for base, lang in BASES.items():
        relevant = labels_for(base, labelled)
        if relevant is None:
            continue
        for phrase in PHRASES[lang]:
            queries.append((f"{phrase}{base}" if lang == "zh" else f"{base} {phrase}", relevant))

    rows, sums, counted = [], {"bare": 0.0, "whole": 0.0, "rest": 0.0}, 0
    modes = {"filter": 0, "rank": 0}
    in_window = [0, 0]
    for query, relevant in queries:
        search.EMBED_REST = True
        shipped = activities_search(semantic_query=query, limit=5)
        understood = shipped["meta"]["understood"]
        window = understood["time"]
        if window is None:
            continue
        modes[window["applied"]] += 1
        eligible = {
            a.title: a.start_at.isoformat()
            for a in hard_filter(parse_filters({}))
            if a.title in relevant
        }
        if window["applied"] == "filter":
            target = {
                t: g for t, g in relevant.items() if t in eligible and inside(eligible[t], window)
            }
            for r in shipped["results"]:
                in_window[0] += inside(r["startAt"], window)
                in_window[1] += 1
        else:
            target = {t: g for t, g in relevant.items() if t in eligible}
        if not target:
            continue  # nothing relevant in the window: nDCG is undefined
        search.EMBED_REST = False
        whole = activities_search(semantic_query=query, limit=5)
        search.EMBED_REST = True
        hits, _ = vector_search(hard_filter(parse_filters({})), embed_query(query), k=5)
        scores = {
            "bare": ndcg([h.obj.title for h in hits], target),
            "whole": ndcg([r["title"] for r in whole["results"]], target),
            "rest": ndcg([r["title"] for r in shipped["results"]], target),
        }
        for key, value in scores.items():
            sums[key] += value
        counted += 1
        rows.append([query, window["applied"], len(target), *scores.values()])
        print(query, window["applied"], scores, flush=True)
    means = {k: v / max(counted, 1) for k, v in sums.items()}
    share = in_window[0] / in_window[1] if in_window[1] else 1.0
    body = (
        f"Model `{current_model()}`; {len(items)} demo activities loaded today (dates follow "
        f"their words); {len(queries)} time-phrase queries ({modes['filter']} narrowed the "
        f"filter, {modes['rank']} ranked by time), {counted} with a relevant activity in their "
        "window scored. Relevant = labelled relevant for the base query (`eval_queries.json`) "
        "and starting in the stated window (rank mode: the label alone). Live settings as "
        "shipped.\n\n"
        + markdown_table(
            ["method", "nDCG@5"],
            [
                ["bare model (whole query, no understanding)", means["bare"]],
                ["service, time applied, whole query embedded", means["whole"]],
                ["service, time applied, rest embedded (shipped)", means["rest"]],
            ],
        )
        + f"\n\nResults of narrowed queries inside the stated window: {in_window[0]} of "
        f"{in_window[1]} ({share:.1%}).\n\nPer query:\n\n"
        + markdown_table(["query", "applied", "relevant", "bare", "whole", "rest"], rows)
    )
    write_section("understanding", "Query understanding (activities search)", body)


if __name__ == "__main__":
    main()
