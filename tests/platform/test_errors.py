"""Every kind of failure under the API prefixes answers in the one JSON error shape."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import override_settings

from tests.testapp.views import SECRET

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.testapp.urls")]

PREFIXES = ["/api/", "/v1/", "/rag/"]


@pytest.fixture(autouse=True)
def _fresh_throttle_history():
    """Forget throttle history kept in the cache by earlier tests."""
    cache.clear()
    yield
    cache.clear()


def assert_error_shape(response, status: int, code: str) -> dict:
    """Assert the status, a JSON body in the one shape, and the code; return the error."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert set(error) == {"code", "message", "details"}
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    return error


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("debug", [False, True])
def test_unknown_url_answers_404_not_found_json(anon_client, prefix, debug):
    with override_settings(DEBUG=debug):
        response = anon_client.get(prefix + "no/such/endpoint")
    assert_error_shape(response, 404, "NOT_FOUND")


@pytest.mark.parametrize("debug", [False, True])
def test_unknown_url_outside_the_api_stays_html(anon_client, debug):
    with override_settings(DEBUG=debug):
        response = anon_client.get("/no/such/page")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_wrong_method_on_a_drf_view_answers_405_in_the_shape(anon_client):
    error = assert_error_shape(anon_client.get("/api/testapp/echo"), 405, "INVALID_ARGUMENT")
    assert error["details"] == {"method": "GET"}


@pytest.mark.parametrize("path", ["/api/testapp/echo", "/v1/testapp/plain-post-only"])
def test_wrong_method_answer_keeps_the_allow_header(anon_client, path):
    response = anon_client.get(path)
    assert response.status_code == 405
    assert "POST" in response["Allow"]


def test_wrong_method_on_a_plain_view_answers_405_in_the_shape(anon_client):
    response = anon_client.get("/v1/testapp/plain-post-only")
    error = assert_error_shape(response, 405, "INVALID_ARGUMENT")
    assert error["details"] == {"method": "GET"}


def test_malformed_json_answers_400_invalid_argument(anon_client):
    response = anon_client.post("/api/testapp/echo", data='{"a": ', content_type="application/json")
    assert_error_shape(response, 400, "INVALID_ARGUMENT")


def test_wellformed_json_reaches_the_view(anon_client):
    response = anon_client.post("/api/testapp/echo", data={"a": 1}, format="json")
    assert response.status_code == 200
    assert response.json() == {"echo": {"a": 1}}


def test_missing_credentials_answer_401_unauthenticated(anon_client):
    response = anon_client.get("/api/testapp/whoami")
    assert_error_shape(response, 401, "UNAUTHENTICATED")
    assert response["WWW-Authenticate"] == "Token"


def test_unknown_token_answers_401_unauthenticated(anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    assert_error_shape(anon_client.get("/api/testapp/whoami"), 401, "UNAUTHENTICATED")


def test_throttled_request_answers_429_rate_limited(anon_client):
    assert anon_client.get("/rag/testapp/throttled").status_code == 200
    response = anon_client.get("/rag/testapp/throttled")
    error = assert_error_shape(response, 429, "RATE_LIMITED")
    assert error["details"]["retry_after_seconds"] > 0
    assert int(response["Retry-After"]) == error["details"]["retry_after_seconds"]


@pytest.mark.parametrize("debug", [False, True])
def test_exception_in_a_drf_view_answers_500_internal_without_traceback(anon_client, debug):
    with override_settings(DEBUG=debug):
        response = anon_client.get("/api/testapp/boom")
    assert_error_shape(response, 500, "INTERNAL")
    assert SECRET.encode() not in response.content
    assert b"Traceback" not in response.content


@pytest.mark.parametrize("debug", [False, True])
def test_exception_in_a_plain_view_answers_500_internal_without_traceback(anon_client, debug):
    with override_settings(DEBUG=debug):
        response = anon_client.get("/v1/testapp/plain-boom")
    assert_error_shape(response, 500, "INTERNAL")
    assert SECRET.encode() not in response.content
    assert b"Traceback" not in response.content


def test_the_message_names_the_item_and_the_unknown_key_of_a_later_list_item():
    from rest_framework import serializers

    from config import fields
    from config.errors import classify_exception

    class Block(fields.ClosedSerializer):
        content = fields.StrictCharField()

    class Chapter(fields.ClosedSerializer):
        blocks = Block(many=True)

    serializer = Chapter(data={"blocks": [{"content": "a"}, {"content": "b", "pos": 1}]})
    with pytest.raises(serializers.ValidationError) as caught:
        serializer.is_valid(raise_exception=True)
    _, _, message, _ = classify_exception(caught.value)
    assert message.startswith("Invalid request: blocks: 1: pos: Unknown field")
