"""Read replicas: searches read a real streaming replica, with read-your-writes and fall-back.

The replica is made the way an operator makes one: ``pg_basebackup -R`` from the running
embedded primary (its PostgreSQL ships the tool), started on its own socket and port; the web
server is the real process with ``DATABASE_REPLICA_URLS``; every read and write goes over HTTP.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import pgserver
import psycopg
import pytest
from pgserver.utils import PostmasterInfo

from config import replicas
from tests.platform.live_service import ServiceDatabase, WebServer, free_port

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

PG_USER = "pgserver" if os.geteuid() == 0 else None


# --- the router without replicas (the default) ------------------------------------------------


def test_without_replicas_every_read_goes_to_the_primary(settings):
    settings.REPLICA_DATABASES = []
    router = replicas.ReplicaRouter()

    with replicas.search_reads() as alias:
        assert alias == "default"
        assert router.db_for_read(object) is None  # Django's default database
    assert router.db_for_write(object) == "default"
    assert router.allow_migrate("replica_1", "memory") is False
    assert router.allow_migrate("default", "memory") is True


# --- a real streaming replica ----------------------------------------------------------------


def _run_pg(name: str, *args: str, pgdata: Path | None = None) -> None:
    """Run a PostgreSQL program pgserver ships, through its public command function."""
    getattr(pgserver, name)(list(args), pgdata=pgdata, user=PG_USER)


def _owned_dir(path: Path) -> Path:
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if PG_USER:
        shutil.chown(path, PG_USER)
    return path


@pytest.fixture(scope="module")
def primary():
    """A migrated embedded primary with users alice and bob (their tokens in ``.tokens``)."""
    from config import embedded_db

    root = Path(tempfile.mkdtemp(prefix="semmem-replica-"))
    root.chmod(0o755)
    data_dir = root / "pgdata"
    try:
        db = ServiceDatabase(data_dir).create()
        db.root = root
        yield db
    finally:
        embedded_db.stop(data_dir)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def replica(primary):
    """A streaming replica of ``primary`` (pg_basebackup -R), running; ``.url``, ``.stop()``."""
    if not hasattr(pgserver, "pg_basebackup"):
        pytest.skip("pg_basebackup is not shipped with this PostgreSQL")
    info = PostmasterInfo.read_from_pgdata(primary.data_dir)
    data = _owned_dir(primary.root / "replica")
    sock = _owned_dir(primary.root / "replica-sock")
    port = free_port()
    _run_pg(
        "pg_basebackup",
        "-D",
        str(data),
        "-R",
        "-X",
        "stream",
        "-h",
        str(info.socket_dir),
        "-p",
        str(info.port),
        "-U",
        "postgres",
    )
    _run_pg(
        "pg_ctl",
        "-w",
        "-l",
        str(data / "replica.log"),
        "start",
        "-o",
        f"-p {port} -k {sock} -c listen_addresses=''",
        pgdata=data,
    )

    class Replica:
        url = f"postgresql://postgres:@/postgres?host={sock}&port={port}"
        primary_url = f"postgresql://postgres:@/postgres?host={info.socket_dir}&port={info.port}"

        def sql(self, query: str):
            with psycopg.connect(self.url, autocommit=True) as conn:
                return conn.execute(query).fetchall()

        def stop(self):
            _run_pg("pg_ctl", "-w", "-m", "immediate", "stop", pgdata=data)

    r = Replica()
    try:
        yield r
    finally:
        with contextlib.suppress(Exception):  # already stopped by the test
            r.stop()


@pytest.fixture(scope="module")
def web(primary, replica):
    """The web server (a real process) reading ``replica`` for searches."""
    server = WebServer(primary, env={"DATABASE_REPLICA_URLS": replica.url}).start()
    yield server
    server.stop()


def _write(web, user, mid, text):
    item = {"message_id": mid, "ts": "2026-11-20T08:00:00Z", "role": "user", "content": text}
    response = web.post(f"/v1/users/{user}/messages", user, {"items": [item]})
    assert response.status_code == 201, response.text


def _found(web, user, word) -> list[str]:
    response = web.post("/v1/messages/lexical_search", user, {"user_id": user, "query_text": word})
    assert response.status_code == 200, response.text
    return [item["message_id"] for item in response.json()["items"]]


def _forget_write_mark(
    replica, primary_user_pk_sql="SELECT id FROM auth_user WHERE username='alice'"
):
    with psycopg.connect(replica.primary_url, autocommit=True) as conn:
        conn.execute(f"DELETE FROM rag_write_mark WHERE user_id = ({primary_user_pk_sql})")


def _wait_replayed(replica, seconds=30):
    with psycopg.connect(replica.primary_url, autocommit=True) as conn:
        target = conn.execute("SELECT pg_current_wal_lsn()::text").fetchone()[0]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if replica.sql(f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn")[0][0]:
            return
        time.sleep(0.1)
    raise AssertionError("the replica did not catch up")


def test_a_replica_serves_searches_with_read_your_writes_and_the_primary_takes_over(web, replica):
    assert replica.sql("SELECT pg_is_in_recovery()") == [(True,)]
    _write(web, "alice", "r1", "我家的猫叫豆豆。")
    assert _found(web, "alice", "豆豆") == ["r1"]  # written and found at once

    replica.sql("SELECT pg_wal_replay_pause()")  # from now on the replica lags behind
    _write(web, "alice", "r2", "豆豆今天抓到一只老鼠。")

    # The writer reads its own write: the replica has not replayed it, so the primary answers.
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2"]
    # Anyone who did not just write reads the replica (shown here by forgetting alice's mark):
    # the paused replica does not have r2 yet.
    _forget_write_mark(replica)
    assert _found(web, "alice", "豆豆") == ["r1"]

    replica.sql("SELECT pg_wal_replay_resume()")
    _wait_replayed(replica)
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2"]

    replica.stop()
    # No replica answers: searches read the primary, and writes never went anywhere else.
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2"]
    _write(web, "alice", "r3", "豆豆睡着了。")
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2", "r3"]
