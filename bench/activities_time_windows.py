"""Time queries of every development set: results outside their window, and readings that differ.

Issue 30's target "every time-phrase result inside its window or marked" is measured per split by
bench/activities_heldout.py. This bench runs only the time queries (kind ``time`` or any query
with a labelled ``window``) of every set of ``bench.activities_heldout.DEV_SETS`` through the
same code (``run_corpus``: the bare model beside the service, each corpus loaded at its fixed
Wednesday 10:00), so all of them are measured in one run, and prints:

- per set and language: time results inside their window or marked, and the time queries'
  nDCG@5, service beside the bare model;
- every time query with a result outside its labelled window and not marked (the target's
  misses), with what the service read (``meta.understood.time``);
- with ``--readings``, every time query whose reading by ``rag.understand`` (at the load instant,
  searching forward) is not read, or differs from its label in its days or is wider than it.
  Hours that differ only by the labels' conventions (an evening from 17:00 against the reader's
  18:00) are listed as "hours"; a reading inside its label is not listed.

The unseen split is never read (only DEV_SETS). Usage:

    .venv/bin/python bench/activities_time_windows.py --json /tmp/time.json
    .venv/bin/python bench/activities_time_windows.py --readings
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import setup_django  # noqa: E402
from bench.activities_heldout import (  # noqa: E402
    CORPORA,
    DB_NAME,
    DEV_SETS,
    as_shipped,
    load_instant,
    query_files,
    run_corpus,
)


def time_queries() -> list[dict]:
    """Return every time query of DEV_SETS, each with its set's name under ``devset``."""
    out = []
    for name, split in DEV_SETS.items():
        for path in query_files(split):
            for line in path.read_text(encoding="utf-8").splitlines():
                q = json.loads(line) if line.strip() else None
                if q is None or (split != "all" and q["split"] != split):
                    continue
                if q["kind"] == "time" or q.get("window"):
                    out.append({**q, "devset": name})
    return out


def reading_of(q: dict) -> tuple[str, str]:
    """Return (how the reading compares with the label, what was read) for one time query."""
    from bench.activities_relevance import window_of
    from rag.understand import understand

    tz = CORPORA[q["corpus"]][1]
    now = load_instant(tz)
    found = understand(q["query"], now=now, tz=tz, direction="future")
    windows = [(w.start, w.end) for t in found.times if not t.soft for w in t.windows]
    read = "; ".join(
        f"{t.text} {w.start:%a %d %H:%M}-{w.end:%a %d %H:%M}"
        for t in found.times
        if not t.soft
        for w in t.windows
    )
    if not q.get("window"):
        return "no label", read
    lo, hi = window_of(q["window"], now, tz)
    if not windows:
        return "not read", read
    start, end = min(w[0] for w in windows), max(w[1] for w in windows)
    if (start, end) == (lo, hi) or (lo <= start and end <= hi):
        return "inside", read
    if start.date() != lo.date() or (end - start).days > (hi - lo).days:
        return "days", read
    if start <= lo and hi <= end and (end - start) - (hi - lo) >= (hi - lo):
        return "wider", read
    return "hours", read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="write every time query's answers here")
    parser.add_argument(
        "--readings", action="store_true", help="list the readings that differ (no search)"
    )
    parser.add_argument("--database-url")
    args = parser.parse_args()
    queries = time_queries()
    if args.readings:
        setup_django(migrate=False)
        for q in queries:
            how, read = reading_of(q)
            if how not in ("inside", "no label"):
                print(f"{q['devset']:8} {q['lang']} {how:8} {q['query']} | read: {read or '-'}")
        return
    creator = as_shipped(DB_NAME, args.database_url)
    from bench.activities_search import reset_tables

    records = []
    for name in CORPORA:
        mine = [q for q in queries if q["corpus"] == name]
        if mine:
            for q, record in zip(mine, run_corpus(name, mine, creator), strict=True):
                records.append({**record, "devset": q["devset"]})
    reset_tables()
    print("\n| set | lang | queries | inside or marked (results) | nDCG@5 bare / service |")
    print("|---|---|---|---|---|")
    for devset in DEV_SETS:
        for lang in ("zh", "en"):
            mine = [r for r in records if r["devset"] == devset and r["lang"] == lang]
            timed = [r for r in mine if r["window"]]
            flags = [f for r in timed for f in r["service"]["inside_or_marked"]]
            scored = [r for r in mine if r["relevant_kept"] and not r["offTopic"]]
            ndcg = {
                s: sum(r[s]["ndcg5"] for r in scored) / len(scored) if scored else float("nan")
                for s in ("bare model", "service")
            }
            share = f"{sum(flags) / len(flags):.3f} ({len(flags)})" if flags else "-"
            print(
                f"| {devset} | {lang} | {len(mine)} | {share} | "
                f"{ndcg['bare model']:.3f} / {ndcg['service']:.3f} |"
            )
    print("\nResults outside their window and not marked:")
    for r in records:
        flags = r["service"]["inside_or_marked"] or []
        out = [x for x, ok in zip(r["service"]["results"], flags, strict=True) if not ok]
        if out:
            print(f"- {r['devset']} {r['query']} (read {json.dumps(r['understood_time'])})")
            for x in out:
                print(f"    {x['title']} {x['start']}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(records, ensure_ascii=False, indent=1, default=str), encoding="utf-8"
        )
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
