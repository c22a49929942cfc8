"""A chat reply names what it recommended; rating one changes the next recommendation."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _explore(api_client, say):
    body = say(api_client, "推荐一些桌游活动")
    assert body["intent"] == "EXPLORE", body
    return body


def test_a_reply_carries_the_recommended_activities_and_itself(
    api_client, user, activities_loaded, say
):
    from memory.models import ChatMessage

    body = _explore(api_client, say)
    found = [str(r["id"]) for r in body["tool_calls"][0]["result"]["results"]]
    activities = [i["id"] for i in body["items"] if i["type"] == "activity"]
    assert found and activities[: len(found)] == found
    (message,) = [i["id"] for i in body["items"] if i["type"] == "message"]
    assert ChatMessage.objects.get(user=user, message_id=message).content == body["reply"]


def test_an_activity_rated_minus_one_is_not_recommended_again(api_client, activities_loaded, say):
    first = next(i for i in _explore(api_client, say)["items"] if i["type"] == "activity")
    rated = api_client.post(
        "/api/feedback/",
        {"target_type": "activity", "target_id": first["id"], "rating": -1},
        format="json",
    )
    assert rated.status_code == 201, rated.content
    again = _explore(api_client, say)
    assert first["id"] not in [i["id"] for i in again["items"] if i["type"] == "activity"]


def test_a_chat_can_name_the_shared_context_it_reads(api_client, user, say):
    from memory.services import context_create

    named = context_create(owner=user, title="旅行", entry="下个月去成都", agent_name="planner")
    context_create(owner=user, title="搬家", entry="周六搬家", agent_name="planner")
    body = say(api_client, "你好呀", context_id=named.pk)
    assert f"context:{named.pk}" in body["sources"]


def test_a_chat_naming_another_users_context_is_not_found(api_client, other_user, say):
    from memory.services import context_create

    theirs = context_create(owner=other_user, title="秘密", entry="不要看", agent_name="x")
    body = say(api_client, "你好呀", context_id=theirs.pk, status=404)
    assert body["error"]["code"] == "NOT_FOUND"
