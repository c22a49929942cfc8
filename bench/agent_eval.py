"""Evaluate the agent: intent accuracy on the labelled set, and offline chat-turn latency.

Runs against its own database ``bench_agent`` on the embedded development server (created
when missing, migrated, demo activities loaded with ``activities_load_demo``), with no LLM:

1. Intent accuracy of the offline router on ``agent/data/intents.jsonl`` (labelled utterances,
   disjoint from the router's reference examples in ``agent/data/intent_examples.json``), with
   a confusion matrix and an ablation (rules only, example similarity only).
2. p50/p95 latency of offline ``generate_chat`` turns (all five steps: context passes, router,
   tool call, answer, saving both turns and preferences) over a fixed set of messages, after
   a warm-up that loads the embedding model and the example vectors.

    .venv/bin/python bench/agent_eval.py [--turns 100] [--database-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402
    ROOT,
    bench_database_url,
    markdown_table,
    median,
    percentile,
    setup_django,
    write_section,
)

DB_NAME = "bench_agent"
EVAL_PATH = ROOT / "agent" / "data" / "intents.jsonl"
# Written after the router was final and never used to change it: the honest figure.
HOLDOUT_PATH = ROOT / "agent" / "data" / "intents_holdout.jsonl"
LOCATION = (31.2304, 121.4737)
TURN_MESSAGES = [
    "你好呀",
    "周五晚上附近热闹的地方",
    "这周末有什么适合放松的活动",
    "推荐一个安静的读书活动",
    "帮我发起一个周六下午三点的桌游局",
    "人数改成八个",
    "想找个搭子一起去爬山",
    "有没有人周末一起打羽毛球",
    "我的活动有哪些",
    "我报名了什么",
    "我不吃辣，喜欢热闹",
    "今天工作好累啊",
    "明天晚上有什么音乐演出",
    "附近有没有亲子活动",
    "我想组织一次周末野餐",
    "找人陪我去看展",
    "我下周有什么安排",
    "谢谢你",
]


def intent_accuracy() -> str:
    """Return the Markdown of accuracy, the confusion matrix and the ablation."""
    from agent import router

    rows = [json.loads(line) for line in EVAL_PATH.read_text(encoding="utf-8").splitlines() if line]
    labels = list(router.INTENTS)
    confusion: dict[str, Counter] = {label: Counter() for label in labels}
    router._index.get()  # the reference examples are embedded once per process, not per message
    by_signal = Counter()
    timings = []
    for row in rows:
        started = time.perf_counter()
        # Rows of the dev split are reference examples too: each is scored without itself.
        predicted = router.classify_offline(row["text"], {"leave_out": True}).intent
        timings.append((time.perf_counter() - started) * 1000)
        confusion[row["intent"]][predicted] += 1
        rules = router.rule_scores(row["text"])
        rule_best = max(labels, key=lambda i: (rules[i], i == router.CHAT))
        by_signal["rules"] += rule_best == row["intent"]
        embedded = router.embedding_scores(row["text"], leave_out=True) or {}
        by_signal["embedding"] += (
            bool(embedded) and max(embedded, key=embedded.get) == row["intent"]
        )
    total = len(rows)
    correct = sum(confusion[label][label] for label in labels)
    print(f"intent accuracy {correct}/{total} = {correct / total:.3f}")
    matrix = [
        [f"**{gold}**", *(confusion[gold][pred] for pred in labels), sum(confusion[gold].values())]
        for gold in labels
    ]
    per_intent = []
    for label in labels:
        tp = confusion[label][label]
        predicted = sum(confusion[g][label] for g in labels)
        gold = sum(confusion[label].values())
        precision = tp / predicted if predicted else 0.0
        recall = tp / gold if gold else 0.0
        per_intent.append([label, gold, precision, recall])
    ablation = [
        ["fused (examples kNN + rules), shipped", correct / total],
        ["rules only", by_signal["rules"] / total],
        ["example similarity only (mean of top-3 per intent)", by_signal["embedding"] / total],
    ]
    return "\n\n".join(
        [
            f"### Intent accuracy\n\n**{correct}/{total} = {correct / total:.1%}** on "
            f"`agent/data/intents.jsonl` ({total} Chinese/English utterances, about a fifth per "
            "intent; the router's reference examples are a separate file). Caveat: the keyword "
            "rules were revised once after reading the errors of a first run on this same set "
            "(84.1% then), so this figure is optimistic; the ablation shows what each signal "
            "does alone. Router time per message (each text embedded for the first time): "
            f"median {median(timings):.1f} ms, p95 {percentile(timings, 95):.1f} ms.",
            "Confusion matrix (rows: gold label, columns: predicted):\n\n"
            + markdown_table(["gold \\ predicted", *labels, "total"], matrix),
            markdown_table(["intent", "gold count", "precision", "recall"], per_intent),
            "Ablation:\n\n" + markdown_table(["router", "accuracy"], ablation),
            holdout_accuracy(),
        ]
    )


def holdout_accuracy() -> str:
    """Return the Markdown of the accuracy on the held-out set (never used to tune the router)."""
    from agent import router

    rows = [
        json.loads(line) for line in HOLDOUT_PATH.read_text(encoding="utf-8").splitlines() if line
    ]
    misses = []
    for row in rows:
        predicted = router.classify_offline(row["text"]).intent
        if predicted != row["intent"]:
            misses.append([row["text"], row["intent"], predicted])
    correct = len(rows) - len(misses)
    print(f"held-out intent accuracy {correct}/{len(rows)} = {correct / len(rows):.3f}")
    text = (
        f"### Held-out intent accuracy\n\n**{correct}/{len(rows)} = {correct / len(rows):.1%}** "
        f"on `agent/data/intents_holdout.jsonl` ({len(rows)} utterances, 10 per intent, written "
        "after the router was final and not used to change it)."
    )
    if misses:
        text += "\n\nMisses:\n\n" + markdown_table(["utterance", "gold", "predicted"], misses)
    return text


def chat_latency(turns: int) -> str:
    """Return the Markdown of offline chat-turn latency, overall and per mode."""
    from django.contrib.auth import get_user_model

    from activities.models import Activity
    from agent.chat import generate_chat
    from memory.services import user_erase

    user, _ = get_user_model().objects.get_or_create(username="bench_agent_user")
    user_erase(user=user)
    Activity.objects.filter(creator=user).delete()  # drafts of an earlier run
    chat_id = f"bench_{int(time.time())}"
    for message in TURN_MESSAGES[:5]:  # warm-up: model, example vectors, jieba
        generate_chat(user=user, message=message, chat_id=chat_id + "_warm", location=LOCATION)
    timings: list[float] = []
    per_mode: dict[str, list[float]] = defaultdict(list)
    for i in range(turns):
        message = TURN_MESSAGES[i % len(TURN_MESSAGES)]
        started = time.perf_counter()
        result = generate_chat(user=user, message=message, chat_id=chat_id, location=LOCATION)
        elapsed = (time.perf_counter() - started) * 1000
        timings.append(elapsed)
        per_mode[result["mode"]].append(elapsed)
    p50, p95 = median(timings), percentile(timings, 95)
    print(f"chat turn latency p50 {p50:.1f} ms, p95 {p95:.1f} ms over {turns} turns")
    rows = [["all", len(timings), p50, p95, max(timings)]]
    for mode in sorted(per_mode):
        values = per_mode[mode]
        rows.append([mode, len(values), median(values), percentile(values, 95), max(values)])
    verdict = "meets" if p95 <= 300 else "misses"
    return (
        f"### Offline chat-turn latency\n\n{turns} turns of `generate_chat` (no LLM) cycling over "
        f"{len(TURN_MESSAGES)} messages in one growing chat, after 5 warm-up turns; each turn "
        "runs the three context passes, the router, the mode's tool (activities search on the "
        "demo data, draft writes, listings), composes the answer and stores both turns and any "
        "preference (embedding of the stored turns is queued, as in production). "
        f"**p95 {p95:.0f} ms** ({verdict} the 300 ms target), p50 {p50:.0f} ms.\n\n"
        + markdown_table(["mode", "turns", "p50 ms", "p95 ms", "max ms"], rows)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--database-url")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    os.environ["LLM_PROVIDER"] = "none"  # the offline path is what is measured
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django()
    from django.core.management import call_command, get_commands

    from activities.models import Activity

    call_command("migrate", verbosity=0)
    if not Activity.objects.exists() and "activities_load_demo" in get_commands():
        call_command("activities_load_demo", verbosity=0)
    # Router timings say "embedded for the first time": forget query vectors of earlier runs.
    from rag import embeddings
    from rag.models import EmbeddingCache

    EmbeddingCache.objects.filter(role="query").delete()
    embeddings._lru.clear()
    print("1/2 intent accuracy ...", flush=True)
    accuracy_md = intent_accuracy()
    print("2/2 chat-turn latency ...", flush=True)
    latency_md = chat_latency(args.turns)
    from rag.embeddings import current_model

    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    note = (
        f"Embedding model `{current_model()}` (local); no LLM. Activities in `{DB_NAME}`: "
        f"{Activity.objects.count()} (the demo rows plus this run's drafts). Load average: {load} "
        "(the machine was shared)."
    )
    write_section(
        "agent",
        "Agent: intent routing and chat-turn latency",
        f"{note}\n\n{accuracy_md}\n\n{latency_md}",
    )


if __name__ == "__main__":
    main()
