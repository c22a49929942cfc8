"""What a client may not set on an activity: its participant count and its lifecycle."""

from __future__ import annotations

import pytest

from activities.models import Activity
from tests.activities.test_api import body

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "override",
    [{"current_participants": 0}, {"current_participants": 5}, {"status": "cancelled"}],
)
def test_create_refuses_a_participant_count_or_a_server_status(api_client, override):
    response = api_client.post("/api/activities/", body(**override), format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"
    assert not Activity.objects.exists()


@pytest.mark.parametrize("status", ["draft", "active"])
def test_create_takes_a_draft_or_a_published_activity_with_no_participants(api_client, status):
    created = api_client.post("/api/activities/", body(status=status), format="json").json()
    assert created["status"] == status and created["current_participants"] == 0


def test_update_refuses_a_participant_count(api_client):
    created = api_client.post("/api/activities/", body(), format="json").json()
    url = f"/api/activities/{created['id']}/"
    response = api_client.patch(url, {"current_participants": 9}, format="json")
    assert response.status_code == 400
    assert Activity.objects.get(pk=created["id"]).current_participants == 0


@pytest.mark.parametrize(
    ("start", "change"),
    [("active", "finished"), ("active", "draft"), ("cancelled", "active")],
)
def test_update_refuses_a_status_change_that_is_the_servers(api_client, user, start, change):
    activity = Activity.objects.get(
        pk=api_client.post("/api/activities/", body(), format="json").json()["id"]
    )
    Activity.objects.filter(pk=activity.pk).update(status=start)
    response = api_client.patch(
        f"/api/activities/{activity.pk}/", {"status": change}, format="json"
    )
    assert response.status_code == 400
    assert Activity.objects.get(pk=activity.pk).status == start


@pytest.mark.parametrize(
    ("start", "change"),
    [("draft", "active"), ("draft", "cancelled"), ("active", "cancelled")],
)
def test_the_creator_publishes_or_cancels(api_client, start, change):
    created = api_client.post("/api/activities/", body(status=start), format="json").json()
    url = f"/api/activities/{created['id']}/"
    response = api_client.patch(url, {"status": change}, format="json")
    assert response.status_code == 200 and response.json()["status"] == change
