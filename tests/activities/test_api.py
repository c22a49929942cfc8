"""The activities REST API: create, list, detail, update, delete, join, feedback."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from activities.models import Activity, Participation

pytestmark = pytest.mark.django_db


def body(**overrides) -> dict:
    data = {
        "title": "周六徒步佘山",
        "description": "轻松路线，适合新手，下山后一起吃农家菜。",
        "type": "户外",
        "tags": ["徒步", "新手"],
        "start_at": (timezone.now() + timedelta(days=4)).isoformat(),
        "location": {"lat": 31.097, "lng": 121.19},
        "location_name": "松江·佘山",
        "max_participants": 10,
    }
    data.update(overrides)
    return data


def test_create_answers_before_the_embedding_exists(api_client, user):
    response = api_client.post("/api/activities/", body(), format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["index_state"] == "pending"
    assert data["location"] == {"lat": 31.097, "lng": 121.19}
    assert data["creator_id"] == user.pk
    assert "户外" in data["vibes"]
    assert Activity.objects.get(pk=data["id"]).embedding is None


def test_create_then_index_on_commit(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/activities/", body(), format="json")
    detail = api_client.get(f"/api/activities/{response.json()['id']}/").json()
    assert detail["index_state"] == "indexed"
    row = Activity.objects.get(pk=detail["id"])
    assert row.embedding is not None and row.search_text


@pytest.mark.parametrize(
    "override",
    [
        {"title": ""},
        {"max_participants": 0},
        {"location": {"lat": 91, "lng": 0}},
        {"current_participants": 11},
        {"status": "bogus"},
    ],
)
def test_create_rejects_invalid_input(api_client, override):
    response = api_client.post("/api/activities/", body(**override), format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_end_before_start_is_rejected(api_client):
    start = timezone.now() + timedelta(days=2)
    response = api_client.post(
        "/api/activities/",
        body(start_at=start.isoformat(), end_at=(start - timedelta(hours=1)).isoformat()),
        format="json",
    )
    assert response.status_code == 400


def test_list_shows_active_and_own_drafts(api_client, other_client):
    mine = api_client.post("/api/activities/", body(status="draft"), format="json").json()
    theirs = other_client.post(
        "/api/activities/", body(status="draft", title="别人的草稿"), format="json"
    ).json()
    public = other_client.post("/api/activities/", body(title="公开活动"), format="json").json()
    listed = {a["id"] for a in api_client.get("/api/activities/").json()["results"]}
    assert mine["id"] in listed and public["id"] in listed and theirs["id"] not in listed
    assert api_client.get(f"/api/activities/{theirs['id']}/").status_code == 404


def test_only_creator_or_staff_may_change_or_delete(api_client, other_client, staff_client):
    created = api_client.post("/api/activities/", body(), format="json").json()
    url = f"/api/activities/{created['id']}/"
    denied = other_client.patch(url, {"title": "改名"}, format="json")
    assert denied.status_code == 403
    assert denied.json()["error"]["code"] == "PERMISSION_DENIED"
    assert other_client.delete(url).status_code == 403
    assert api_client.patch(url, {"title": "我改的"}, format="json").json()["title"] == "我改的"
    staff = staff_client.patch(url, {"location": {"lat": 31.1, "lng": 121.2}}, format="json")
    assert staff.status_code == 200 and staff.json()["location"] == {"lat": 31.1, "lng": 121.2}
    assert api_client.delete(url).status_code == 204
    assert not Activity.objects.filter(pk=created["id"]).exists()
    assert api_client.get(url).status_code == 404


def test_someone_elses_draft_is_not_found_for_changes(api_client, other_client):
    draft = other_client.post("/api/activities/", body(status="draft"), format="json").json()
    response = api_client.patch(f"/api/activities/{draft['id']}/", {"title": "x"}, format="json")
    assert response.status_code == 404


def test_join_and_join_twice(api_client, make_activity):
    activity = make_activity(max_participants=3, current_participants=1)
    response = api_client.post(f"/api/activities/{activity.pk}/join/")
    assert response.status_code == 201, response.content
    assert response.json()["current_participants"] == 2
    again = api_client.post(f"/api/activities/{activity.pk}/join/")
    assert again.status_code == 409
    activity.refresh_from_db()
    assert activity.current_participants == 2


def test_joining_again_once_it_filled_up_says_joined_not_full(api_client, make_activity):
    activity = make_activity(max_participants=2, current_participants=1)
    api_client.post(f"/api/activities/{activity.pk}/join/")
    again = api_client.post(f"/api/activities/{activity.pk}/join/")
    assert again.status_code == 409
    assert again.json()["error"]["details"] == {"reason": "joined"}


def test_joining_a_cancelled_activity_names_its_status_in_the_request_language(
    api_client, make_activity
):
    activity = make_activity(status="cancelled")
    response = api_client.post(
        f"/api/activities/{activity.pk}/join/", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert response.json()["error"]["message"] == "此活动的状态为 已取消；只能报名进行中的活动。"


@pytest.mark.parametrize(
    "fields",
    [
        {"max_participants": 4, "current_participants": 4},
        {"status": "cancelled"},
        {"status": "finished"},
    ],
)
def test_joining_full_or_cancelled_is_invalid_and_changes_nothing(
    api_client, make_activity, fields
):
    activity = make_activity(**fields)
    before = activity.current_participants
    response = api_client.post(f"/api/activities/{activity.pk}/join/")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"
    activity.refresh_from_db()
    assert activity.current_participants == before
    assert not Participation.objects.filter(activity=activity).exists()


def test_joining_a_past_activity_is_invalid(api_client, make_activity):
    activity = make_activity()
    Activity.objects.filter(pk=activity.pk).update(start_at=timezone.now() - timedelta(hours=2))
    response = api_client.post(f"/api/activities/{activity.pk}/join/")
    assert response.status_code == 400
    assert not Participation.objects.filter(activity=activity).exists()


def test_leave_frees_the_place(api_client, make_activity, user):
    """DELETE on join leaves the activity and gives the place back."""
    activity = make_activity(max_participants=2, current_participants=1)
    api_client.post(f"/api/activities/{activity.pk}/join/")
    response = api_client.delete(f"/api/activities/{activity.pk}/join/")
    assert response.status_code == 204
    activity.refresh_from_db()
    assert activity.current_participants == 1
    assert not Participation.objects.filter(user=user, activity=activity).exists()


def test_leave_without_joining_is_not_found(api_client, make_activity):
    """Leaving an activity one never joined answers NOT_FOUND and changes nothing."""
    activity = make_activity(current_participants=2)
    response = api_client.delete(f"/api/activities/{activity.pk}/join/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
    activity.refresh_from_db()
    assert activity.current_participants == 2


def test_leave_after_start_is_invalid(api_client, make_activity, user):
    """An activity that has started can no longer be left."""
    activity = make_activity()
    api_client.post(f"/api/activities/{activity.pk}/join/")
    Activity.objects.filter(pk=activity.pk).update(start_at=timezone.now() - timedelta(hours=1))
    response = api_client.delete(f"/api/activities/{activity.pk}/join/")
    assert response.status_code == 400
    assert Participation.objects.filter(user=user, activity=activity).exists()


def test_join_unknown_activity(api_client):
    assert api_client.post("/api/activities/999999/join/").status_code == 404


def test_feedback(api_client, make_activity, user):
    activity = make_activity()
    not_joined = api_client.post(
        f"/api/activities/{activity.pk}/feedback/", {"rating": 1}, format="json"
    )
    assert not_joined.status_code == 400
    api_client.post(f"/api/activities/{activity.pk}/join/")
    bad = api_client.post(f"/api/activities/{activity.pk}/feedback/", {"rating": 5}, format="json")
    assert bad.status_code == 400
    ok = api_client.post(f"/api/activities/{activity.pk}/feedback/", {"rating": 1}, format="json")
    assert ok.status_code == 200 and ok.json()["feedback"] == 1
    assert Participation.objects.get(user=user, activity=activity).feedback == 1


def test_endpoints_need_a_token(anon_client):
    assert anon_client.get("/api/activities/").status_code == 401
    assert anon_client.post("/api/activities/", body(), format="json").status_code == 401


def test_openapi_schema_has_the_operations(staff_client):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = {
        op["operationId"]
        for item in schema["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert {
        "activities_list",
        "activities_create",
        "activities_retrieve",
        "activities_partial_update",
        "activities_destroy",
        "activities_join",
        "activities_feedback",
        "rag_search",
    } <= operations
