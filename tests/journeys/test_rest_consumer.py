"""The REST consumer, over real HTTP: write chat messages, find them by meaning seconds later.

On the journey service (``manage.py serve``, tests/journeys/conftest.py). Ivy's chat app writes
her messages through ``POST /v1/users/{id}/messages``; a worker embeds them after the write
answered. Within 5 s of the write, hybrid search finds each by a paraphrase, with a semantic score
(so by meaning, not only by its words), in Chinese and in English; Alice finds none of it.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

# How long a journey waits for the worker to embed a message: a bound on a hang, not a speed
# target (the 5 s target is measured by bench/queue_latency.py; tests never assert time).
SEARCHABLE_WITHIN_SECONDS = 60.0
MESSAGES = {
    "zh": ("我下个月要去青岛学潜水，民宿已经订好了。", "去海边潜水的计划"),
    "en": ("I'm flying to Lisbon in May to take surfing lessons.", "surf trip plans in Portugal"),
}


def write_message(service, user: str, content: str) -> str:
    """Write one message as ``user`` through the REST API; return its message_id."""
    message_id = f"m_{uuid.uuid4().hex[:12]}"
    item = {
        "message_id": message_id,
        "ts": datetime.now(UTC).isoformat(),
        "role": "user",
        "content": content,
        "chat_id": "rest_consumer",
    }
    response = service.post(f"/v1/users/{user}/messages", user, {"items": [item]})
    assert response.status_code in (200, 201), response.text
    return message_id


def hybrid_hit(service, user: str, query: str, message_id: str) -> dict | None:
    """Return ``message_id``'s hybrid-search hit for ``query`` once it has a semantic score."""
    response = service.post("/v1/messages/hybrid_search", user, {"query_text": query, "top_k": 5})
    assert response.status_code == 200, response.text
    for item in response.json()["items"]:
        if item["message_id"] == message_id and item.get("semantic_score") is not None:
            return item
    return None


@pytest.mark.parametrize("lang", list(MESSAGES))
def test_a_written_message_is_found_by_meaning(journey_service, lang):
    content, paraphrase = MESSAGES[lang]
    message_id = write_message(journey_service, "ivy", content)
    hit = journey_service.wait_until(
        lambda: hybrid_hit(journey_service, "ivy", paraphrase, message_id),
        SEARCHABLE_WITHIN_SECONDS,
        what=f"{message_id} found by meaning",
    )
    assert hit["content"] == content
    others = journey_service.post(
        "/v1/messages/hybrid_search", "alice", {"query_text": paraphrase}
    ).json()["items"]
    assert message_id not in [item["message_id"] for item in others]
