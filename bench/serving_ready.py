"""Start-up benchmark: seconds from ``manage.py serve`` to ready, this checkout beside another.

Each start is ``make run``'s ``serve`` with the shipped defaults (no LLM provider) on the
benchmark database; ready means ``/api/health`` says ``ready`` with a heartbeat from every queue
(bench/_live.py ``start_until_ready``). With ``--before PATH`` (a ``git archive`` of older code)
the two checkouts start in turn, so both see the same hour of the machine. Target (issue 33):
ready within 5 s.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import (  # noqa: E402
    ROOT,
    bench_database_url,
    markdown_table,
    median,
    write_section,
)
from bench._live import (  # noqa: E402
    free_port,
    manage,
    shared_machine_note,
    start_until_ready,
    stop_serve,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--db-name", default="bench_serving")
    parser.add_argument("--before", type=Path, default=None, help="another checkout to compare")
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--no-report", action="store_true", help="print only")
    args = parser.parse_args()

    url = bench_database_url(args.db_name, args.database_url)
    manage(ROOT, url, "migrate", "--noinput")
    projects = {"this checkout": ROOT}
    if args.before is not None:
        projects = {f"`{args.before}`": args.before.resolve(), **projects}
    log = ROOT / ".runtime" / "bench_serving_ready.log"
    log.parent.mkdir(exist_ok=True)
    ready: dict[str, list[float]] = {name: [] for name in projects}
    for start in range(args.starts):
        for name, project in projects.items():
            process, _, seconds = start_until_ready(project, url, free_port(), log, {})
            stop_serve(process)
            if seconds is None:
                raise SystemExit(f"{name} was not ready within 180 s:\n{log.read_text()[-3000:]}")
            ready[name].append(seconds)
            load = os.getloadavg()[0]
            print(f"start {start + 1}, {name}: ready after {seconds:.2f} s (load {load:.1f})")
    rows = [
        [name, ", ".join(f"{s:.1f}" for s in times), f"{median(times):.1f}", f"{max(times):.1f}"]
        for name, times in ready.items()
    ]
    table = markdown_table(["code", "ready after each start (s)", "median s", "slowest s"], rows)
    print(table)
    if args.no_report:
        return
    body = (
        f"{args.starts} starts of `manage.py serve` per checkout, as `make run` starts it (shipped "
        "defaults, no LLM provider), the checkouts in turn; each start's heartbeats are cleared "
        "first, so ready means `/api/health` says `ready` with a heartbeat from every queue of "
        f"this start. Target: within 5 s. {shared_machine_note()}\n\n{table}"
    )
    write_section("serving-ready", "Serving: seconds to ready", body)


if __name__ == "__main__":
    main()
