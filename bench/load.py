"""Load benchmark: 8 concurrent clients for 60 s on searches and writes while bulk work runs.

Runs the real ``make run`` configuration (``manage.py serve``: web server, interactive and
bulk worker clusters, default settings) on its own database (``bench_load`` on the embedded
server, created when missing; or ``--database-url``), over real HTTP::

    python bench/load.py --datasets ../shared/datasets [--clients 8] [--seconds 60]

Set-up: the demo activities (``activities_load_demo``); one user per client, each with 30 chat
messages and a one-chapter book, embedded and chunked before the clock starts. Then a
separate user imports 西游记 (100 chapters, one ``POST /api/chapters/`` each): its chunking is
the bulk work that runs during the whole measurement. Each client loops over five operations
with its own token: ``POST /rag/search`` (activities), ``POST /v1/messages/hybrid_search``
(memory), ``POST /api/writing/search``, ``POST /v1/users/{id}/messages`` (one message) and
``POST /api/activities/`` (create). Reported: throughput, p50/p95/p99 per operation, and the
error count (any status other than 200/201, or no response), which must be 0.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import (  # noqa: E402
    DEFAULT_DATASETS,
    ROOT,
    bench_database_url,
    markdown_table,
    percentile,
    write_section,
)
from bench._live import (  # noqa: E402
    Api,
    free_port,
    import_book,
    manage,
    novel_chapters,
    pending_chapters,
    shared_machine_note,
    start_serve,
    stop_serve,
    token_for,
)

OPERATIONS = (
    "activities_search",
    "memory_hybrid",
    "writing_search",
    "message_write",
    "activity_create",
)
ACTIVITY_QUERIES = [
    "玩水",
    "适合社恐的活动",
    "周五晚上热闹的地方",
    "户外徒步",
    "亲子手工",
    "安静看书",
]
MEMORY_QUERIES = ["火锅", "周末去哪里玩", "不吃辣", "西湖风景", "提醒我订位", "朋友聚会"]
WRITING_QUERIES = ["孙悟空拜师学艺", "花果山水帘洞", "龙王献宝", "大闹天宫", "筋斗云"]
SEED_MESSAGES = 30
UNEMBEDDED_SQL = (
    "SELECT count(*) FROM memory_chatmessage m JOIN auth_user u ON u.id = m.user_id "
    "WHERE u.username LIKE 'bench_load_%%' AND m.embedding IS NULL"
)


def seed_items(n: int, tag: str) -> list[dict]:
    base = datetime.now(UTC) - timedelta(hours=1)
    topics = ["火锅", "西湖", "订位", "周末", "不吃辣", "电影", "爬山", "聚会"]
    return [
        {
            "message_id": f"seed-{tag}-{i}",
            "ts": (base + timedelta(seconds=i)).isoformat().replace("+00:00", "Z"),
            "role": "user" if i % 2 == 0 else "assistant",
            "content": f"第{i}句：我们聊聊{topics[i % len(topics)]}，{tag}说下次一起去。",
            "chat_id": f"c{i % 3}",
        }
        for i in range(n)
    ]


def activity_body(i: int) -> dict:
    start = datetime.now(UTC) + timedelta(days=2, hours=i % 48)
    return {
        "title": f"压测活动 {i}：周末湖边骑行",
        "description": "沿着湖边骑行十公里，适合新手，结束后一起喝咖啡。",
        "type": "运动",
        "tags": ["骑行", "户外"],
        "start_at": start.isoformat(),
        "location": {"lat": 30.25, "lng": 120.15},
        "location_name": "西湖",
        "max_participants": 20,
    }


def wait_until(check, limit: float, what: str) -> float:
    started = time.perf_counter()
    while not check():
        if time.perf_counter() - started > limit:
            raise SystemExit(f"{what}: not ready after {limit:.0f}s")
        time.sleep(1)
    return time.perf_counter() - started


def count(url: str, sql: str, params) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchone()[0]


class Client(threading.Thread):
    """One client: loops over the operations until the deadline, recording every request."""

    def __init__(self, api: Api, username: str, book_id: int, deadline: float, seed: int):
        super().__init__(name=f"client-{username}")
        self.api, self.username, self.book_id, self.deadline = api, username, book_id, deadline
        self.rng = random.Random(seed)
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    def request(self, op: str, i: int):
        if op == "activities_search":
            body = {"semanticQuery": self.rng.choice(ACTIVITY_QUERIES), "limit": 10}
            return self.api.post("/rag/search", body)
        if op == "memory_hybrid":
            body = {"user_id": self.username, "query_text": self.rng.choice(MEMORY_QUERIES)}
            return self.api.post("/v1/messages/hybrid_search", {**body, "top_k": 10})
        if op == "writing_search":
            body = {"query": self.rng.choice(WRITING_QUERIES), "book": self.book_id}
            return self.api.post("/api/writing/search", {**body, "top_k": 5})
        if op == "message_write":
            item = seed_items(1, self.username)[0]
            item.update(message_id=f"load-{self.username}-{i}", content=f"压测第{i}条：明天去爬山")
            return self.api.post(f"/v1/users/{self.username}/messages", {"items": [item]})
        return self.api.post("/api/activities/", activity_body(i))

    def run(self):
        i = 0
        while time.perf_counter() < self.deadline:
            op = OPERATIONS[i % len(OPERATIONS)]
            status, payload, seconds = self.request(op, i)
            self.samples[op].append(seconds)
            if status not in (200, 201):
                self.errors.append(f"{op}: {status} {str(payload)[:200]}")
            i += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--db-name", default="bench_load")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--chapters", type=int, default=100)
    parser.add_argument("--no-report", action="store_true", help="print only")
    args = parser.parse_args()

    url = bench_database_url(args.db_name, args.database_url)
    manage(ROOT, url, "migrate", "--noinput")
    manage(ROOT, url, "activities_load_demo")
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM django_q_ormq")  # no work left over from an earlier run
    run = uuid.uuid4().hex[:6]
    users = [f"bench_load_{i}" for i in range(args.clients)]
    tokens = {u: token_for(ROOT, url, u) for u in users}
    importer = token_for(ROOT, url, "bench_load_import")
    novel = novel_chapters(args.datasets)
    print("defaults changed: none (live settings, env); the machine was shared")

    port = free_port()
    log = ROOT / ".runtime" / "bench_load_serve.log"
    log.parent.mkdir(exist_ok=True)
    server = start_serve(ROOT, url, port, log)
    clients: list[Client] = []
    try:
        books = {}
        for i, user in enumerate(users):
            api = Api(port, tokens[user])
            status, payload, _ = api.post(
                f"/v1/users/{user}/messages", {"items": seed_items(SEED_MESSAGES, f"{run}{i}")}
            )
            assert status in (200, 201), payload
            books[user] = import_book(api, f"load {run} {i}", novel[i : i + 1], [])
        waited = wait_until(
            lambda: (
                count(url, UNEMBEDDED_SQL, []) == 0
                and all(pending_chapters(url, b) == 0 for b in books.values())
            ),
            900,
            "seed data",
        )
        print(f"seed data embedded and chunked in {waited:.0f}s")
        # The bulk work: a 100-chapter import whose chunking runs throughout the measurement.
        import_errors: list[str] = []
        big = import_book(
            Api(port, importer), f"西游记 {run}", novel[: args.chapters], import_errors
        )
        pending_before = pending_chapters(url, big)
        deadline = time.perf_counter() + args.seconds
        clients = [
            Client(Api(port, tokens[u]), u, books[u], deadline, seed=i) for i, u in enumerate(users)
        ]
        started = time.perf_counter()
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        elapsed = time.perf_counter() - started
        pending_after = pending_chapters(url, big)
    finally:
        stop_seconds = stop_serve(server)

    rows, total, errors = [], 0, []
    for op in OPERATIONS:
        samples = [s for c in clients for s in c.samples[op]]
        errs = [e for c in clients for e in c.errors if e.startswith(op + ":")]
        errors += errs
        total += len(samples)
        rows.append(
            [
                op,
                len(samples),
                round(len(samples) / elapsed, 2),
                round(percentile(samples, 50) * 1000),
                round(percentile(samples, 95) * 1000),
                round(percentile(samples, 99) * 1000),
                len(errs),
            ]
        )
    rows.append(["all", total, round(total / elapsed, 2), "", "", "", len(errors)])
    table = markdown_table(
        ["operation", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors"], rows
    )
    verdict = "met" if not errors else "NOT met"
    print(table)
    for e in errors[:20]:
        print("  error:", e)
    print(f"bulk import pending chapters: {pending_before} -> {pending_after}")
    print(f"errors: {len(errors)} (must be 0: {verdict}); serve stopped in {stop_seconds:.1f}s")
    print(shared_machine_note())
    if args.no_report:
        return
    body = (
        f"{args.clients} clients (one user and token each) for {elapsed:.0f}s over real HTTP "
        f"against `manage.py serve` (default settings), while a {args.chapters}-chapter book "
        f"import was being chunked on the bulk queue (chapters waiting: {pending_before} at the "
        f"start, {pending_after} at the end; {len(import_errors)} import errors). Each client "
        "cycles through the five operations in turn.\n\n"
        f"{table}\n\nErrors must be 0: **{verdict}**. `serve` stopped in {stop_seconds:.1f}s "
        f"after Ctrl-C.  \n{shared_machine_note()}"
    )
    write_section("load", "Load: 8 clients on searches and writes during bulk work", body)


if __name__ == "__main__":
    main()
