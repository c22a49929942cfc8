"""Run the service as an operator would: its own embedded PostgreSQL, ``runserver`` processes.

Fault tests use these real processes (not the test client) so that what they stop and start
(the database, a provider) is as real as in production:

    db = ServiceDatabase(tmp_dir)      # initdb + migrate + users with tokens
    web = WebServer(db, port, env={...}).start()
    web.post("/rag/search", token, {...})
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from config import embedded_db
from rag.providers.local import OPENMP_SPIN_COUNT

ROOT = Path(__file__).resolve().parents[2]
USERS = ("alice", "bob")
# The settings the child processes must not inherit from the test process.
DROPPED_ENV = ("DATABASE_URL", "EMBEDDED_DB_", "EMBEDDING_", "DJANGO_", "Q_", "SEARCH_", "RAG_")


def free_port() -> int:
    """Return a TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def base_env(data_dir: Path, extra: dict | None = None) -> dict:
    """Return the environment of a service process on ``data_dir`` (production settings)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED_ENV)}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        EMBEDDED_DB_DIR=str(data_dir),
        DJANGO_DEBUG="0",
        # DEBUG off requires a key (docs/SECURITY.md); the test process has one.
        DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY", "live-service-test-key-" + "x" * 40),
        PYTHONUNBUFFERED="1",
        OMP_NUM_THREADS="1",
        GOMP_SPINCOUNT=OPENMP_SPIN_COUNT,
        LOG_LEVEL="WARNING",
        # No worker runs: tasks run inside the request that enqueues them.
        Q_SYNC="1",
    )
    env.update(extra or {})
    return env


def manage(data_dir: Path, *args: str, env: dict | None = None, timeout: float = 600):
    """Run ``manage.py ARGS`` on the service database; return the completed process."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base_env(data_dir, env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def wait_until_answering(process, log: Path, probe, *, timeout: float = 300) -> None:
    """Wait until ``probe()`` gets any HTTP answer from ``process`` (which must keep running)."""
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, f"the server did not start (log: {log})"
        try:
            probe()
            return
        except httpx.TransportError:
            time.sleep(0.3)


class ServiceDatabase:
    """An embedded PostgreSQL data dir, migrated, with a token for each of ``USERS``."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.tokens: dict[str, str] = {}

    def create(self) -> ServiceDatabase:
        manage(self.data_dir, "migrate", "--noinput")
        script = (
            "from django.contrib.auth import get_user_model\n"
            "from rest_framework.authtoken.models import Token\n"
            f"for name in {USERS!r}:\n"
            "    user, _ = get_user_model().objects.get_or_create(username=name)\n"
            "    print(name, Token.objects.get_or_create(user=user)[0].key)\n"
        )
        output = manage(self.data_dir, "shell", "-c", script).stdout
        for line in output.splitlines():
            name, _, key = line.partition(" ")
            if name in USERS:
                self.tokens[name] = key
        return self

    def stop(self) -> None:
        """Stop PostgreSQL (``pg_ctl stop -m fast``) under the running web servers."""
        assert embedded_db.stop(self.data_dir)

    def start(self) -> None:
        """Start PostgreSQL again on the same data dir and socket."""
        embedded_db.start(self.data_dir)


class WebServer:
    """``manage.py runserver --noreload`` on the service database, with extra settings."""

    def __init__(self, db: ServiceDatabase, *, env: dict | None = None):
        self.db = db
        self.port = free_port()
        self.env = env or {}
        self.process: subprocess.Popen | None = None
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=120)

    def start(self) -> WebServer:
        # A file, not a pipe: runserver logs every request, and a full pipe would block it.
        self.log = self.db.data_dir.parent / f"web-{self.port}.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
                cwd=ROOT,
                env=base_env(self.db.data_dir, self.env),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_until_answering(
            self.process, self.log, lambda: self.client.get("/api/schema/", timeout=5)
        )
        return self

    def stop(self) -> None:
        self.client.close()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def request(self, method: str, path: str, user: str | None = None, body=None, **kwargs):
        """Send one request (as ``user``, by token) and return the httpx response."""
        headers = kwargs.pop("headers", {})
        if user:
            headers["Authorization"] = f"Token {self.db.tokens[user]}"
        return self.client.request(method, path, json=body, headers=headers, **kwargs)

    def get(self, path: str, user: str | None = None, **kwargs):
        return self.request("GET", path, user, **kwargs)

    def post(self, path: str, user: str | None = None, body=None, **kwargs):
        return self.request("POST", path, user, body, **kwargs)
