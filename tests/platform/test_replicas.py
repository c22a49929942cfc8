"""Read replicas: searches read a real streaming replica, with read-your-writes and fall-back.

The replica is made the way an operator makes one (tests/rag/replica_helpers.py, as in
bench/replica.py): ``pg_basebackup -R`` from the running
embedded primary (its PostgreSQL ships the tool), started on its own socket and port; the web
server is the real process with ``DATABASE_REPLICA_URLS``; every read and write goes over HTTP.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest
from pgserver.utils import PostmasterInfo

from config import embedded_db, replicas
from tests.platform.live_service import ServiceDatabase, WebServer
from tests.rag import replica_helpers

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

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


@pytest.fixture(scope="module")
def primary():
    """A migrated embedded primary with users alice and bob (their tokens in ``.tokens``)."""
    root = Path(tempfile.mkdtemp(prefix="semmem-replica-"))
    root.chmod(0o755)  # under root, PostgreSQL runs as the pgserver user, who must enter it
    data_dir = root / "pgdata"
    try:
        yield ServiceDatabase(data_dir).create()
    finally:
        embedded_db.stop(data_dir)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def replica(primary):
    """A streaming replica of ``primary``, made as bench/replica.py makes one, running.

    ``.url`` (for ``DATABASE_REPLICA_URLS``), ``.primary`` (the primary's DATABASES entry).
    """
    if replica_helpers.missing_tools():
        pytest.skip("pg_basebackup or pg_ctl is not shipped with this PostgreSQL")
    info = PostmasterInfo.read_from_pgdata(primary.data_dir)
    entry = {"HOST": str(info.socket_dir), "PORT": str(info.port), "USER": "postgres"}
    made = replica_helpers.create_replica(entry)
    made.primary = entry
    made.url = f"postgresql://postgres:@/postgres?host={made.socket_dir}&port={made.port}"
    try:
        yield made
    finally:
        made.discard()


def _sql(replica, query: str):
    with psycopg.connect(replica.conninfo("postgres", "postgres"), autocommit=True) as conn:
        return conn.execute(query).fetchall()


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
    conninfo = replica_helpers.primary_conninfo(replica.primary) + " dbname=postgres"
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"DELETE FROM rag_write_mark WHERE user_id = ({primary_user_pk_sql})")


def test_a_replica_serves_searches_with_read_your_writes_and_the_primary_takes_over(web, replica):
    assert _sql(replica, "SELECT pg_is_in_recovery()") == [(True,)]
    _write(web, "alice", "r1", "我家的猫叫豆豆。")
    assert _found(web, "alice", "豆豆") == ["r1"]  # written and found at once

    _sql(replica, "SELECT pg_wal_replay_pause()")  # from now on the replica lags behind
    _write(web, "alice", "r2", "豆豆今天抓到一只老鼠。")

    # The writer reads its own write: the replica has not replayed it, so the primary answers.
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2"]
    # Anyone who did not just write reads the replica (shown here by forgetting alice's mark):
    # the paused replica does not have r2 yet.
    _forget_write_mark(replica)
    assert _found(web, "alice", "豆豆") == ["r1"]

    _sql(replica, "SELECT pg_wal_replay_resume()")
    replica_helpers.wait_for_replay(replica.primary, replica, limit=30)
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2"]

    replica.stop()
    # No replica answers: searches read the primary, and writes never went anywhere else.
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2"]
    _write(web, "alice", "r3", "豆豆睡着了。")
    assert sorted(_found(web, "alice", "豆豆")) == ["r1", "r2", "r3"]
