"""Faults against real processes: the provider down or slow, PostgreSQL stopped, a long query.

One embedded PostgreSQL (its own data dir, not the test run's) serves two ``runserver``
processes: ``remote`` embeds through a local server speaking the OpenAI protocol (which the
tests make fail, hang or disappear), ``local`` uses the in-process model. Every assertion is
about answers (status, shape, ``degraded``) or the order in which answers arrive, never about
how long they took.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tests.fakes.openai_server import FakeOpenAIServer
from tests.platform.live_service import ServiceDatabase, WebServer

pytestmark = [pytest.mark.real_clock, pytest.mark.slow]

BUDGET = 5.0  # generous: the "works" test must not degrade on a loaded machine
COOLDOWN = 1.0
NEAR = {"location": {"lat": 31.2304, "lng": 121.4737, "radiusInKm": 50}}
MESSAGES = [
    ("m1", "我不吃辣，但是很喜欢火锅。"),
    ("m2", "周末想去杭州西湖看看风景。"),
    ("m3", "火锅店里辣锅太多了，我只吃清汤。"),
    ("m4", "我养了一只叫豆豆的猫。"),
]
BLOCKS = [
    "孙悟空在花果山水帘洞里称王。他每天带着群猴在山中玩耍，采花觅果，十分快活。",
    "唐僧奉旨前往西天取经。一路上经过许多国家，遇到很多妖怪，多亏徒弟们保护。",
]


@pytest.fixture(scope="module")
def fake_provider():
    """A local server speaking the OpenAI embeddings protocol (384 dimensions)."""
    with FakeOpenAIServer(dimensions=384) as server:
        yield server


@pytest.fixture(scope="module")
def service_db():
    """A migrated embedded PostgreSQL of the service's own, with users alice and bob.

    Not under pytest's tmp dir: another pytest session starting meanwhile resets that dir to
    0700, and the server runs as the ``pgserver`` user when tests run as root.
    """
    from config import embedded_db

    root = Path(tempfile.mkdtemp(prefix="semmem-faults-"))
    data_dir = root / "pgdata"
    try:
        yield ServiceDatabase(data_dir).create()
    finally:
        embedded_db.stop(data_dir)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def remote(service_db, fake_provider):
    """A web server embedding through ``fake_provider``, seeded while the provider works."""
    web = WebServer(
        service_db,
        env={
            "EMBEDDING_PROVIDER": "openai",
            "EMBEDDING_BASE_URL": fake_provider.base_url,
            "EMBEDDING_MODEL": "fake-embedding",
            "EMBEDDING_DIMENSIONS": "384",
            "SEARCH_TIME_BUDGET_SECONDS": str(BUDGET),
            "EMBEDDING_BREAKER_COOLDOWN_SECONDS": str(COOLDOWN),
        },
    ).start()
    try:
        seed(web)
        yield web
    finally:
        web.stop()


@pytest.fixture(scope="module")
def local(service_db):
    """A web server with the in-process model and a budget no test waits for."""
    web = WebServer(service_db, env={"SEARCH_TIME_BUDGET_SECONDS": "60"}).start()
    try:
        yield web
    finally:
        web.stop()


def seed(web: WebServer) -> None:
    """Create alice's activities, chat and chapter through the API (tasks run inline)."""
    start = (timezone.now() + timedelta(days=3)).isoformat()
    for i, title in enumerate(["山野徒步", "湖边皮划艇", "城市骑行", "露营观星", "攀岩体验"]):
        response = web.post(
            "/api/activities/",
            "alice",
            {
                "title": title,
                "description": f"{title}，适合周末和朋友一起参加的户外活动。",
                "type": "户外",
                "start_at": start,
                "location": {"lat": 31.23 + i * 0.01, "lng": 121.47},
                "location_name": "上海",
                "max_participants": 10,
            },
        )
        assert response.status_code == 201, response.text
    items = [
        {"message_id": mid, "ts": start, "role": "user", "content": text, "chat_id": "c1"}
        for mid, text in MESSAGES
    ]
    response = web.post("/v1/users/alice/messages", "alice", {"items": items})
    assert response.status_code == 201, response.text
    book = web.post("/api/books/", "alice", {"title": "西游记"}).json()["id"]
    chapter = {"book": book, "title": "第一回", "sequence": 1, "blocks": []}
    chapter["blocks"] = [{"content": text} for text in BLOCKS]
    response = web.post("/api/chapters/", "alice", chapter)
    assert response.status_code == 201, response.text


def searches(web: WebServer, tag: str) -> dict:
    """Send every search that embeds its query; return the responses by name.

    ``tag`` makes the query texts new, so no cached embedding answers them.
    """
    text = f"火锅 {tag}"
    return {
        "activities": web.post(
            "/rag/search", "alice", {"semanticQuery": f"户外徒步 {tag}", "filters": NEAR}
        ),
        "semantic": web.post(
            "/v1/messages/semantic_search", "alice", {"user_id": "alice", "query_text": text}
        ),
        "hybrid": web.post(
            "/v1/messages/hybrid_search", "alice", {"user_id": "alice", "query_text": text}
        ),
        "writing": web.post("/api/writing/search", "alice", {"query": f"花果山的猴子 {tag}"}),
    }


def degraded(name: str, response) -> bool:
    """Return the ``degraded`` flag of a search answer, wherever that endpoint puts it."""
    body = response.json()
    return body["meta"]["degraded"] if name == "activities" else body["degraded"]


