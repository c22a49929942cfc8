"""Fixtures of the agent tests.

- ``activities_loaded``: the first ``DEMO_COUNT`` demo activities
  (``activities/fixtures/demo_activities.json``, a subset keeps the suite fast), saved with their
  real embeddings by ``activities.demo.load_demo_activities``; returns ``{title: Activity}``.
- ``say``: ``say(client, message, **body) -> dict`` posts one turn to ``POST /api/agent/chat``
  and runs the on-commit callbacks (so the stored turns are embedded, as in production);
  asserts a 200 and returns the JSON body.
- ``fake_llm``: a running ``FakeOpenAIServer`` with ``settings.RAG_LLM`` pointed at it (the
  cached provider is reset on entry and exit); script turns with ``fake_llm.chat_script``.
- ``SHANGHAI``: a location near People's Square, where most demo activities are.
- ``receiver``: a webhook receiver on 127.0.0.1 recording each POST, answering ``.status``.
- ``tarpit``: ``tarpit(mode)``, a URL on 127.0.0.1 that accepts and never answers ("silent")
  or dribbles a header byte every 0.2 s for ever ("dribble").
- ``fake_dns``: ``fake_dns[name] = [addresses]``; webhook name lookups read it (no real DNS)
  and are counted in ``fake_dns.lookups``.
- ``no_connect``: the list of addresses any socket of this process tried to connect to (no
  connection is ever made: it raises instead).
- ``strict_targets``: production's webhook target rules (https only, public addresses only).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "activities" / "fixtures"
SHANGHAI = {"lat": 31.2304, "lng": 121.4737}
DEMO_COUNT = 24


@pytest.fixture
def activities_loaded(db, make_user):
    """Every demo activity, saved and embedded; ``{title: Activity}``."""
    from activities.demo import load_demo_activities

    items = json.loads((FIXTURES / "demo_activities.json").read_text(encoding="utf-8"))
    created, totals = load_demo_activities(items[:DEMO_COUNT], creator=make_user("demo"))
    assert totals.errors == 0
    return {a.title: a for a in created}


@pytest.fixture
def say(django_capture_on_commit_callbacks):
    """Return ``say(client, message, **body)``: one chat turn through the API, as JSON."""

    def _say(client, message, *, status=200, **body):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/api/agent/chat", {"message": message, **body}, format="json")
        assert response.status_code == status, response.content.decode()
        return response.json()

    return _say


@pytest.fixture
def make_activity_for(db):
    """Return ``make_activity_for(user, **fields)``: an active activity created by ``user``."""
    from datetime import timedelta

    from django.utils import timezone

    from activities.services import activity_create

    def factory(creator, **fields):
        values = {
            "title": "周六下午桌游局",
            "description": "几个人一起玩卡坦岛，新手友好。",
            "type": "桌游",
            "start_at": timezone.now() + timedelta(days=3),
            "lat": SHANGHAI["lat"],
            "lng": SHANGHAI["lng"],
            "location_name": "人民广场",
            "max_participants": 6,
        }
        values.update(fields)
        return activity_create(creator=creator, **values)

    return factory


class Receiver:
    """A webhook receiver on a real port: records each POST; answers ``status``."""

    def __init__(self):
        self.requests: list[dict] = []
        self.status = 200
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.requests.append({"headers": dict(self.headers), "body": body})
                self.send_response(outer.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    """A running webhook receiver (see :class:`Receiver`)."""
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def tarpit():
    """Return ``tarpit(mode) -> url``: a listener on 127.0.0.1 that never finishes an answer."""
    stop = threading.Event()
    listeners = []

    def serve(listener, mode):
        listener.settimeout(0.2)
        held = []
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(conn)
            if mode == "dribble":
                conn.sendall(b"HTTP/1.1 200 OK\r\n")
                while not stop.is_set():  # each byte comes well within any per-read timeout
                    try:
                        conn.sendall(b"X")
                    except OSError:
                        break
                    time.sleep(0.2)
        for conn in held:
            conn.close()

    def start(mode: str = "silent") -> str:
        listener = socket.create_server(("127.0.0.1", 0))
        listeners.append(listener)
        threading.Thread(target=serve, args=(listener, mode), daemon=True).start()
        return f"http://127.0.0.1:{listener.getsockname()[1]}/hook"

    yield start
    stop.set()
    time.sleep(0.3)
    for listener in listeners:
        listener.close()


class FakeDNS(dict):
    """Name -> addresses for webhook lookups; a name not in it does not resolve."""

    def __init__(self):
        super().__init__()
        self.lookups: list[str] = []

    def resolve(self, host: str, port: int) -> list[str]:
        self.lookups.append(host)
        if host not in self:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(self[host])


@pytest.fixture
def fake_dns(monkeypatch):
    """Answer the webhook code's name lookups from a dict (see :class:`FakeDNS`)."""
    from agent import webhook_targets

    dns = FakeDNS()
    monkeypatch.setattr(webhook_targets, "resolve", dns.resolve)
    return dns


@pytest.fixture
def no_connect(monkeypatch):
    """Record (and refuse) every socket connection attempt; return the list of addresses."""
    attempts: list = []

    def refuse(sock, address):
        attempts.append(address)
        raise ConnectionRefusedError("no_connect fixture: connection attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return attempts


@pytest.fixture
def strict_targets(settings):
    """Apply production's webhook target rules (the test settings allow local receivers)."""
    settings.WEBHOOK_ALLOW_HTTP = False
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    return settings


@pytest.fixture
def shown_in_chat(user, other_user, make_activity_for):
    """Return ``shown_in_chat(chat_id, *titles)``: ``other_user``'s new activities of those
    titles, listed by the last reply of ``user``'s chat (``AgentSession.shown``), in order."""
    from agent.models import AgentSession

    def factory(chat_id, *titles):
        shown = [make_activity_for(other_user, title=title) for title in titles]
        AgentSession.objects.create(
            user=user, chat_id=chat_id, shown={"ids": [a.pk for a in shown]}
        )
        return shown

    return factory
