"""Acting for another user is the ``memory.act_for_any_user`` permission, never ``is_staff``."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memory.models import Preference

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_session(make_user):
    """A staff login to the admin, by session, without the permission to act for others."""
    client = APIClient()
    client.force_login(make_user("editor", staff=True, act_for_any_user=False))
    return client


@pytest.fixture
def staff_token_without_permission(make_user):
    """A staff user's token, without the permission to act for others."""
    staff = make_user("viewer", staff=True, act_for_any_user=False)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {staff.api_key}")
    return client


@pytest.fixture
def alices_preference(api_client, user):
    api_client.post(
        f"/v1/users/{user.username}/preferences",
        {"category": "food", "value": "tea"},
        format="json",
    )
    return Preference.objects.get(user=user)


@pytest.mark.parametrize("caller", ["admin_session", "staff_token_without_permission"])
def test_staff_without_the_permission_cannot_export_another_user(
    request, caller, user, alices_preference
):
    response = request.getfixturevalue(caller).get(
        f"/v1/users/{user.username}/export", HTTP_ACCEPT="application/x-ndjson"
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"


@pytest.mark.parametrize("caller", ["admin_session", "staff_token_without_permission"])
def test_staff_without_the_permission_cannot_erase_another_user(
    request, caller, user, alices_preference
):
    response = request.getfixturevalue(caller).delete(f"/v1/users/{user.username}")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"
    assert Preference.objects.filter(pk=alices_preference.pk).exists()


def test_staff_without_the_permission_cannot_write_for_another_user(admin_session):
    response = admin_session.post(
        "/v1/users/mallory/preferences", {"category": "food", "value": "x"}, format="json"
    )
    assert response.status_code == 403
    assert not Preference.objects.exists()


def test_staff_without_the_permission_still_acts_for_itself(admin_session):
    response = admin_session.post(
        "/v1/users/editor/preferences", {"category": "food", "value": "tea"}, format="json"
    )
    assert response.status_code == 201


def test_a_session_holding_the_permission_acts_for_another_user(
    staff_user, user, alices_preference
):
    client = APIClient()
    client.force_login(staff_user)
    response = client.get(f"/v1/users/{user.username}/preferences")
    assert response.status_code == 200
    assert [p["value"] for p in response.json()["items"]] == ["tea"]


def test_a_normal_user_naming_another_still_gets_not_found(other_client, user, alices_preference):
    response = other_client.delete(f"/v1/users/{user.username}")
    assert response.status_code == 404
    assert Preference.objects.filter(pk=alices_preference.pk).exists()


def test_staff_without_the_permission_cannot_register_an_all_users_webhook(
    staff_token_without_permission,
):
    response = staff_token_without_permission.post(
        "/v1/users/viewer/webhooks",
        {"url": "https://hooks.example.com/x", "all_users": True},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "all_users"
