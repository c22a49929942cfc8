"""POST/GET /api/feedback/: rate an activity or a message, list your own ratings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def activity(user):
    from activities.services import activity_create

    return activity_create(
        creator=user,
        lat=31.23,
        lng=121.47,
        title="周六下午桌游局",
        type="桌游",
        start_at=timezone.now() + timedelta(days=3),
        max_participants=6,
    )


@pytest.fixture
def answer(user):
    item = {"message_id": "m1", "ts": timezone.now().isoformat(), "role": "assistant",
            "content": "推荐你去周六下午的桌游局，新手友好。", "chat_id": "c1"}  # fmt: skip
    services.messages_write(user=user, items=[item])
    return "m1"


def rate(client, target_type, target_id, rating, **extra):
    body = {"target_type": target_type, "target_id": str(target_id), "rating": rating, **extra}
    return client.post("/api/feedback/", body, format="json")


def test_rating_an_activity_names_it(api_client, activity):
    response = rate(api_client, "activity", activity.pk, -1, comment="太吵")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["target_type"] == "activity" and body["target_id"] == str(activity.pk)
    assert body["target_label"] == "周六下午桌游局" and body["comment"] == "太吵"


def test_rating_a_message_names_its_first_words(api_client, answer):
    body = rate(api_client, "message", answer, 1).json()
    assert body["target_label"].startswith("推荐你去周六下午的桌游局")


def test_rating_again_replaces_the_rating(api_client, activity):
    rate(api_client, "activity", activity.pk, -1)
    response = rate(api_client, "activity", activity.pk, 1)
    assert response.status_code == 200
    items = api_client.get("/api/feedback/").json()["items"]
    assert [(i["target_id"], i["rating"]) for i in items] == [(str(activity.pk), 1)]


@pytest.mark.parametrize("rating", [0, 2, "x"])
def test_a_rating_other_than_minus_one_or_one_is_invalid(api_client, activity, rating):
    response = rate(api_client, "activity", activity.pk, rating)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


@pytest.mark.parametrize("target_type", ["activity", "message"])
def test_rating_what_does_not_exist_is_not_found(api_client, target_type):
    response = rate(api_client, target_type, "999999", 1)
    assert response.status_code == 404


def test_rating_another_users_message_is_not_found(other_client, answer):
    assert rate(other_client, "message", answer, 1).status_code == 404


def test_the_list_holds_only_your_ratings_newest_first_paged(
    api_client, other_client, activity, answer
):
    rate(api_client, "activity", activity.pk, -1)
    rate(api_client, "message", answer, 1)
    rate(other_client, "activity", activity.pk, 1)
    first = api_client.get("/api/feedback/", {"page_size": 1}).json()
    assert [i["target_type"] for i in first["items"]] == ["message"]
    second = api_client.get("/api/feedback/", {"page_size": 1, "cursor": first["next_cursor"]})
    assert [i["target_type"] for i in second.json()["items"]] == ["activity"]
    assert "next_cursor" not in second.json()


def test_a_minus_one_hides_the_activity_from_that_users_search(user, other_user, activity):
    from activities.search import activities_search

    services.feedback_rate(user=user, target_type="activity", target_id=activity.pk, rating=-1)
    mine = activities_search(user=user, semantic_query="", filters={})["results"]
    theirs = activities_search(user=other_user, semantic_query="", filters={})["results"]
    assert activity.pk not in [r["id"] for r in mine]
    assert activity.pk in [r["id"] for r in theirs]


def test_a_plus_one_makes_its_type_a_liked_type(user, activity):
    from activities.personalize import Personalizer

    services.feedback_rate(user=user, target_type="activity", target_id=activity.pk, rating=1)
    assert "桌游" in Personalizer.for_user(user, cap=0.2, floor=None).liked_types
