"""Helpers of the benchmarks that run against a live ``manage.py serve`` over real HTTP.

The server under test runs the project's own commands in subprocesses (``migrate``,
``issue_token``, ``serve``) on a benchmark database, so a script can also measure another
checkout of the project (``--project``, e.g. the code before a change) with the same client.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench._common import ROOT, lift_api_throttles


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def project_env(url: str, **extra: str) -> dict:
    """Environment of the server under test: the benchmark database, nothing else changed."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(DATABASE_URL=url, PYTHONUNBUFFERED="1", **extra)
    return env


def manage(project: Path, url: str, *args: str) -> str:
    """Run ``manage.py <args>`` of ``project`` on the benchmark database; return its stdout."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=project,
        env=project_env(url),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def token_for(project: Path, url: str, username: str) -> str:
    """Create the user when missing and return its API token."""
    return manage(project, url, "issue_token", username).strip().splitlines()[-1]


def start_serve(
    project: Path, url: str, port: int, log: Path, env: dict | None = None
) -> subprocess.Popen:
    """Start ``manage.py serve`` (web server and workers, as ``make run``) and wait for it.

    ``env``: settings changed for this run (environment variables), reported by the caller.
    Every API throttle is lifted (:func:`bench._common.lift_api_throttles`): a benchmark's
    clients ask far more per minute than one user may, and a 429 is not a search.
    """
    lift_api_throttles()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=project_env(url, **(env or {})),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"serve exited:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                time.sleep(3)  # let the clusters finish starting too
                return process
        except OSError:
            time.sleep(0.3)
    raise SystemExit("serve did not start")


def get_json(port: int, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, {}
    except (OSError, ValueError):
        return 0, {}


def start_until_ready(project: Path, url: str, port: int, log: Path, env: dict) -> tuple:
    """Start serve; return (process, seconds until listening, seconds until ready + beats).

    Ready: ``/api/health`` says ``ready`` with a heartbeat from every queue (180 s at most;
    None when it never did). The heartbeats of earlier starts are deleted first.
    """
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        # Beats left by an earlier start would make this one look ready with its clusters.
        conn.execute("DELETE FROM rag_workerheartbeat")
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=project_env(url, **env),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    listening = ready = None
    deadline = started + 180
    while time.perf_counter() < deadline and ready is None:
        if process.poll() is not None:
            raise SystemExit(f"serve exited:\n{log.read_text()[-3000:]}")
        if listening is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    listening = time.perf_counter() - started
            except OSError:
                time.sleep(0.1)
                continue
        status, body = get_json(port, "/api/health")
        queues = body.get("worker_queues") or {}
        if (
            status == 200
            and body.get("ready", True)
            and all(v is not None for v in queues.values())
        ):
            ready = time.perf_counter() - started
        else:
            time.sleep(0.2)
    return process, listening, ready


def stop_serve(process: subprocess.Popen) -> float:
    """Stop serve as Ctrl-C does; return the seconds it took (killed after 60 s)."""
    started = time.perf_counter()
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return time.perf_counter() - started


def parse_server_timing(value: str | None) -> dict[str, float]:
    """Return {name: milliseconds} of a ``Server-Timing`` header value (config/timing.py)."""
    spans: dict[str, float] = {}
    for part in (value or "").split(","):
        name, _, params = part.strip().partition(";")
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if name and key == "dur":
                spans[name] = float(number)
    return spans


class Api:
    """A tiny JSON client; safe to share between threads (one connection per request)."""

    def __init__(self, port: int, token: str):
        self.base = f"http://127.0.0.1:{port}"
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.lock = threading.Lock()
        self._last = threading.local()

    def last_timing(self) -> dict[str, float]:
        """Return the Server-Timing spans of this thread's last response ({} without one)."""
        return getattr(self._last, "timing", {})

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 120):
        """Return (status, payload, seconds); a connection error is status 0."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path, data=data, headers=self.headers, method=method
        )
        start = time.perf_counter()
        self._last.timing = {}
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw, status = resp.read(), resp.status
                self._last.timing = parse_server_timing(resp.headers.get("Server-Timing"))
        except urllib.error.HTTPError as exc:
            raw, status = exc.read(), exc.code
        except (urllib.error.URLError, OSError) as exc:
            return 0, {"error": str(exc)}, time.perf_counter() - start
        try:
            payload = json.loads(raw) if raw else {}
        except ValueError:
            payload = {"raw": raw[:200].decode(errors="replace")}
        return status, payload, time.perf_counter() - start

    def post(self, path: str, body: dict, timeout: float = 120):
        return self.call("POST", path, body, timeout)


def novel_chapters(datasets: Path, name: str = "xiyouji.txt") -> list[tuple[str, list[str]]]:
    """Return the novel's chapters (split at ^第...回) as (title, paragraphs)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from writing.demo import parse_chapters

    return parse_chapters((datasets / "novels" / name).read_text(encoding="utf-8"))


