"""Accuracy of the offline intent router on every labelled intent set, by its fixed split.

Each row of ``agent/data/intents*.jsonl`` carries ``"split": "dev"`` or ``"test"``, written in
the file and never reassigned: the router's rules and examples are tuned on dev only, and test
is read to report. ``intents.jsonl`` is all dev (its errors were read to revise the rules);
``intents_holdout.jsonl`` is all test (written after the router, never used to change it).

Prints accuracy per split (all, Chinese only, English only), per file, and the misses of dev.
The misses of test are printed only with ``--show-test-misses``: reading them is tuning on test.
Runs on its own database ``bench_intents`` (the embedding cache lives there), with no LLM, and
writes nothing to docs/BENCHMARKS.md.

    .venv/bin/python bench/intent_routing.py [--show-test-misses] [--database-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import ROOT, bench_database_url, setup_django  # noqa: E402

DB_NAME = "bench_intents"
DATA = ROOT / "agent" / "data"
SPLITS = ("dev", "test")
CJK_RE = re.compile(r"[\u4e00-\u9fff]")


def labelled_rows() -> list[dict]:
    """Return every labelled utterance with its file name; a row without a split is an error."""
    rows = []
    for path in sorted(DATA.glob("intents*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("split") not in SPLITS:
                raise SystemExit(f"{path.name}:{number}: split must be one of {SPLITS}")
            rows.append({**row, "file": path.name})
    return rows


def _accuracy(rows: list[dict]) -> str:
    if not rows:
        return "   -"
    correct = sum(r["predicted"] == r["intent"] for r in rows)
    return f"{correct}/{len(rows)} = {correct / len(rows):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show-test-misses", action="store_true")
    parser.add_argument("--database-url")
    parser.add_argument(
        "--grid",
        action="store_true",
        help="print dev accuracy over the router's softmax TEMPERATURE, then stop",
    )
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    os.environ["LLM_PROVIDER"] = "none"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # Accuracy, not latency: a loaded machine must not route by the rules alone because an
    # embedding took longer than the interactive 3 s budget.
    os.environ.setdefault("SEARCH_TIME_BUDGET_SECONDS", "60")
    setup_django(migrate=True)
    from agent import router

    rows = labelled_rows()
    if args.grid:
        _grid(router, [r for r in rows if r["split"] == "dev"])
        return
    for row in rows:
        # Dev rows are reference examples of the router: each is scored without itself.
        context = {"leave_out": row["split"] == "dev"}
        row["predicted"] = router.classify_offline(row["text"], context).intent
    by_split: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_split[row["split"]].append(row)
    for split in SPLITS:
        chosen = by_split[split]
        chinese = [r for r in chosen if CJK_RE.search(r["text"])]
        english = [r for r in chosen if not CJK_RE.search(r["text"])]
        print(
            f"{split:>4}: all {_accuracy(chosen)}; Chinese {_accuracy(chinese)}; "
            f"English {_accuracy(english)}"
        )
        for name in sorted({r["file"] for r in chosen}):
            print(f"      {name}: {_accuracy([r for r in chosen if r['file'] == name])}")
    shown = SPLITS if args.show_test_misses else ("dev",)
    for split in shown:
        misses = [r for r in by_split[split] if r["predicted"] != r["intent"]]
        print(f"\n{split} misses ({len(misses)}):")
        for r in misses:
            print(f"  {r['intent']:>7} -> {r['predicted']:<7} {r['text']}")


def _grid(router, dev: list[dict]) -> None:
    """Print dev accuracy (leave-one-out) for each softmax temperature of the router."""
    for temperature in (0.005, 0.01, 0.02, 0.03, 0.05, 0.1):
        router.TEMPERATURE = temperature
        for row in dev:
            row["predicted"] = router.classify_offline(row["text"], {"leave_out": True}).intent
        print(f"temperature {temperature:<5}: dev {_accuracy(dev)}")


if __name__ == "__main__":
    main()
