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

from bench._common import ROOT


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


def start_serve(project: Path, url: str, port: int, log: Path) -> subprocess.Popen:
    """Start ``manage.py serve`` (web server and workers, as ``make run``) and wait for it."""
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=project_env(url),
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


class Api:
    """A tiny JSON client; safe to share between threads (one connection per request)."""

    def __init__(self, port: int, token: str):
        self.base = f"http://127.0.0.1:{port}"
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.lock = threading.Lock()

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 120):
        """Return (status, payload, seconds); a connection error is status 0."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path, data=data, headers=self.headers, method=method
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw, status = resp.read(), resp.status
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
        f"The machine is shared with other agents' work: load average {load[0]:.1f} / "
        f"{load[1]:.1f} / {load[2]:.1f} (1/5/15 min) when the run ended."
    )


def load_text() -> str:
    """Return the load average (1 / 5 / 15 min), recorded with every figure."""
    import os

    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


def http_clients(api, path: str, bodies: list[dict], clients: int) -> dict:
    """POST the bodies to ``path`` from ``clients`` threads; return latencies and throughput."""
    import threading
    import time

    from bench._common import percentile

    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    shares = [bodies[c::clients] for c in range(clients)]

    def work(share):
        for body in share:
            status, payload, seconds = api.post(path, body, timeout=60)
            with lock:
                times.append(seconds * 1000)
                if status != 200:
                    errors.append(f"{status} {str(payload)[:200]}")

    threads = [threading.Thread(target=work, args=(share,)) for share in shares]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    return {
        "clients": clients,
        "requests": len(times),
        "rps": len(times) / elapsed,
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "p99": percentile(times, 99),
        "errors": errors,
        "load": load_text(),
    }
