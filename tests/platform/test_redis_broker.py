"""``Q_BROKER_URL=redis://...``: both queues run on a real Redis server with several workers.

Real processes: a ``redis-server`` started here, the web server and one ``qcluster`` per queue
(two for interactive, as two machines would run them), all with the Redis broker; skipped with
a message where no ``redis-server`` binary exists (.ci/run installs Debian's).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.platform.live_service import ROOT, ServiceDatabase, WebServer, base_env, free_port

REDIS = shutil.which("redis-server")
pytestmark = [
    pytest.mark.real_clock,
    pytest.mark.skipif(
        REDIS is None, reason="no redis-server binary (apt-get install redis-server)"
    ),
]


@pytest.fixture(scope="module")
def redis_url():
    """A private redis-server on a free port (no persistence); its URL."""
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="semmem-redis-")
    process = subprocess.Popen(
        [
            REDIS,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            workdir,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(port=port)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(10)
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def service_db():
    """A migrated embedded PostgreSQL with users alice and bob."""
    from config import embedded_db

    root = Path(tempfile.mkdtemp(prefix="semmem-redisq-"))
    root.chmod(0o755)
    try:
        yield ServiceDatabase(root / "pgdata").create()
    finally:
        embedded_db.stop(root / "pgdata")
        shutil.rmtree(root, ignore_errors=True)


def _env(redis_url, **extra):
    return {"Q_BROKER_URL": redis_url, "Q_SYNC": "0", "Q_WORKERS_INTERACTIVE": "2", **extra}


def _cluster(db, redis_url, queue: str) -> subprocess.Popen:
    env = base_env(db.data_dir, _env(redis_url, Q_CLUSTER_NAME=queue))
    return subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _states(web, user="alice") -> dict[str, str]:
    params = {"page_size": 500, "kind": "message"}  # summaries come and go with the worker
    response = web.get(f"/v1/users/{user}/messages", user, params=params)
    assert response.status_code == 200, response.text
    return {m["message_id"]: m["embed_state"] for m in response.json()["items"]}


def test_both_queues_run_on_redis_with_several_workers(service_db, redis_url):
    import redis

    broker = redis.Redis.from_url(redis_url)
    web = WebServer(service_db, env=_env(redis_url)).start()
    clusters: list[subprocess.Popen] = []
    try:
        one = [
            {
                "message_id": "i1",
                "ts": "2026-11-20T08:00:00Z",
                "role": "user",
                "content": "我家的猫叫豆豆。",
            }
        ]
        many = [
            {
                "message_id": f"b{i}",
                "ts": f"2026-11-20T09:{i:02d}:00Z",
                "role": "user",
                "content": f"导入的第{i}条历史消息。",
            }
            for i in range(30)
        ]
        assert web.post("/v1/users/alice/messages", "alice", {"items": one}).status_code == 201
        assert web.post("/v1/users/alice/messages", "alice", {"items": many}).status_code == 201

        # No worker yet: the tasks wait in Redis, one list per queue.
        assert broker.llen("django_q:interactive:q") >= 1
        assert broker.llen("django_q:bulk:q") >= 1
        assert set(_states(web).values()) == {"pending"}

        clusters = [
            _cluster(service_db, redis_url, "interactive"),
            _cluster(service_db, redis_url, "interactive"),  # a second machine
            _cluster(service_db, redis_url, "bulk"),
        ]
        deadline = time.monotonic() + 300
        while set(_states(web).values()) != {"ready"}:
            assert all(c.poll() is None for c in clusters), "a cluster died"
            assert time.monotonic() < deadline, _states(web)
            time.sleep(1)

        assert len(_states(web)) == 31
        assert broker.llen("django_q:interactive:q") == 0
        assert broker.llen("django_q:bulk:q") == 0
    finally:
        for cluster in clusters:
            cluster.send_signal(signal.SIGTERM)
        for cluster in clusters:
            try:
                cluster.wait(30)
            except subprocess.TimeoutExpired:
                cluster.kill()
        web.stop()
