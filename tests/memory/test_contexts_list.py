"""GET /v1/contexts: the caller's shared contexts, newest first, paged."""

from __future__ import annotations

import pytest

from memory import services

pytestmark = pytest.mark.django_db


def test_the_list_shows_your_contexts_with_their_latest_entry(api_client, user, other_user):
    trip = services.context_create(owner=user, title="旅行", entry="去成都", agent_name="a")
    services.update_context(user=user, context_id=trip.pk, agent_name="b", content="住春熙路")
    services.context_create(owner=other_user, title="别人的", entry="x", agent_name="a")
    (item,) = api_client.get("/v1/contexts").json()["items"]
    assert item["id"] == trip.pk and item["entry_count"] == 2
    assert item["latest_entry"]["content"] == "住春熙路"


def test_the_list_pages_newest_first(api_client, user):
    ids = [
        services.context_create(owner=user, title=f"t{i}", entry="e", agent_name="a").pk
        for i in range(3)
    ]
    first = api_client.get("/v1/contexts", {"page_size": 2}).json()
    second = api_client.get("/v1/contexts", {"cursor": first["next_cursor"]}).json()
    assert [i["id"] for i in first["items"] + second["items"]] == ids[::-1]


def test_a_normal_token_naming_another_user_is_not_found(api_client, other_user):
    response = api_client.get("/v1/contexts", {"user_id": other_user.username})
    assert response.status_code == 404


def test_a_staff_token_lists_the_named_users_contexts(staff_client, user):
    services.context_create(owner=user, title="旅行", entry="去成都", agent_name="a")
    items = staff_client.get("/v1/contexts", {"user_id": user.username}).json()["items"]
    assert [i["title"] for i in items] == ["旅行"]
