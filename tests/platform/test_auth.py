"""The API reads a token under "Token" or "Bearer"; another scheme is told which to use."""

from __future__ import annotations

import pytest
from django.core.cache import cache

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.testapp.urls")]


@pytest.fixture(autouse=True)
def _fresh_throttle_history():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def key(user) -> str:
    return user.api_key


@pytest.mark.parametrize("scheme", ["Token", "Bearer", "bearer"])
def test_a_valid_key_authenticates_under_either_scheme(anon_client, user, key, scheme):
    anon_client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    response = anon_client.get("/api/testapp/whoami")
    assert response.status_code == 200, response.content
    assert response.json()["username"] == user.username


def test_an_unknown_key_under_bearer_is_401(anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-real-key")
    response = anon_client.get("/api/testapp/whoami")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "UNAUTHENTICATED"


def test_a_bearer_header_with_spaces_in_the_key_is_401(anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Bearer two words")
    assert anon_client.get("/api/testapp/whoami").status_code == 401


def test_another_scheme_is_told_to_send_token(anon_client, key):
    anon_client.credentials(HTTP_AUTHORIZATION=f"Basic {key}")
    error = anon_client.get("/api/testapp/whoami").json()["error"]
    assert error["code"] == "UNAUTHENTICATED"
    assert '"Basic"' in error["message"]
    assert "Authorization: Token <key>" in error["message"]


def test_no_header_is_told_how_to_send_the_key(anon_client):
    error = anon_client.get("/api/testapp/whoami").json()["error"]
    assert "Authorization: Token <key>" in error["message"]
