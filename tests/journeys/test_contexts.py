"""The shared-context journey over real HTTP: create, list, chat with it, the agent's notes.

On the journey service (``manage.py serve``, tests/journeys/conftest.py). Carol keeps a context
(Chinese and English notes), finds it in her list, and a chat turn reads it (its source is in the
reply); Dave sees none of it.
"""

from __future__ import annotations

import pytest

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

CONTEXTS = {
    "zh": {"title": "成都旅行", "entry": "下个月去成都，预算三千元", "ask": "你好呀，在吗"},
    "en": {
        "title": "Moving house",
        "entry": "Moving on Saturday, budget 800",
        "ask": "hello there",
    },
}


@pytest.mark.parametrize("lang", list(CONTEXTS))
def test_a_context_is_listed_and_read_by_the_next_chat_turn(service, lang):
    spec = CONTEXTS[lang]
    created = service.post(
        "/v1/contexts",
        "carol",
        {"title": spec["title"], "entry": spec["entry"], "agent_name": "planner"},
    )
    assert created.status_code == 201, created.text
    context_id = created.json()["id"]
    listing = service.get("/v1/contexts", "carol").json()["items"]
    (item,) = [i for i in listing if i["id"] == context_id]
    assert item["latest_entry"]["content"] == spec["entry"]
    assert context_id not in [i["id"] for i in service.get("/v1/contexts", "dave").json()["items"]]
    reply = service.post(
        "/api/agent/chat", "carol", {"message": spec["ask"], "context_id": context_id}
    )
    assert reply.status_code == 200, reply.text
    assert f"context:{context_id}" in reply.json()["sources"]
    refused = service.post(
        "/api/agent/chat", "dave", {"message": spec["ask"], "context_id": context_id}
    )
    assert refused.status_code == 404
