"""Identity rules on every endpoint: own data only; staff may act for anybody."""

from __future__ import annotations

import pytest

from memory.models import ChatMessage, Preference, SharedContext
from tests.memory.memory_helpers import ts


def _calls(user_id: str):
    """Return (method, path, body) for every endpoint naming ``user_id``."""
    return [
        ("get", f"/v1/users/{user_id}/messages", None),
        (
            "post",
            f"/v1/users/{user_id}/messages",
            {"items": [{"ts": ts(9), "role": "user", "content": "hi"}]},
        ),
        ("get", f"/v1/users/{user_id}/messages/a1/neighbors", None),
        ("get", f"/v1/users/{user_id}/chats/c1/context", None),
        ("post", "/v1/messages/lexical_search", {"user_id": user_id, "query_text": "火锅"}),
        ("post", "/v1/messages/semantic_search", {"user_id": user_id, "query_text": "火锅"}),
        ("post", "/v1/messages/hybrid_search", {"user_id": user_id, "query_text": "火锅"}),
        ("get", f"/v1/users/{user_id}/preferences", None),
        ("post", f"/v1/users/{user_id}/preferences", {"category": "food", "value": "不吃辣"}),
        ("post", f"/v1/users/{user_id}/feedback", {"target_message_id": "a1", "rating": 1}),
        (
            "post",
            "/v1/contexts",
            {"user_id": user_id, "title": "t", "entry": "e", "agent_name": "x"},
        ),
        ("delete", f"/v1/users/{user_id}", None),
    ]


def _send(client, method, path, body):
    if body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, body, format="json")


@pytest.mark.parametrize("index", range(12))
def test_normal_token_naming_another_user_is_not_found(index, other_client, user, plain_chat):
    method, path, body = _calls(user.username)[index]
    response = _send(other_client, method, path, body)
    assert response.status_code == 404, (path, response.json())
    assert response.json()["error"]["code"] == "NOT_FOUND"
    # Nothing about alice leaks, and nothing was written or deleted.
    assert "不吃辣" not in response.content.decode()
    assert ChatMessage.objects.filter(user=user).count() == 6
    assert not Preference.objects.exists()


@pytest.mark.parametrize("index", range(12))
def test_unknown_user_answers_like_another_user(index, other_client):
    method, path, body = _calls("nobody")[index]
    response = _send(other_client, method, path, body)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"


@pytest.mark.parametrize("index", range(12))
def test_staff_acts_for_any_user(index, staff_client, user, plain_chat):
    method, path, body = _calls(user.username)[index]
    response = _send(staff_client, method, path, body)
    assert response.status_code in (200, 201), (path, response.json())


@pytest.mark.parametrize("index", range(12))
def test_owner_uses_every_endpoint(index, api_client, user, plain_chat):
    method, path, body = _calls(user.username)[index]
    response = _send(api_client, method, path, body)
    assert response.status_code in (200, 201), (path, response.json())


def _staff_writes(user_id: str):
    """Return {name: (path, valid body)} for every write that accepts a user."""
    return {
        "messages": (
            f"/v1/users/{user_id}/messages",
            {"items": [{"ts": ts(0), "role": "user", "content": "新用户的第一句话"}]},
        ),
        "preferences": (
            f"/v1/users/{user_id}/preferences",
            {"category": "tone", "value": "humorous"},
        ),
        "contexts": (
            "/v1/contexts",
            {"user_id": user_id, "title": "旅行", "entry": "去杭州", "agent_name": "planner"},
        ),
    }


@pytest.mark.parametrize("name", ["messages", "preferences", "contexts"])
def test_staff_write_creates_unknown_user(name, staff_client):
    from django.contrib.auth import get_user_model

    path, body = _staff_writes("u_12345")[name]
    response = staff_client.post(path, body, format="json")
    assert response.status_code == 201, response.json()
    new = get_user_model().objects.get(username="u_12345")
    assert not new.has_usable_password()
    stored = {
        "messages": ChatMessage.objects.filter(user=new),
        "preferences": Preference.objects.filter(user=new),
        "contexts": SharedContext.objects.filter(owner=new),
    }[name]
    assert stored.count() == 1