def assert_all_degraded(web: WebServer, tag: str) -> None:
    """Every search answers 200, degraded, from what needs no new embedding."""
    answers = searches(web, tag)
    assert {name: r.status_code for name, r in answers.items()} == dict.fromkeys(answers, 200)
    assert all(degraded(name, r) for name, r in answers.items()), {
        name: r.json() for name, r in answers.items()
    }
    assert len(answers["activities"].json()["results"]) == 5
    hybrid_ids = {item["message_id"] for item in answers["hybrid"].json()["items"]}
    assert hybrid_ids == {"m1", "m3"}  # the lexical hits of 火锅
    assert {i["message_id"] for i in answers["semantic"].json()["items"]} == {"m1", "m3"}
    assert "花果山" in answers["writing"].json()["results"][0]["text"]


def wait_for_cool_down() -> None:
    time.sleep(COOLDOWN * 1.5)


def test_searches_are_not_degraded_while_the_provider_works(remote, fake_provider):
    wait_for_cool_down()
    answers = searches(remote, "works")
    assert {name: r.status_code for name, r in answers.items()} == dict.fromkeys(answers, 200)
    assert not any(degraded(name, r) for name, r in answers.items())
    assert remote.get("/api/health").json()["status"] == "ok"


def test_provider_answering_500_degrades_every_search_and_health(remote, fake_provider):
    wait_for_cool_down()
    fake_provider.fail_status = 500
    try:
        assert_all_degraded(remote, "error")
        chat = remote.post("/api/agent/chat", "alice", {"message": "周末有什么户外活动推荐"})
        health = remote.get("/api/health")
    finally:
        fake_provider.fail_status = None
    assert chat.status_code == 200 and chat.json()["reply"]
    assert health.status_code == 200
    assert health.json()["status"] == "degraded"
    assert health.json()["embedding"]["state"] == "failing"


def test_provider_slower_than_the_budget_degrades_every_search(remote, fake_provider):
    wait_for_cool_down()
    fake_provider.delay = BUDGET * 5
    try:
        first = remote.post("/rag/search", "alice", {"semanticQuery": "湖边划船", "filters": NEAR})
        assert_all_degraded(remote, "slow")
    finally:
        fake_provider.delay = 0.0
    assert first.status_code == 200
    assert first.json()["meta"]["degradedReason"] == "embedding_timeout"


def test_provider_on_a_closed_port_degrades_every_search(remote, fake_provider):
    wait_for_cool_down()
    fake_provider.stop()  # the port refuses connections from now on
    assert_all_degraded(remote, "closed")
    assert remote.get("/api/health").json()["embedding"]["state"] == "failing"


def test_short_search_is_answered_before_a_long_query_sent_earlier(local):
    # ~1,900 tokens (four model windows) within the 2,000-character query limit.
    long_text = "ЖЩЫЮ这是一段很长的查询" * 190
    assert (
        local.post(
            "/v1/messages/semantic_search", "bob", {"user_id": "bob", "query_text": "热身"}
        ).status_code
        == 200
    )
    finished: list[str] = []
    answers: dict = {}

    def send(name, user, text):
        answers[name] = local.post(
            "/v1/messages/semantic_search", user, {"user_id": user, "query_text": text}
        )
        finished.append(name)

    long = threading.Thread(target=send, args=("long", "alice", long_text[:1990]))
    long.start()
    time.sleep(0.5)  # the long query is being embedded
    short = threading.Thread(target=send, args=("short", "bob", "周末爬山"))
    short.start()
    short.join(120)
    long.join(120)
    assert answers["short"].status_code == 200 and answers["long"].status_code == 200
    assert answers["short"].json()["degraded"] is False
    assert finished == ["short", "long"]


ENDPOINTS = [
    ("GET", "/api/activities/", None),
    ("POST", "/rag/search", {"semanticQuery": "徒步", "filters": NEAR}),
    ("GET", "/v1/users/alice/messages", None),
    (
        "POST",
        "/v1/users/alice/messages",
        {
            "items": [
                {"message_id": "m9", "ts": "2026-01-01T00:00:00Z", "role": "user", "content": "x"}
            ]
        },
    ),
    ("POST", "/v1/messages/lexical_search", {"user_id": "alice", "query_text": "火锅"}),
    ("POST", "/v1/messages/hybrid_search", {"user_id": "alice", "query_text": "火锅"}),
    ("POST", "/api/writing/search", {"query": "花果山"}),
    ("GET", "/api/books/", None),
    ("POST", "/api/agent/chat", {"message": "你好"}),
]


def test_database_stopped_answers_503_everywhere_and_recovers_by_itself(local, service_db):
    assert local.get("/api/health").status_code == 200
    service_db.stop()
    try:
        down = {
            path + " " + method: local.request(method, path, "alice", body)
            for method, path, body in ENDPOINTS
        }
        health = local.get("/api/health")
        # A well-formed session key: loading the session needs the database.
        page = local.get("/admin/", headers={"Cookie": "sessionid=" + "a" * 32})
    finally:
        service_db.start()
    statuses = {name: r.status_code for name, r in down.items()}
    assert statuses == dict.fromkeys(down, 503)
    assert all(r.json()["error"]["code"] == "UNAVAILABLE" for r in down.values())
    assert health.status_code == 503 and health.json()["error"]["code"] == "UNAVAILABLE"
    assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
    # Back without restarting the web process.
    again = {
        path + " " + method: local.request(method, path, "alice", body)
        for method, path, body in ENDPOINTS[:3]
    }
    assert {name: r.status_code for name, r in again.items()} == dict.fromkeys(again, 200)
    assert local.get("/api/health").status_code == 200
