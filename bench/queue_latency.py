"""Benchmark interactive-before-bulk: time until a new chat message is searchable during an import.

Runs the real ``make run`` configuration (``manage.py serve``: web server, one worker cluster
per queue, the real schedules, default live settings, nothing changed) on its own database
(``bench_queues`` on the embedded server, created when missing; or ``--database-url``)::

    python bench/queue_latency.py --datasets ../shared/datasets [--messages 20]

1. Import 西游记 (100 chapters, split at ^第...回) as a book through the API: one
   ``POST /api/books/`` and one ``POST /api/chapters/`` per chapter, as a client would.
2. While its chapters are being chunked, write chat messages one at a time through
   ``POST /v1/users/{id}/messages`` and, after each, poll ``POST /v1/messages/semantic_search``
   (the message's own text; ``top_k`` 200, ``min_score`` -1: every message of the user) until
   the message is among the hits: the time from the write to that hit is its latency.
   Chapters still waiting for chunking are counted before and after, to show the import was
   running throughout. One message
   written and found before the import warms the web process and a worker up (model loaded).

``--typers N`` (N chapters, each autosaved by its own client every ``--type-interval``
seconds while the messages are written) replaces the import: several writers typing at once
must never hold the interactive workers. It also reports how long after the typing stops the
chapters' last edits are chunked (``debounce_seconds`` plus the chunking). This scenario
prints, and with ``--publish`` writes its own section of ``docs/BENCHMARKS.md``
(``queue-latency-typers``; the import scenario writes ``queue-latency`` unless
``--no-report``)::

    python bench/queue_latency.py --datasets ../shared/datasets --typers 5 --publish

``--project DIR`` measures another checkout of the project with the same client (e.g. the
code before the queues were split: ``git archive <commit> | tar -x -C DIR``); use another
``--db-name`` for it, its migrations differ. Target: p95 <= 5 s over 20 writes.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import uuid
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

USERNAME = "bench_queues"
# Twenty different topics: each message must be told apart from the others by meaning.
TOPICS = [
    "周末想和朋友去杭州西湖骑车，顺便吃一顿杭帮菜",
    "我对花生过敏，点外卖时一定要备注不要放花生",
    "下个月要去成都出差，帮我记一下要带的材料",
    "最近在学吉他，每天晚上练半个小时指法",
    "孩子下周三开家长会，下午两点在学校礼堂",
    "我的猫这两天不太吃东西，想预约宠物医院",
    "年底打算换一台轻薄笔记本，预算八千以内",
    "今天跑了十公里，膝盖有点疼，明天休息一天",
    "妈妈生日快到了，想订一个不太甜的水果蛋糕",
    "公司团建选在千岛湖，要提前订两间湖景房",
    "我喜欢安静的咖啡馆，最好有插座可以办公",
    "周五晚上想看一部悬疑电影，不要恐怖片",
    "家里的洗衣机漏水了，要找师傅上门修理",
    "准备考驾照科目二，倒车入库总是压线",
    "想在阳台种点番茄和薄荷，需要什么样的土",
    "下周去北京开会，住在国贸附近的酒店",
    "最近失眠，睡前不要再喝浓茶和咖啡了",
    "打算春节带父母去三亚，看看往返机票价格",
    "读完了三体第一部，想接着看第二部黑暗森林",
    "信用卡账单日是每月五号，记得按时还款",
]


def message_text(i: int, run: str) -> str:
    return f"{TOPICS[i % len(TOPICS)]}（{run}-{i + 1}）"


def time_until_searchable(
    api: Api, text: str, message_id: str, limit: float, *, username: str = USERNAME
) -> dict:
    """Write one message of ``username`` and poll semantic search for it.

    Return ``seconds`` (from the write until a search returns it; None past ``limit``),
    ``write`` (the POST's own duration), ``search`` (the last search request's duration) and
    ``polls``.
    """
    started = time.perf_counter()
    item = {"message_id": message_id, "role": "user", "content": text, "chat_id": "bench"}
    item["ts"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    status, payload, write = api.post(f"/v1/users/{username}/messages", {"items": [item]})
    if status not in (200, 201):
        raise SystemExit(f"message write failed: {status} {payload}")
    out = {"seconds": None, "write": write, "search": 0.0, "polls": 0}
    query = {"user_id": username, "query_text": text, "top_k": 200, "min_score": -1}
    while time.perf_counter() - started < limit:
        out["polls"] += 1
        status, payload, out["search"] = api.post("/v1/messages/semantic_search", query)
        if status == 200 and any(h["message_id"] == message_id for h in payload["items"]):
            out["seconds"] = time.perf_counter() - started
            return out
        time.sleep(0.2)
    return out


def chapters_chunked(url: str, chapter_ids: list[int]) -> bool:
    """Return whether every chapter's latest version is chunked (read from the database)."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM writing_chapter WHERE id = ANY(%s) AND chunk_state = 'ready' "
            "AND chunked_version >= version",
            [chapter_ids],
        ).fetchone()
    return row[0] == len(chapter_ids)


