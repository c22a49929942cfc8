"""Fixtures of the MCP tests: a real service database, the HTTP process, SDK clients.

The end-to-end tests run the product as an operator does: an embedded PostgreSQL data dir
migrated by ``manage.py migrate`` (``tests.platform.live_service``), ``manage.py mcp --http`` as
a real process, and ``manage.py mcp`` (the key in ``MCP_TOKEN``) spawned by the SDK's own
stdio client.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.platform.live_service import (
    ROOT,
    ServiceDatabase,
    base_env,
    free_port,
    manage,
    wait_until_answering,
)

SEED = """
from django.contrib.auth import get_user_model
from config.services import token_issue
from memory import services
from memory.models import SharedContext
User = get_user_model()
alice = User.objects.get(username="alice")
bob = User.objects.get(username="bob")
svc, _ = User.objects.get_or_create(username="svc", defaults={"is_staff": True})
from django.contrib.auth.models import Permission
svc.user_permissions.add(Permission.objects.get(codename="act_for_any_user"))
print("svc", token_issue(user=svc, name="svc").key)
services.messages_write(user=alice, items=[
    {"message_id": "a1", "ts": "2026-01-05T10:00:00+08:00", "role": "user",
     "content": "我不吃辣，但是很喜欢火锅。", "chat_id": "c1"},
    {"message_id": "a2", "ts": "2026-01-05T10:01:00+08:00", "role": "assistant",
     "content": "那可以点鸳鸯锅，清汤那边不辣。", "chat_id": "c1"},
    {"message_id": "a3", "ts": "2026-01-05T10:02:00+08:00", "role": "user",
     "content": "周末想去游泳或者玩水。", "chat_id": "c1"},
])
services.messages_write(user=bob, items=[
    {"message_id": "b1", "ts": "2026-01-06T09:00:00+08:00", "role": "user",
     "content": "鲍勃的秘密：我很喜欢火锅和潜水。", "chat_id": "bc"},
])
services.preference_upsert(user=alice, category="food", value="不吃辣")
services.preference_upsert(user=bob, category="secret", value="bob-only")
alice_ctx = services.context_create(owner=alice, title="alice trip", entry="day 1", agent_name="a")
bob_ctx = services.context_create(owner=bob, title="bob plan", entry="bob-only", agent_name="b")
print("alice_ctx", alice_ctx.pk)
print("bob_ctx", bob_ctx.pk)
"""


class Service:
    """The seeded service database: tokens by user name and the ids the seed created."""

    def __init__(self, data_dir: Path):
        self.db = ServiceDatabase(data_dir).create()
        self.tokens = dict(self.db.tokens)
        self.ids: dict[str, int] = {}
        for line in manage(data_dir, "shell", "-c", SEED).stdout.splitlines():
            key, _, value = line.partition(" ")
            if key == "svc":
                self.tokens["svc"] = value
            elif key.endswith("_ctx"):
                self.ids[key] = int(value)

    @property
    def data_dir(self) -> Path:
        return self.db.data_dir

    def env(self) -> dict:
        return base_env(self.data_dir)


@pytest.fixture(scope="session")
def mcp_service(tmp_path_factory) -> Iterator[Service]:
    """A migrated, seeded service database (alice, bob, staff svc; messages, prefs, contexts).

    Its embedded PostgreSQL is stopped at the end of the session (it outlived the test run).
    """
    from config import embedded_db

    data_dir = tmp_path_factory.mktemp("mcp-service") / "pg"
    try:
        yield Service(data_dir)
    finally:
        embedded_db.stop(data_dir)


class HttpServer:
    """``manage.py mcp --http`` as a real process on a free port."""

    def __init__(self, service: Service):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.log = service.data_dir.parent / f"mcp-{self.port}.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "mcp", "--http", "--port", str(self.port)],
                cwd=ROOT,
                env=service.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_until_answering(
            self.process, self.log, lambda: httpx.post(self.url, json={}, timeout=5)
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture(scope="session")
def mcp_http(mcp_service):
    """The MCP streamable-HTTP server process on the seeded database."""
    server = HttpServer(mcp_service)
    yield server
    server.stop()


def stdio_params(service: Service, token: str) -> StdioServerParameters:
    """Return how the SDK's stdio client starts ``manage.py mcp``, the key in ``MCP_TOKEN``."""
    return StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp"],
        cwd=str(ROOT),
        env={**service.env(), "MCP_TOKEN": token},
    )


def run_with_client(
    target, token: str | None, session, *, mode: str = "auto", headers: dict | None = None
):
    """Open an SDK ``Client`` on ``target`` and return ``await session(client)``.

    ``target`` is an :class:`HttpServer` (the token goes in ``Authorization: Bearer``) or a
    :class:`Service` (stdio: ``manage.py mcp`` is spawned, the key in ``MCP_TOKEN``).
    ``mode``: the SDK's protocol negotiation ("auto": the newest both speak; "legacy": the
    initialize handshake that most deployed clients still use). ``headers``: more HTTP
    headers (``Accept-Language``), over HTTP only.
    """

    async def main():
        if isinstance(target, HttpServer):
            sent = {"Authorization": f"Bearer {token}"} if token else {}
            async with httpx2.AsyncClient(headers={**sent, **(headers or {})}, timeout=120) as http:
                transport = streamable_http_client(target.url, http_client=http)
                async with Client(transport, read_timeout_seconds=120, mode=mode) as client:
                    return await session(client)
        params = stdio_params(target, token)
        async with Client(params, read_timeout_seconds=120, mode=mode) as client:
            return await session(client)

    return anyio.run(main)


@pytest.fixture(params=["stdio", "http"])
def mcp_target(request):
    """Each transport in turn: the seeded service over stdio, then the HTTP process."""
    if request.param == "http":
        return request.getfixturevalue("mcp_http")
    return request.getfixturevalue("mcp_service")


@pytest.fixture
def in_test_transaction():
    """Keep the test's database transaction across in-process tool calls.

    Django's test client does the same: a request's start and end close "old" connections,
    which would end the transaction the test runs in.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
