"""``python -m config.embedded_db stop`` (what ``make stop`` runs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

ROOT = Path(__file__).resolve().parents[2]


def run_stop(data_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "EMBEDDED_DB_DIR": str(data_dir)}
    return subprocess.run(
        [sys.executable, "-m", "config.embedded_db", "stop"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_stop_on_an_empty_data_dir_says_nothing_was_running(tmp_path):
    result = run_stop(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no embedded PostgreSQL was running" in result.stdout


def test_stop_on_a_missing_data_dir_exits_zero(tmp_path):
    result = run_stop(tmp_path / "never-created")
    assert result.returncode == 0, result.stderr
    assert "no embedded PostgreSQL was running" in result.stdout


def test_stop_uses_embedded_db_dir_not_the_default(tmp_path):
    # The development server in .pgdata must not be the one asked to stop.
    result = run_stop(tmp_path)
    assert str(tmp_path) in result.stdout


def test_stop_ignores_a_stale_pid_file(tmp_path):
    # A server killed with SIGKILL leaves postmaster.pid behind, naming a dead process.
    dead_pid = 2**22 - 1
    lines = [str(dead_pid), str(tmp_path), "1700000000", "5432", str(tmp_path), "", "0 0", "ready"]
    (tmp_path / "postmaster.pid").write_text("\n".join(lines) + "\n")
    result = run_stop(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no embedded PostgreSQL was running" in result.stdout


def _show_shared_buffers(uri: str) -> str:
    import psycopg

    with psycopg.connect(uri, autocommit=True) as conn:
        return conn.execute("SHOW shared_buffers").fetchone()[0]


def _postmaster_pid(data_dir: Path) -> str:
    return (data_dir / "postmaster.pid").read_text().splitlines()[0]


def test_start_gives_the_server_the_shared_buffers_asked_for_once(tmp_path):
    from config import embedded_db

    data_dir = tmp_path / "pg"
    try:
        uri = embedded_db.start(data_dir, shared_buffers="192MB")
        assert _show_shared_buffers(uri) == "192MB"
        pid = _postmaster_pid(data_dir)
        # Asked again for the same size: the server is not restarted.
        embedded_db.start(data_dir, shared_buffers="192MB")
        assert _postmaster_pid(data_dir) == pid
    finally:
        embedded_db.stop(data_dir)


def test_start_refuses_a_shared_buffers_size_it_cannot_read(tmp_path):
    import pytest

    from config import embedded_db

    data_dir = tmp_path / "pg"
    try:
        with pytest.raises(ValueError, match="EMBEDDED_DB_SHARED_BUFFERS"):
            embedded_db.start(data_dir, shared_buffers="512MB'; DROP")
    finally:
        embedded_db.stop(data_dir)