class Typers:
    """N writers, each autosaving its own chapter every ``interval`` seconds until stopped."""

    def __init__(self, api: Api, chapter_ids: list[int], interval: float):
        self.api, self.chapter_ids, self.interval = api, chapter_ids, interval
        self.stop = threading.Event()
        self.saves: list[float] = []
        self.errors: list[str] = []
        self.threads = [
            threading.Thread(target=self._type, args=(pk,), daemon=True) for pk in chapter_ids
        ]

    def _type(self, chapter_id: int) -> None:
        n = 0
        while not self.stop.is_set():
            n += 1
            text = f"悟空又改了一遍这段话，第{n}稿：他驾着筋斗云，一去十万八千里。"
            body = {"blocks": [{"position": 0, "content": text}]}
            status, payload, seconds = self.api.call(
                "PATCH", f"/api/chapters/{chapter_id}/autosave", body
            )
            if status == 200:
                self.saves.append(seconds)
            else:
                self.errors.append(f"{status} {str(payload)[:120]}")
            self.stop.wait(self.interval)

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def join(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=30)


def typers_scenario(args, api: Api, url: str, run: str, chapters) -> dict:
    """Create ``args.typers`` chapters, chunk them, then type in all of them at once."""
    status, book, _ = api.post("/api/books/", {"title": f"打字 {run}"})
    if status != 201:
        raise SystemExit(f"book create failed: {status} {book}")
    ids = []
    for seq, (title, paragraphs) in enumerate(chapters[: args.typers], start=1):
        body = {"book": book["id"], "title": title, "sequence": seq}
        body["blocks"] = [{"content": p} for p in paragraphs[:8]]
        status, payload, _ = api.post("/api/chapters/", body)
        if status != 201:
            raise SystemExit(f"chapter create failed: {status} {payload}")
        ids.append(payload["id"])
    deadline = time.perf_counter() + args.limit
    while not chapters_chunked(url, ids) and time.perf_counter() < deadline:
        time.sleep(0.5)
    print(f"{len(ids)} chapters created and chunked; typing every {args.type_interval:g}s")
    typers = Typers(api, ids, args.type_interval)
    typers.start()
    time.sleep(args.type_interval * 3)  # the typing is under way before the first message
    return {"typers": typers, "ids": ids}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--db-name", default="bench_queues")
    parser.add_argument("--project", type=Path, default=ROOT, help="checkout to measure")
    parser.add_argument("--label", default="this branch", help="name of the code measured")
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--chapters", type=int, default=100)
    parser.add_argument("--limit", type=float, default=300.0, help="give up on a message after")
    parser.add_argument("--no-report", action="store_true", help="print only")
    parser.add_argument("--typers", type=int, default=0, help="type in N chapters, no import")
    parser.add_argument("--type-interval", type=float, default=0.5, help="seconds per autosave")
    parser.add_argument(
        "--publish",
        action="store_true",
        help="with --typers: write the figures to docs/BENCHMARKS.md",
    )
    args = parser.parse_args()

    project = args.project.resolve()
    url = bench_database_url(args.db_name, args.database_url)
    manage(project, url, "migrate", "--noinput")
    # Work left from an earlier run would compete with this one: start from an empty queue.
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM django_q_ormq")
    token = token_for(project, url, USERNAME)
    chapters = novel_chapters(args.datasets)[: args.chapters]
    print(f"measuring {project} ({args.label}); defaults changed: none (live settings, env)")
    print(f"{len(chapters)} chapters, {sum(len(''.join(p)) for _, p in chapters):,} characters")

    port = free_port()
    log = ROOT / ".runtime" / "bench_queue_latency_serve.log"
    log.parent.mkdir(exist_ok=True)
    server = start_serve(project, url, port, log)
    api = Api(port, token)
    run = uuid.uuid4().hex[:6]
    results, writes, searches, import_errors = [], [], [], []
    try:
        # Warm up as a running service is: the model loaded in the web process and a worker.
        warm = time_until_searchable(api, f"预热消息 {run}", f"q-{run}-warm", args.limit)
        print(f"warm-up message searchable after {warm['seconds']}s")
        typing = None
        if args.typers:
            typing = typers_scenario(args, api, url, run, chapters)
        else:
            t0 = time.perf_counter()
            book_id = import_book(api, f"西游记 {run}", chapters, import_errors)
            import_seconds = time.perf_counter() - t0
            pending_before = pending_chapters(url, book_id)
            print(f"imported in {import_seconds:.1f}s; {pending_before} chapters waiting")
        for i in range(args.messages):
            one = time_until_searchable(api, message_text(i, run), f"q-{run}-{i}", args.limit)
            results.append(one["seconds"])
            writes.append(one["write"])
            searches.append(one["search"])
            seconds = one["seconds"]
            shown = f"{seconds:.2f}s" if seconds is not None else f"not found in {args.limit}s"
            print(
                f"  message {i + 1}: searchable after {shown} ({one['polls']} polls; write "
                f"{one['write']:.2f}s, last search {one['search']:.2f}s)"
            )
        if typing:
            typers = typing["typers"]
            typers.join()
            quiet = time.perf_counter()
            deadline = quiet + args.limit
            while not chapters_chunked(url, typing["ids"]) and time.perf_counter() < deadline:
                time.sleep(0.1)
            settled = time.perf_counter() - quiet
        else:
            pending_after = pending_chapters(url, book_id)
    finally:
        stop_seconds = stop_serve(server)
    found = [s for s in results if s is not None]
    missing = len(results) - len(found)
    # A message never found counts as the limit (a lower bound of its real latency: the
    # table's figures are then "at least").
    counted = found + [args.limit] * missing
    p50, p95 = percentile(counted, 50), percentile(counted, 95)
    verdict = "met" if missing == 0 and p95 <= 5.0 else "NOT met"
    print(f"p50 {p50:.2f}s  p95 {p95:.2f}s  max {max(counted):.2f}s  target p95<=5s: {verdict}")
    if typing:
        saves = typers.saves
        print(
            f"{args.typers} typers: {len(saves)} autosaves ({len(typers.errors)} errors), "
            f"PATCH p50 {percentile(saves, 50):.2f}s p95 {percentile(saves, 95):.2f}s; "
            f"last edits chunked {settled:.2f}s after the typing stopped"
        )
    else:
        print(f"chapters pending: {pending_before} before the messages, {pending_after} after")
    print(f"serve stopped in {stop_seconds:.1f}s")
    print(shared_machine_note())
    if typing:
        if args.publish:
            publish_typers(
                args, typers, results, counted, settled=settled, stop_seconds=stop_seconds
            )
        return
    if args.no_report:
        return
    table = markdown_table(
        [
            "code",
            "messages",
            "p50 s",
            "p95 s",
            "max s",
            "not found",
            "write p50 s",
            "search p50 s",
            "pending chapters",
        ],
        [
            [
                args.label,
                len(results),
                round(p50, 2),
                round(p95, 2),
                round(max(counted), 2),
                missing,
                round(percentile(writes, 50), 2),
                round(percentile(searches, 50), 2),
                f"{pending_before} -> {pending_after}",
            ]
        ],
    )
    body = (
        f"`manage.py serve` of the measured code as `make run` starts it (web server and its "
        f"workers, default settings). {len(chapters)} chapters of 西游记 posted one by one "
        f"through the API (import took {import_seconds:.1f}s, "
        f"{len(import_errors)} errors); then {len(results)} chat messages written one at a "
        f"time, each timed from its POST until semantic search returns it (the write and the "
        f"successful search request's own durations are part of it: columns write and search)."
        f"\n\n"
        f"{table}\n\nTarget p95 <= 5 s: **{verdict}**. "
        f"`serve` stopped in {stop_seconds:.1f}s after Ctrl-C.  \n{shared_machine_note()}"
    )
    key = "queue-latency" if project == ROOT else "queue-latency-before"
    title = "Queues: time until a chat message is searchable during a book import"
    if project != ROOT:
        title += f" ({args.label})"
    write_section(key, title, body)


