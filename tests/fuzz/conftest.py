"""Fixtures of the adversarial suite: a real server process on its own database, with data.

- ``fuzz_world`` (session): a fresh database on the test PostgreSQL server, migrated; the
  accounts of :mod:`tests.fuzz.seed`, made by a ``manage.py shell`` process that stays up to
  put back an account a fuzzed erasure deleted; ``manage.py runserver`` (test settings: tasks
  run inline) on a free port, its output in ``server.log`` of a temporary directory; the data
  of :mod:`tests.fuzz.world` written through the API. Yields the
  :class:`~tests.fuzz.world.World`. Stops both processes and drops the database afterwards.
- ``fuzz_stats`` (session): counts the cases sent per operation and every 5xx answer; the
  terminal summary prints them (the figures docs/RELIABILITY.md quotes). How much is tried:
  :mod:`tests.fuzz.budget`.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from tests.fuzz.budget import STATS
from tests.fuzz.world import World
from tests.testapp.server import ROOT, fresh_database, manage, manage_env

SERVER_START_TIMEOUT = 120


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_healthy(base_url: str, process: subprocess.Popen, log_path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while True:
        assert process.poll() is None, log_path.read_text()[-3000:]
        try:
            if httpx.get(base_url + "/api/health", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the fuzz server did not start"
        time.sleep(0.3)


class AccountSeeder:
    """A ``manage.py shell`` process on the fuzz database running :func:`tests.fuzz.seed.serve`.

    Calling it with ``None`` or the token keys creates whatever of the accounts is missing
    (:func:`tests.fuzz.seed.create`) and returns them; one Django start for the whole session.
    """

    def __init__(self, dbname: str, log_path):
        self.log_path = log_path
        with open(log_path, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "shell", "--verbosity", "0", "-c", SERVE],
                cwd=ROOT,
                env=manage_env(dbname, {"PYTHONUNBUFFERED": "1"}),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )

    def __call__(self, keys: dict[str, str] | None) -> dict:
        self.process.stdin.write(json.dumps(keys) + "\n")
        self.process.stdin.flush()
        while line := self.process.stdout.readline():
            if line.startswith("{"):
                return json.loads(line)
        raise AssertionError(f"the seeder stopped: {self.log_path.read_text()[-3000:]}")

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


SERVE = "from tests.fuzz.seed import serve; serve()"


@pytest.fixture(scope="session")
def fuzz_world(tmp_path_factory):
    """A running server on a fresh, seeded database; the World that describes its data."""
    log_dir = tmp_path_factory.mktemp("fuzz")
    log_path = log_dir / "server.log"
    with fresh_database("fuzz") as dbname:
        migrated = manage(dbname, "migrate", "--noinput")
        assert migrated.returncode == 0, migrated.stderr[-3000:]
        seeder = AccountSeeder(dbname, log_dir / "seeder.log")
        try:
            accounts = seeder(None)
            port = _free_port()
            with open(log_path, "w") as log:
                process = subprocess.Popen(
                    [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                    cwd=ROOT,
                    env=manage_env(dbname, {"PYTHONUNBUFFERED": "1"}),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            base_url = f"http://127.0.0.1:{port}"
            world = World(base_url, accounts, seeder)
            world.log_path = log_path
            try:
                _wait_until_healthy(base_url, process, log_path)
                world.seed()
                yield world
            finally:
                world.close()
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        finally:
            seeder.close()


@pytest.fixture(scope="session")
def fuzz_stats():
    """The session's :class:`~tests.fuzz.budget.FuzzStats`."""
    return STATS


def pytest_terminal_summary(terminalreporter):
    lines = STATS.summary()
    if lines:
        terminalreporter.section("fuzz")
        for line in lines:
            terminalreporter.write_line(line)