def import_book(api: Api, title: str, chapters, errors: list) -> int:
    """Create a book and post its chapters one by one, as a client importing it would."""
    status, book, _ = api.post("/api/books/", {"title": title})
    if status != 201:
        raise SystemExit(f"book create failed: {status} {book}")
    for seq, (chapter_title, paragraphs) in enumerate(chapters, start=1):
        body = {
            "book": book["id"],
            "title": chapter_title,
            "sequence": seq,
            "blocks": [{"content": p} for p in paragraphs],
        }
        status, payload, _ = api.post("/api/chapters/", body)
        if status != 201:
            errors.append(f"chapter {seq}: {status} {str(payload)[:200]}")
    return book["id"]


def pending_chapters(url: str, book_id: int) -> int:
    """Count the book's chapters still waiting for chunking (read straight from the database)."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM writing_chapter WHERE book_id = %s AND chunk_state = 'pending'",
            [book_id],
        ).fetchone()
    return row[0]


def shared_machine_note() -> str:
    load = os.getloadavg()
    return (
        f"The machine was shared: load average {load[0]:.1f} / "
        f"{load[1]:.1f} / {load[2]:.1f} (1/5/15 min) when the run ended."
    )


def load_text() -> str:
    """Return the load average (1 / 5 / 15 min), recorded with every figure."""
    import os

    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


def cpu_ticks() -> tuple[int, int]:
    """Return this machine's (busy, total) CPU ticks since boot, from /proc/stat (0, 0 if none).

    Idle and I/O wait count as idle; steal (another VM holding the host's core) as busy.
    """
    try:
        with open("/proc/stat") as f:
            ticks = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    total = sum(ticks[:8])  # guest time is already counted in user and nice
    return total - ticks[3] - ticks[4], total


def http_clients(api, path: str, bodies: list[dict], clients: int) -> dict:
    """POST the bodies to ``path`` from ``clients`` threads; return latencies and throughput."""
    import threading
    import time

    from bench._common import percentile

    times: list[float] = []
    spans: dict[str, list[float]] = {}
    errors: list[str] = []
    lock = threading.Lock()
    shares = [bodies[c::clients] for c in range(clients)]

    def work(share):
        for body in share:
            status, payload, seconds = api.post(path, body, timeout=60)
            timing = api.last_timing()
            with lock:
                times.append(seconds * 1000)
                if "app" in timing:
                    rest = timing["app"] - timing.get("db", 0.0) - timing.get("embed", 0.0)
                    parts = {**timing, "rest": rest, "outside": seconds * 1000 - timing["app"]}
                    for name, ms in parts.items():
                        spans.setdefault(name, []).append(ms)
                if status != 200:
                    errors.append(f"{status} {str(payload)[:200]}")

    threads = [threading.Thread(target=work, args=(share,)) for share in shares]
    busy_before, total_before = cpu_ticks()
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    busy_after, total_after = cpu_ticks()
    busy, total = busy_after - busy_before, total_after - total_before
    cores = os.cpu_count() or 1
    # Every process of the machine: the server, PostgreSQL, these clients (and other work).
    busy_fraction = busy / total if total else float("nan")
    return {
        "cores_busy": busy_fraction * cores,
        "cpu_ms": busy_fraction * cores * elapsed * 1000 / max(len(times), 1),
        "clients": clients,
        "requests": len(times),
        "rps": len(times) / elapsed,
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "p99": percentile(times, 99),
        "errors": errors,
        "load": load_text(),
        "spans": spans,
    }


SERVED_PARTS = [
    ("embed", "query embedding (waiting for the model, `embed`)"),
    ("db", "SQL (every statement, round trips included, `db`)"),
    ("rest", "the rest of the request in Python (`app` - `db` - `embed`)"),
    ("app", "whole request inside the server (`app`)"),
    ("outside", "outside the application: HTTP, gunicorn, client (round trip - `app`)"),
]


def served_breakdown(result: dict) -> str:
    """Return a markdown table of the Server-Timing spans of ``result`` (from http_clients)."""
    from bench._common import markdown_table, percentile

    spans = result.get("spans") or {}
    rows = [
        [label, percentile(spans[name], 50), percentile(spans[name], 95)]
        for name, label in SERVED_PARTS
        if spans.get(name)
    ]
    if not rows:
        return "(the server sent no Server-Timing header)"
    return markdown_table(["part", "p50 ms", "p95 ms"], rows) + (
        f"\n\nFrom the `Server-Timing` header of the same {len(spans['app'])} responses "
        "(config/timing.py). Percentiles are per part: they do not add up."
    )
