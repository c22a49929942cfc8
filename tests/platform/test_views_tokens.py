"""``/v1/tokens``: the caller's own tokens by prefix; issue, rotate, revoke."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from config.models import ApiToken

pytestmark = pytest.mark.django_db


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def test_the_list_shows_the_callers_tokens_by_prefix_never_a_key_or_digest(
    api_client, user, other_user
):
    response = api_client.get("/v1/tokens")
    assert response.status_code == 200
    tokens = response.json()["tokens"]
    mine = ApiToken.objects.get(user=user)
    assert [t["prefix"] for t in tokens] == [mine.prefix] and tokens[0]["active"] is True
    text = response.content.decode()
    assert user.api_key not in text and mine.digest not in text
    assert ApiToken.objects.get(user=other_user).prefix not in text


def test_an_issued_key_is_shown_once_and_authenticates(api_client, user):
    response = api_client.post("/v1/tokens", {"name": "ci", "expires_in_days": 30}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["key"].startswith(body["prefix"]) and body["expires_at"]
    assert _client(body["key"]).get("/v1/tokens").status_code == 200
    listed = api_client.get("/v1/tokens").content.decode()
    assert body["prefix"] in listed and body["key"] not in listed


def test_an_expiry_out_of_range_is_invalid_argument(api_client):
    response = api_client.post("/v1/tokens", {"expires_in_days": 0}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "expires_in_days"


def test_revoking_a_token_stops_it_at_once(api_client, user):
    issued = api_client.post("/v1/tokens", {"name": "old"}, format="json").json()
    response = api_client.delete(f"/v1/tokens/{issued['id']}")
    assert response.status_code == 200 and response.json()["revoked_at"]
    assert _client(issued["key"]).get("/v1/tokens").status_code == 401


def test_the_caller_may_revoke_the_token_it_uses(api_client, user):
    token = ApiToken.objects.get(user=user)
    assert api_client.delete(f"/v1/tokens/{token.pk}").status_code == 200
    assert api_client.get("/v1/tokens").status_code == 401


def test_rotating_gives_a_new_key_and_revokes_the_old(api_client, user):
    token = ApiToken.objects.get(user=user)
    response = api_client.post(f"/v1/tokens/{token.pk}/rotate")
    assert response.status_code == 201
    assert _client(response.json()["key"]).get("/v1/tokens").status_code == 200
    assert api_client.get("/v1/tokens").status_code == 401


def test_another_users_token_answers_not_found_and_keeps_working(api_client, other_user):
    theirs = ApiToken.objects.get(user=other_user)
    assert api_client.delete(f"/v1/tokens/{theirs.pk}").status_code == 404
    assert api_client.post(f"/v1/tokens/{theirs.pk}/rotate").status_code == 404
    assert _client(other_user.api_key).get("/v1/tokens").status_code == 200


def test_the_token_operations_need_credentials(anon_client):
    assert anon_client.get("/v1/tokens").status_code == 401
    assert anon_client.post("/v1/tokens", {}, format="json").status_code == 401


def test_the_export_holds_no_token_digest_or_prefix(api_client, user):
    token = ApiToken.objects.get(user=user)
    response = api_client.get(f"/v1/users/{user.username}/export")
    text = b"".join(response.streaming_content).decode()
    assert response.status_code == 200
    assert token.digest not in text and token.prefix not in text