def publish_typers(args, typers: Typers, results, counted, *, settled, stop_seconds) -> None:
    """Write the typers scenario's section of docs/BENCHMARKS.md."""
    missing = sum(1 for s in results if s is None)
    p95 = percentile(counted, 95)
    verdict = "met" if missing == 0 and p95 <= 5.0 else "NOT met"
    saves = typers.saves or [0.0]
    table = markdown_table(
        [
            "code",
            "typers",
            "autosaves",
            "autosave errors",
            "messages",
            "p50 s",
            "p95 s",
            "max s",
            "not found",
            "PATCH p50 s",
            "PATCH p95 s",
            "last edits chunked after s",
        ],
        [
            [
                args.label,
                args.typers,
                len(typers.saves),
                len(typers.errors),
                len(results),
                round(percentile(counted, 50), 2),
                round(p95, 2),
                round(max(counted), 2),
                missing,
                round(percentile(saves, 50), 2),
                round(percentile(saves, 95), 2),
                round(settled, 2),
            ]
        ],
    )
    body = (
        f"`manage.py serve` of the measured code as `make run` starts it (web server and its "
        f"workers, default settings). {args.typers} chapters of 西游记 (the first 8 paragraphs "
        f"of each) created and chunked, then {args.typers} clients autosave one chapter each "
        f"(`PATCH /api/chapters/{{id}}/autosave`) every {args.type_interval:g} s while "
        f"{len(results)} chat messages are written one at a time, each timed from its POST "
        f"until semantic search returns it. Chapter edits are debounced by one mechanism (one "
        f"task per chapter queued to run no earlier than `last_edit_at` + `debounce_seconds`, "
        f"writing/tasks.py); the last column is how long after the typing stopped "
        f"every chapter's last edit was chunked (the debounce plus the chunking). No data split: "
        f"a latency workload.\n\n{table}\n\nTarget: a chat message searchable within 5 s (p95) "
        f"while five writers type: **{verdict}**. `serve` stopped in {stop_seconds:.1f}s after "
        f"Ctrl-C.  \n{shared_machine_note()}"
    )
    title = "Queues: time until a chat message is searchable while writers type in chapters"
    write_section("queue-latency-typers", title, body)


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    main()
