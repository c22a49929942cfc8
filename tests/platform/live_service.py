"""Run the service as an operator would: its own embedded PostgreSQL, ``runserver`` processes.

Fault tests use these real processes (not the test client) so that what they stop and start
(the database, a provider) is as real as in production:

    db = ServiceDatabase(tmp_dir)      # initdb + migrate + users with tokens
    web = WebServer(db, port, env={...}).start()
    web.post("/rag/search", token, {...})

Journeys (tests/journeys) run the whole service instead, as ``make run`` does: ``manage.py
serve`` (gunicorn web processes, one django-q2 cluster per queue, the schedules) with real
workers, not ``Q_SYNC``:

    db = ServiceDatabase(tmp_dir, users=("alice", "bob"), staff=("ops",)).create()
    service = ServeService(db).start()     # waits for /api/health: ready, every queue seen
    service.post("/api/books/", "alice", {...})
    service.wait_until(lambda: ..., timeout=30)   # what a worker does, asynchronously
    service.stop()                         # Ctrl-C: serve stops its children and the database
"""

from __future__ import annotations

import contextlib
import ctypes
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


def staff_password(name: str) -> str:
    """Return the password of staff user ``name`` (staff pages need a session, not a token)."""
    return f"pw-{name}-journeys"


class ServiceDatabase:
    """An embedded PostgreSQL data dir, migrated, with a token for each of ``users``.

    ``staff``: staff users made too, each with a token and the password
    :func:`staff_password` (to log in to the staff pages), and the permission to act for any
    user (``memory.act_for_any_user``), as ``manage.py issue_token NAME --staff`` grants it: their
    token is the service token.
    """

    def __init__(self, data_dir: Path, *, users=USERS, staff=()):
        self.data_dir = data_dir
        self.users = tuple(users)
        self.staff = tuple(staff)
        self.tokens: dict[str, str] = {}

    def create(self) -> ServiceDatabase:
        manage(self.data_dir, "migrate", "--noinput")
        passwords = {name: staff_password(name) for name in self.staff}
        script = (
            "from django.contrib.auth import get_user_model\n"
            "from django.contrib.auth.models import Permission\n"
            "from config.services import token_issue\n"
            "act = Permission.objects.get(codename='act_for_any_user')\n"
            f"passwords = {passwords!r}\n"
            f"for name in {self.users + self.staff!r}:\n"
            "    user, _ = get_user_model().objects.get_or_create(username=name)\n"
            "    if name in passwords:\n"
            "        user.is_staff = True\n"
            "        user.set_password(passwords[name])\n"
            "        user.save()\n"
            "        user.user_permissions.add(act)\n"
            "    print(name, token_issue(user=user, name='tests').key)\n"
        )
        output = manage(self.data_dir, "shell", "-c", script).stdout
        for line in output.splitlines():
            name, _, key = line.partition(" ")
            if name in self.users + self.staff:
                self.tokens[name] = key
        return self

    def stop(self) -> None:
        """Stop PostgreSQL (``pg_ctl stop -m fast``) under the running web servers."""
        assert embedded_db.stop(self.data_dir)

    def start(self) -> None:
        """Start PostgreSQL again on the same data dir and socket."""
        embedded_db.start(self.data_dir)


class _Requests:
    """HTTP requests as a user (by token), for a server with ``client`` and ``db``."""

    client: httpx.Client
    db: ServiceDatabase

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

    def delete(self, path: str, user: str | None = None, **kwargs):
        return self.request("DELETE", path, user, **kwargs)


class WebServer(_Requests):
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


def wait_until(predicate, timeout: float, *, interval: float = 0.2, what: str = ""):
    """Call ``predicate()`` until it returns a truthy value (returned) or ``timeout`` passes.

    For what a worker does after the request that asked for it answered: a message becomes
    searchable, a chapter chunked. On timeout the last value is in the assertion's message.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"not within {timeout} s: {what or predicate} (last: {value!r})")
        time.sleep(interval)


def _stop_with_parent() -> None:
    """In the child before exec (Linux): get SIGINT, a Ctrl-C, when the test process dies.

    A test session killed outright (a timeout) thus never leaves serve and its embedded
    PostgreSQL running.
    """
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG


class ServeService(_Requests):
    """``manage.py serve`` on the service database: gunicorn, the worker clusters, schedules.

    Tasks run in the real clusters (``Q_SYNC=0``), so what a request enqueues happens after it
    answers: wait for it with :meth:`wait_until`. :meth:`stop` sends SIGINT as Ctrl-C does;
    serve then stops the web server, the clusters and the embedded PostgreSQL.
    """

    def __init__(self, db: ServiceDatabase, *, env: dict | None = None, web_processes: int = 2):
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = db.data_dir.parent / f"serve-{self.port}.log"
        self.env = {
            "Q_SYNC": "0",  # the real clusters run the tasks
            "STATIC_ROOT": str(db.data_dir.parent / "static"),
            "WEB_PROCESSES": str(web_processes),
            "LOG_LEVEL": "WARNING",
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None
        self.client = httpx.Client(base_url=self.url, timeout=120)

    def start(self, *, timeout: float = 300) -> ServeService:
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "serve", "--addr", f"127.0.0.1:{self.port}"],
                cwd=ROOT,
                env=base_env(self.db.data_dir, self.env),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C in the terminal reaches pytest, not serve
                preexec_fn=_stop_with_parent,
            )
        self.health = self.wait_until(self._serving, timeout, interval=0.3, what="ready")
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def _serving(self) -> dict | None:
        """Return /api/health once ready with every queue's cluster seen, else None."""
        assert self.process.poll() is None, self.output()
        try:
            response = self.client.get("/api/health", timeout=10)
        except httpx.TransportError:
            return None
        body = response.json() if response.status_code == 200 else {}
        queues = body.get("worker_queues") or {}
        if body.get("ready") and queues and all(age is not None for age in queues.values()):
            return body
        return None

    def wait_until(self, predicate, timeout: float, *, interval: float = 0.2, what: str = ""):
        """:func:`wait_until`, failing at once (with serve's log) if serve has exited."""

        def alive():
            assert self.process is None or self.process.poll() is None, self.output()
            return predicate()

        return wait_until(alive, timeout, interval=interval, what=what)

    def stop(self, *, timeout: float = 30) -> int | None:
        """Stop serve as Ctrl-C does; return its exit code (None: it had to be killed)."""
        self.client.close()
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                return self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
                return None
        return self.process.returncode
