"""A real ``qcluster`` SIGKILLed mid-task: the work is finished by the next one, via the reconciler.

Real processes on a throw-away embedded PostgreSQL: ``migrate``, a chapter created through the
service (its chunking task goes to the ORM broker), a worker killed with SIGKILL while the task
runs, and a new worker. The killed task stays locked in the broker for ``Q_RETRY`` (set far
beyond the wait here), so only the reconciler can bring the chapter to ``ready`` in time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from config import embedded_db

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.real_clock, pytest.mark.slow]
TIMEOUT = 40  # Q_TIMEOUT of the workers: a running row is stale after TIMEOUT + 10 s
SCHEDULER_DELAY = 30  # a cluster's guard first looks at the schedules 30 s after it starts

# Twelve blocks of about 140 characters: a task of some seconds, caught while it runs.
SETUP = """
from django.contrib.auth import get_user_model
from writing.services import book_create, chapter_create
user = get_user_model().objects.create_user("faults", password="x")
book = book_create(user=user, title="故障之书")
line = "师徒四人走到一座高山前，只见山势险峻，峰岩重叠，悟空跳上云头四下观看，说前面有妖气。"
blocks = [{"content": "".join(f"{line[:-1]}（{i}-{j}）。" for j in range(3))} for i in range(12)]
chapter = chapter_create(user=user, book_id=book.pk, title="第一回", sequence=1, blocks=blocks)
print("CHAPTER", chapter.pk)
"""


@pytest.fixture
def database(tmp_path):
    """Start a private embedded PostgreSQL; yield its URI; stop it afterwards."""
    data = tmp_path / "pgdata"
    uri = embedded_db.start(data)
    yield uri
    embedded_db.stop(data)


def worker_env(uri: str) -> dict:
    """Development settings against ``uri`` with a real (non-sync) queue and short limits."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"EMBEDDED_DB_DIR", "EMBEDDED_DB_CLEANUP", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DATABASE_URL=uri,
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONUNBUFFERED="1",
        Q_SYNC="0",
        Q_WORKERS="1",
        Q_POLL="0.2",
        Q_TIMEOUT=str(TIMEOUT),
        Q_RETRY="900",  # the broker would redeliver the killed task only after 15 minutes
        WRITING_DEBOUNCE_WORKER_WAIT="0",
    )
    return env


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def start_cluster(env: dict, log: Path) -> subprocess.Popen:
    """Start ``qcluster`` in its own process group (so SIGKILL reaches every worker)."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def kill(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def chapter_row(uri: str, chapter_id: int) -> dict:
    with psycopg.connect(uri, autocommit=True) as conn:
        row = conn.execute(
            "SELECT chunk_state, chunk_attempts, chunk_error, version, chunked_version "
            "FROM writing_chapter WHERE id = %s",
            [chapter_id],
        ).fetchone()
    return dict(zip(["state", "attempts", "error", "version", "chunked_version"], row, strict=True))


def wait_for(uri: str, chapter_id: int, states: set[str], seconds: float, log: Path) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        row = chapter_row(uri, chapter_id)
        if row["state"] in states:
            return row
        assert time.monotonic() < deadline, f"chapter stayed {row}; worker log:\n{log.read_text()}"
        time.sleep(0.05)


def test_chapter_chunked_by_a_killed_worker_ends_ready_through_the_reconciler(database, tmp_path):
    env = worker_env(database)
    manage(env, "migrate", "--no-input")
    chapter_id = int(manage(env, "shell", "-c", SETUP).split("CHAPTER")[-1])
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    first = start_cluster(env, first_log)
    try:
        running = wait_for(database, chapter_id, {"running"}, 120, first_log)
    finally:
        kill(first)  # SIGKILL: no except, no finally, no result in the queue
    assert running["attempts"] == 1
    assert chapter_row(database, chapter_id)["state"] == "running"  # the evidence stays
    with psycopg.connect(database, autocommit=True) as conn:
        # The killed task is still locked in the broker; make the reconciler's minute come now.
        assert conn.execute("SELECT count(*) FROM django_q_ormq").fetchone()[0] >= 1
        conn.execute(
            "UPDATE django_q_schedule SET next_run = now() WHERE name = 'rag.work_reconcile'"
        )
        # Start the next worker so that its first scheduler pass finds the row stale.
        age = conn.execute(
            "SELECT extract(epoch FROM now() - chunk_state_at) FROM writing_chapter WHERE id = %s",
            [chapter_id],
        ).fetchone()[0]
    time.sleep(max(0.0, TIMEOUT + 10 - SCHEDULER_DELAY + 3 - float(age)))
    second = start_cluster(env, second_log)
    try:
        row = wait_for(database, chapter_id, {"ready", "failed"}, 150, second_log)
    finally:
        kill(second)
    assert row["state"] == "ready", row
    assert row["chunked_version"] == row["version"] and row["attempts"] == 0
    with psycopg.connect(database, autocommit=True) as conn:
        children = conn.execute(
            "SELECT count(*) FROM writing_childchunk WHERE chapter_id = %s", [chapter_id]
        ).fetchone()[0]
    assert children > 0
