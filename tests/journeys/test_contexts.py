"""The shared-context journey over real HTTP: create, list, chat with it, the agent's notes.

On the journey service (``manage.py serve``, tests/journeys/conftest.py). Carol keeps a context
(Chinese and English notes), finds it in her list, and a chat turn reads it (its source is in the
reply); Dave sees none of it. A context whose notes outgrow the agent's prompt budget
(``AGENT_PROMPT_BUDGET``, 3000 tokens) is still read, trimmed to its newest notes, by the
offline agent too. Asked in a chat turn to note something in the context ("帮我在共享笔记里记一下：
…" / "add to our notes: …"), the agent appends it (its updateContext tool), and the context read
back through the REST API holds the note.
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
# Notes that together outgrow the prompt budget (about 4,500 estimated tokens in each language).
LONG_NOTES = {
    "zh": [f"第{day}天：" + "上午逛宽窄巷子，下午去人民公园喝茶。" * 30 for day in range(9)],
    "en": [
        f"Day {day}: " + "pack the kitchen boxes and label every one. " * 80 for day in range(8)
    ],
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


@pytest.mark.parametrize("lang", list(CONTEXTS))
def test_a_context_longer_than_the_prompt_budget_is_read_trimmed(service, lang):
    spec = CONTEXTS[lang]
    created = service.post(
        "/v1/contexts",
        "carol",
        {"title": spec["title"], "entry": spec["entry"], "agent_name": "planner"},
    )
    assert created.status_code == 201, created.text
    context_id = created.json()["id"]
    for note in LONG_NOTES[lang]:
        added = service.post(
            f"/v1/contexts/{context_id}/entries",
            "carol",
            {"agent_name": "planner", "content": note},
        )
        assert added.status_code == 201, added.text
    reply = service.post(
        "/api/agent/chat", "carol", {"message": spec["ask"], "context_id": context_id}
    )
    assert reply.status_code == 200, reply.text
    # The turn's sources are what went into its prompt within the budget: trimmed, not dropped.
    assert f"context:{context_id}" in reply.json()["sources"]


NOTES = {
    "zh": {"ask": "帮我在共享笔记里记一下：周六要带伞", "note": "周六要带伞", "said": "记下了"},
    "en": {
        "ask": "add to our notes: bring umbrellas on Saturday",
        "note": "bring umbrellas on Saturday",
        "said": "Noted",
    },
}


@pytest.mark.parametrize("lang", list(NOTES))
def test_a_chat_turn_appends_a_note_to_the_context(service, lang):
    spec, note = CONTEXTS[lang], NOTES[lang]
    created = service.post(
        "/v1/contexts",
        "carol",
        {"title": spec["title"], "entry": spec["entry"], "agent_name": "planner"},
    )
    assert created.status_code == 201, created.text
    context_id = created.json()["id"]

    reply = service.post(
        "/api/agent/chat", "carol", {"message": note["ask"], "context_id": context_id}
    )

    assert reply.status_code == 200, reply.text
    assert reply.json()["reply"].startswith(note["said"]), reply.json()
    entries = service.get(f"/v1/contexts/{context_id}", "carol").json()["entries"]
    assert [(e["agent_name"], e["content"]) for e in entries] == [
        ("planner", spec["entry"]),
        ("agent", note["note"]),
    ]
