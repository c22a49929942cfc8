"""The embedded PostgreSQL: ``start`` (its settings, its handle, its cleanup) and
``python -m config.embedded_db stop`` (what ``make stop`` runs)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pgserver
import psycopg
import pytest

from config import embedded_db
from config.embedded_db import postgres_pids, sized_settings

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

ROOT = Path(__file__).resolve().parents[2]


def run_python(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run this interpreter on ``args`` in the project root, in a process of its own."""
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def run_stop(data_dir: Path) -> subprocess.CompletedProcess:
    return run_python(
        "-m", "config.embedded_db", "stop", env={**os.environ, "EMBEDDED_DB_DIR": str(data_dir)}
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
    with psycopg.connect(uri, autocommit=True) as conn:
        return conn.execute("SHOW shared_buffers").fetchone()[0]


def _postmaster_pid(data_dir: Path) -> str:
    return (data_dir / "postmaster.pid").read_text().splitlines()[0]


def test_start_gives_the_server_the_shared_buffers_asked_for_once(tmp_path):
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
    data_dir = tmp_path / "pg"
    try:
        with pytest.raises(ValueError, match="EMBEDDED_DB_SHARED_BUFFERS"):
            embedded_db.start(data_dir, shared_buffers="512MB'; DROP")
    finally:
        embedded_db.stop(data_dir)


def test_the_server_listens_on_an_owner_only_unix_socket_and_no_tcp_address(tmp_path):
    """Its authentication is trust: only the socket, mode 0700, may reach it."""
    data_dir = tmp_path / "pg"
    try:
        uri = embedded_db.start(data_dir)
        with psycopg.connect(uri, autocommit=True) as conn:
            listen = conn.execute("SHOW listen_addresses").fetchone()[0]
            mode = conn.execute("SHOW unix_socket_permissions").fetchone()[0]
            auth = conn.execute("SELECT auth_method FROM pg_hba_file_rules").fetchall()
        assert listen == "" and mode == "0700"
        assert {row[0] for row in auth} == {"trust"}  # what docs/SECURITY.md says
        # postmaster.pid line 6: the first TCP address listened on (empty: none).
        assert (data_dir / "postmaster.pid").read_text().splitlines()[5] == ""
        query = parse_qs(urlparse(uri).query)
        socket_dir = Path(query.get("host", [urlparse(uri).hostname or ""])[0])
        sockets = list(socket_dir.glob(".s.PGSQL.*"))
        sockets = [s for s in sockets if not s.name.endswith(".lock")]
        assert sockets and all(stat.S_IMODE(s.stat().st_mode) & 0o077 == 0 for s in sockets)
    finally:
        embedded_db.stop(data_dir)


GB = 2**30


def test_sized_shared_buffers_is_the_data_rounded_up_to_a_power_of_two():
    assert sized_settings(24 * GB, 460 * 2**20)["shared_buffers"] == "512MB"
    assert sized_settings(24 * GB, 3 * GB)["shared_buffers"] == "4096MB"


def test_sized_shared_buffers_stays_within_a_quarter_of_the_memory():
    assert sized_settings(24 * GB, 20 * GB)["shared_buffers"] == "6144MB"


def test_sized_shared_buffers_of_an_empty_server_is_postgresql_default():
    assert sized_settings(24 * GB, 0)["shared_buffers"] == "128MB"


def test_sized_cache_hint_is_half_the_memory_and_maintenance_memory_is_bounded():
    sizes = sized_settings(24 * GB, 0)
    assert sizes["effective_cache_size"] == "12288MB"
    assert sizes["maintenance_work_mem"] == "768MB"
    assert sized_settings(256 * GB, 0)["maintenance_work_mem"] == "1024MB"


def test_start_with_auto_sizes_a_server_it_starts_from_the_machine(tmp_path):
    data_dir = tmp_path / "pg"
    try:
        uri = embedded_db.start(data_dir, shared_buffers="auto")
        expected = embedded_db.sized_settings(embedded_db.machine_ram(), 0)
        with psycopg.connect(uri, autocommit=True) as conn:
            shown = conn.execute("SHOW effective_cache_size").fetchone()[0]
        assert shown == conn_size(expected["effective_cache_size"])
    finally:
        embedded_db.stop(data_dir)


def conn_size(value: str) -> str:
    """Return a size as PostgreSQL shows it (12288MB -> 12GB)."""
    mb = int(value[:-2])
    return f"{mb // 1024}GB" if mb % 1024 == 0 else value


def test_prewarm_reports_none_where_the_server_has_no_pg_prewarm(tmp_path):
    # pgserver's build ships no pg_prewarm: the start must not fail for it.

    data_dir = tmp_path / "pg"
    try:
        uri = embedded_db.start(data_dir, shared_buffers="128MB")
        assert embedded_db.prewarm(uri) is None
    finally:
        embedded_db.stop(data_dir)


THROW_AWAY = (
    "import sys\n"
    "from config import embedded_db\n"
    "embedded_db.start(sys.argv[1], cleanup_mode='delete', shared_buffers='128MB')\n"
)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(THROW_AWAY, id="as-started"),
        # Asked for another size while it runs: restarted, its handle must follow.
        pytest.param(
            THROW_AWAY + "embedded_db.start(sys.argv[1], shared_buffers='160MB')\n", id="restarted"
        ),
    ],
)
def test_a_throw_away_server_is_stopped_and_deleted_when_its_process_exits(tmp_path, code):
    """As the test session uses it: cleanup "delete"."""
    data_dir = tmp_path / "pg"
    try:
        done = run_python("-c", code, str(data_dir))
        assert done.returncode == 0, done.stderr[-2000:]
        assert not data_dir.exists()
        assert postgres_pids(data_dir) == []
    finally:
        for pid in postgres_pids(data_dir):
            os.kill(pid, 2)  # SIGINT: PostgreSQL's fast shutdown