def test_staff_feedback_for_unknown_user_is_not_found_and_creates_nobody(staff_client):
    """A new user has no messages to rate, so feedback naming one can only be NOT_FOUND."""
    from django.contrib.auth import get_user_model

    response = staff_client.post(
        "/v1/users/u_12345/feedback", {"target_message_id": "a1", "rating": 1}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["error"]["details"] == {"field": "target_message_id"}
    assert not get_user_model().objects.filter(username="u_12345").exists()


REJECTED_STAFF_WRITES = {
    "messages-invalid": (
        "/v1/users/u_new/messages",
        {"items": [{"ts": "yesterday", "role": "user", "content": "x"}]},
        400,
        "INVALID_ARGUMENT",
    ),
    "messages-conflict": (
        "/v1/users/u_new/messages",
        {
            "items": [
                {"message_id": "m1", "ts": ts(0), "role": "user", "content": "一"},
                {"message_id": "m1", "ts": ts(1), "role": "user", "content": "二"},
            ]
        },
        409,
        "CONFLICT",
    ),
    "preferences-invalid": (
        "/v1/users/u_new/preferences",
        {"category": "tone", "value": ""},
        400,
        "INVALID_ARGUMENT",
    ),
    "feedback-invalid": (
        "/v1/users/u_new/feedback",
        {"target_message_id": "a1", "rating": 5},
        400,
        "INVALID_ARGUMENT",
    ),
    "contexts-invalid": (
        "/v1/contexts",
        {"user_id": "u_new", "title": "", "entry": "e", "agent_name": "x"},
        400,
        "INVALID_ARGUMENT",
    ),
}


@pytest.mark.parametrize("case", sorted(REJECTED_STAFF_WRITES))
def test_rejected_staff_write_creates_no_user(case, staff_client):
    from django.contrib.auth import get_user_model

    path, body, status, code = REJECTED_STAFF_WRITES[case]
    response = staff_client.post(path, body, format="json")
    assert response.status_code == status, response.json()
    assert response.json()["error"]["code"] == code
    assert not get_user_model().objects.filter(username="u_new").exists()


def test_staff_read_of_unknown_user_is_not_found(staff_client):
    r = staff_client.get("/v1/users/u_missing/messages")
    assert r.status_code == 404
    r = staff_client.post(
        "/v1/messages/lexical_search", {"user_id": "u_missing", "query_text": "x"}, format="json"
    )
    assert r.status_code == 404


def test_anonymous_is_unauthenticated(anon_client, user):
    r = anon_client.get(f"/v1/users/{user.username}/messages")
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "UNAUTHENTICATED"


def test_shared_context_is_owner_or_staff_only(api_client, other_client, staff_client):
    r = api_client.post(
        "/v1/contexts",
        {"title": "旅行计划", "entry": "去杭州", "agent_name": "planner"},
        format="json",
    )
    assert r.status_code == 201
    cid = r.json()["id"]
    assert other_client.get(f"/v1/contexts/{cid}").status_code == 404
    r = other_client.post(
        f"/v1/contexts/{cid}/entries", {"agent_name": "x", "content": "y"}, format="json"
    )
    assert r.status_code == 404
    assert staff_client.get(f"/v1/contexts/{cid}").status_code == 200
    r = staff_client.post(
        f"/v1/contexts/{cid}/entries",
        {"agent_name": "booker", "content": "订好酒店"},
        format="json",
    )
    assert r.status_code == 201
    body = api_client.get(f"/v1/contexts/{cid}").json()
    assert [e["agent_name"] for e in body["entries"]] == ["planner", "booker"]
    assert body["owner"] == "alice"
