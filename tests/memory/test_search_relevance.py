"""Memory search without an absolute floor: the relevance cut keeps a short chat's top_k."""

from __future__ import annotations

import pytest

from tests.memory.memory_helpers import ts

# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = [pytest.mark.django_db, pytest.mark.real_model]

SEM = "/v1/messages/semantic_search"
HYB = "/v1/messages/hybrid_search"
TRIP = [
    "下个月想去云南旅行，先到昆明。",
    "昆明之后去大理住三晚，想住洱海边。",
    "丽江古城人太多，可能只待一天。",
    "去香格里拉要注意高原反应。",
    "机票已经订好了，十号早上出发。",
    "大理的民宿要提前订，旺季很贵。",
    "想在洱海骑电动车环湖。",
    "丽江到香格里拉可以坐火车。",
    "云南的菌子火锅一定要吃。",
    "行李要带防晒霜和厚外套，早晚温差大。",
    "玉龙雪山要提前预约门票。",
    "回程从丽江飞上海。",
    "旅行预算大概八千块。",
    "朋友推荐了沙溪古镇，安静人少。",
    "昆明的翠湖冬天有海鸥。",
]


@pytest.fixture
def trip_chat(api_client, user, write):
    """A 15-message chat about one trip, embedded with the real model."""
    items = [
        {"message_id": f"t{i}", "ts": ts(i), "role": "user", "content": c, "chat_id": "trip"}
        for i, c in enumerate(TRIP)
    ]
    write(api_client, user.username, items, status=201)
    return items


def test_fifteen_message_chat_returns_ten_for_an_on_topic_query(api_client, user, trip_chat):
    body = {"user_id": user.username, "query_text": "云南旅行的安排", "top_k": 10}
    out = api_client.post(SEM, body, format="json").json()
    assert len(out["items"]) == 10
    assert out["floor"] is None and out["reason"] is None


def test_hybrid_on_a_short_chat_also_returns_top_k(api_client, user, trip_chat):
    body = {"user_id": user.username, "query_text": "云南旅行的安排", "top_k": 10}
    out = api_client.post(HYB, body, format="json").json()
    assert len(out["items"]) == 10


def test_explicit_min_score_is_still_an_absolute_floor(api_client, user, trip_chat):
    body = {"user_id": user.username, "query_text": "云南旅行的安排", "top_k": 10}
    out = api_client.post(SEM, {**body, "min_score": 0.99}, format="json").json()
    assert out["items"] == [] and out["floor"] == 0.99
