"""``manage.py serve`` (what ``make run`` starts): Ctrl-C stops everything it started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config import embedded_db
from tests.platform.live_service import free_port, manage

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

ROOT = Path(__file__).resolve().parents[2]


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def server_running(data_dir: Path) -> bool:
    from pgserver.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(data_dir)
    return info is not None and info.is_running()


@pytest.fixture
def pg_dir(tmp_path):
    """Give a private embedded-server data dir, migrated (serve refuses an unmigrated one).

    Its server is left running by ``migrate``, as ``make run`` leaves it for ``serve``; any
    server left in it afterwards is stopped.
    """
    path = tmp_path / "pgdata"
    manage(path, "migrate", "--noinput")
    yield path
    embedded_db.stop(path)


def start_serve(pg_dir: Path, port: int, *extra: str, **popen) -> subprocess.Popen:
    """Start ``serve`` with the default settings (DEBUG off) on its own embedded server.

    ``popen`` overrides the ``subprocess.Popen`` arguments (by default its output is piped).
    """
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "EMBEDDED_DB_CLEANUP"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        EMBEDDED_DB_DIR=str(pg_dir),
        DJANGO_DEBUG="0",
        STATIC_ROOT=str(pg_dir.parent / "static"),
        PYTHONUNBUFFERED="1",
    )
    command = [sys.executable, "manage.py", "serve", "--no-worker", "--addr", f"127.0.0.1:{port}"]
    options = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True, **popen}
    return subprocess.Popen([*command, *extra], cwd=ROOT, env=env, **options)


def interrupt_when_listening(process: subprocess.Popen, port: int) -> str:
    """Wait for the web server, send Ctrl-C (SIGINT) and return everything it printed."""
    deadline = time.monotonic() + 120
    while not port_open(port):
        assert process.poll() is None, process.stdout.read()
        assert time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    return output


def test_ctrl_c_stops_the_web_server_and_the_embedded_database(pg_dir):
    port = free_port()
    output = interrupt_when_listening(start_serve(pg_dir, port), port)
    assert "Stopped the embedded PostgreSQL" in output
    assert not port_open(port)
    assert not server_running(pg_dir)


@pytest.mark.slow
def test_ctrl_c_on_serve_piped_through_tee_stops_the_embedded_database(pg_dir, tmp_path):
    # `make run 2>&1 | tee log`: serve and tee share the foreground process group, so Ctrl-C
    # interrupts both and serve reports its shutdown into a pipe nobody reads any more.
    port = free_port()
    read_end, write_end = os.pipe()
    serve = start_serve(pg_dir, port, stdout=write_end, process_group=0)
    tee = subprocess.Popen(
        ["tee", str(tmp_path / "log")],
        stdin=read_end,
        stdout=subprocess.DEVNULL,
        process_group=serve.pid,
    )
    os.close(read_end)
    os.close(write_end)
    try:
        deadline = time.monotonic() + 120
        while not port_open(port):
            assert serve.poll() is None, (tmp_path / "log").read_text()
            assert time.monotonic() < deadline, "the web server did not start"
            time.sleep(0.3)
        os.killpg(serve.pid, signal.SIGINT)
        tee.wait(timeout=30)
        serve.wait(timeout=60)
    finally:
        for process in (serve, tee):
            if process.poll() is None:
                process.kill()
    assert not port_open(port)
    assert not server_running(pg_dir)


def test_keep_db_leaves_the_embedded_database_running(pg_dir):
    port = free_port()
    output = interrupt_when_listening(start_serve(pg_dir, port, "--keep-db"), port)
    assert "Stopped the web server" in output
    assert not port_open(port)
    assert server_running(pg_dir)


@pytest.fixture
def serve_workers(worker_env, tmp_path):
    """Start ``serve --no-web`` (a cluster per queue; 1 bulk, 1 webhooks worker) on the test DB."""
    from tests.rag.process_helpers import kill_group, start, wait_for_clusters

    log = tmp_path / "serve.log"
    env = {
        **worker_env,
        "Q_WORKERS_INTERACTIVE": "2",
        "Q_WORKERS_BULK": "1",
        "Q_WORKERS_WEBHOOKS": "1",
    }
    process = start(env, "serve", "--no-web", log=log)
    procs = wait_for_clusters(process, clusters=3, workers=4, log=log, forked=True)
    yield process, procs, log
    kill_group(process)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_stops_every_worker_within_ten_seconds(serve_workers, signum):
    from tests.rag.process_helpers import STOP_BOUND_SECONDS, still_there

    process, procs, log = serve_workers
    process.send_signal(signum)
    process.wait(timeout=STOP_BOUND_SECONDS)
    assert still_there(procs) == [], log.read_text()
    assert "queue 'interactive'" in log.read_text() and "queue 'bulk'" in log.read_text()


def test_interactive_task_runs_while_the_bulk_queue_is_full(serve_workers, tmp_path):
    from config.queues import BULK, INTERACTIVE, enqueue_now
    from tests.rag.process_helpers import wait_for_file

    process, _, log = serve_workers
    gate = tmp_path / "gate"
    pile = [tmp_path / f"bulk-{i}" for i in range(4)]
    for done in pile:
        enqueue_now(
            "tests.rag.queue_probe.wait_for_gate", str(gate), str(done), queue=BULK, sync=False
        )
    interactive = tmp_path / "interactive"
    enqueue_now("tests.rag.queue_probe.touch", str(interactive), queue=INTERACTIVE, sync=False)

    wait_for_file(interactive, process, log)
    assert not any(done.exists() for done in pile)  # the bulk pile has not drained
    gate.touch()
    for done in pile:
        wait_for_file(done, process, log)  # and bulk work still gets done


@pytest.mark.django_db
def test_serve_refuses_to_start_while_a_migration_is_unapplied(monkeypatch):
    from django.core.management import CommandError, call_command
    from django.db.migrations.recorder import MigrationRecorder

    from serving import warmup

    def started(*args, **kwargs):
        raise AssertionError("serve went on to load and fork")

    monkeypatch.setattr(warmup, "preload", started)
    latest = MigrationRecorder.Migration.objects.filter(app="memory").latest("id")
    latest.delete()  # rolled back with the test's transaction
    with pytest.raises(CommandError, match=rf"memory\.{latest.name}.*manage\.py migrate"):
        call_command("serve", "--no-worker")


@pytest.mark.django_db
def test_serve_finds_nothing_to_apply_on_a_migrated_database():
    from serving.management.commands.serve import unapplied_migrations

    assert unapplied_migrations() == []


def test_serve_refuses_to_run_neither_the_web_server_nor_the_workers():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="nothing to run"):
        call_command("serve", "--no-worker", "--no-web")


def test_serve_says_which_database_it_cannot_read_instead_of_a_traceback(monkeypatch):
    from django.core.management import CommandError, call_command
    from django.db import OperationalError

    from serving.management.commands import serve as serve_command

    def unreachable(database="default"):
        raise OperationalError("connection refused")

    monkeypatch.setattr(serve_command, "unapplied_migrations", unreachable)
    with pytest.raises(CommandError, match="database 'default': connection refused"):
        call_command("serve", "--no-worker")