def _shutdowns_logged(data_dir: Path) -> int:
    """Return how often the server on ``data_dir`` shut down, by the log pgserver started it with
    (a restart's new server may log elsewhere; the old one logs its shutdown there)."""

    log = pgserver.get_server(str(data_dir)).log.read_text()
    return log.count("database system is shut down")


def test_a_server_it_starts_has_its_settings_from_the_start_without_a_restart(tmp_path):
    data_dir = tmp_path / "pg"
    try:
        uri = embedded_db.start(data_dir, shared_buffers="160MB")
        with psycopg.connect(uri, autocommit=True) as conn:
            mode = conn.execute("SHOW unix_socket_permissions").fetchone()[0]
        assert (_show_shared_buffers(uri), mode) == ("160MB", "0700")
        assert _shutdowns_logged(data_dir) == 0
    finally:
        embedded_db.stop(data_dir)


def test_a_stopped_server_is_sized_from_its_data_when_started_again_keeping_other_settings(
    tmp_path,
):

    data_dir = tmp_path / "pg"
    try:
        uri = embedded_db.start(data_dir, shared_buffers="160MB")
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET work_mem = '7MB'")  # an operator's own setting
        embedded_db.stop(data_dir)
        uri = embedded_db.start(data_dir, shared_buffers="auto")
        expected = embedded_db.sized_settings(embedded_db.machine_ram(), 0)["shared_buffers"]
        with psycopg.connect(uri, autocommit=True) as conn:
            work_mem = conn.execute("SHOW work_mem").fetchone()[0]
        assert (_show_shared_buffers(uri), work_mem) == (expected, "7MB")
        assert _shutdowns_logged(data_dir) == 1  # the stop, no restart
    finally:
        embedded_db.stop(data_dir)


def test_a_running_server_asked_for_another_size_restarts_and_the_handle_follows(tmp_path):
    """pgserver stops the postmaster its handle holds at exit: it must be the one running."""
    data_dir = tmp_path / "pg"
    try:
        embedded_db.start(data_dir, shared_buffers="160MB")
        first = _postmaster_pid(data_dir)
        uri = embedded_db.start(data_dir, shared_buffers="192MB")
        assert _show_shared_buffers(uri) == "192MB"
        assert _postmaster_pid(data_dir) != first
        handle = pgserver.get_server(str(data_dir))
        assert str(handle.get_pid()) == _postmaster_pid(data_dir)
    finally:
        embedded_db.stop(data_dir)


def test_a_server_this_process_stopped_is_started_again_by_its_handle(tmp_path):
    data_dir = tmp_path / "pg"
    try:
        embedded_db.start(data_dir, shared_buffers="128MB")
        assert embedded_db.stop(data_dir)
        uri = embedded_db.start(data_dir, shared_buffers="128MB")
        assert _show_shared_buffers(uri) == "128MB"
        handle = pgserver.get_server(str(data_dir))
        assert str(handle.get_pid()) == _postmaster_pid(data_dir)
    finally:
        embedded_db.stop(data_dir)


def test_a_postgres_left_on_a_deleted_cluster_is_replaced_and_the_new_one_gets_its_settings(
    tmp_path,
):
    """rm -rf of a running data directory, then a new run: pgserver's own initdb stops the
    server left behind; the settings then take a restart."""

    data_dir = tmp_path / "pg"
    try:
        embedded_db.start(data_dir, shared_buffers="128MB")
        left = postgres_pids(data_dir)
        shutil.rmtree(data_dir)
        # The next run, another process (this one's pgserver handle still holds the old server).
        code = (
            "import sys\n"
            "from config import embedded_db\n"
            "print(embedded_db.start(sys.argv[1], shared_buffers='160MB'))\n"
        )
        done = run_python("-c", code, str(data_dir))
        assert done.returncode == 0, done.stderr[-2000:]
        uri = done.stdout.strip().splitlines()[-1]
        with psycopg.connect(uri, autocommit=True) as conn:
            mode = conn.execute("SHOW unix_socket_permissions").fetchone()[0]
        assert (_show_shared_buffers(uri), mode) == ("160MB", "0700")
        assert not set(left) & set(postgres_pids(data_dir))
    finally:
        embedded_db.stop(data_dir)
        for pid in postgres_pids(data_dir):
            os.kill(pid, 2)  # SIGINT: PostgreSQL's fast shutdown
