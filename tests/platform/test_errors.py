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
    error = assert_error_shape(anon_client.get("/api/testapp/echo"), 405, "METHOD_NOT_ALLOWED")
    assert error["details"] == {"method": "GET"}
    assert error["message"] == "Method GET is not allowed on /api/testapp/echo."


@pytest.mark.parametrize("path", ["/api/testapp/echo", "/v1/testapp/plain-post-only"])
def test_wrong_method_answer_keeps_the_allow_header(anon_client, path):
    response = anon_client.get(path)
    assert response.status_code == 405
    assert "POST" in response["Allow"]


def test_wrong_method_on_a_plain_view_answers_405_in_the_shape(anon_client):
    response = anon_client.get("/v1/testapp/plain-post-only")
    error = assert_error_shape(response, 405, "METHOD_NOT_ALLOWED")
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
    assert message.startswith("Invalid request: blocks[1].pos: Unknown field")


def _validation_error(serializer_class, data):
    from rest_framework import serializers

    from config.errors import classify_exception

    with pytest.raises(serializers.ValidationError) as caught:
        serializer_class(data=data).is_valid(raise_exception=True)
    return classify_exception(caught.value)


def _chapter_serializer():
    from config import fields

    class Block(fields.ClosedSerializer):
        content = fields.StrictCharField()
        kind = fields.StrictCharField(required=False)

    class Chapter(fields.ClosedSerializer):
        title = fields.StrictCharField()
        blocks = Block(many=True)

    return Chapter


def test_a_missing_field_is_said_to_be_missing_naming_it():
    _, code, message, details = _validation_error(_chapter_serializer(), {"blocks": []})
    assert code == "INVALID_ARGUMENT"
    assert message == "Missing required field: title."
    assert details["field"] == "title"


def test_a_missing_nested_field_is_named_by_its_path():
    data = {"title": "t", "blocks": [{"content": "a"}, {"kind": "p"}]}
    _, _, message, details = _validation_error(_chapter_serializer(), data)
    assert message == "Missing required field: blocks[1].content."
    assert details["field"] == "blocks[1].content"


def test_a_wrong_value_names_its_field_in_details():
    _, _, message, details = _validation_error(_chapter_serializer(), {"title": 5, "blocks": []})
    assert message == "Invalid request: title: Not a valid string: send a JSON string."
    assert details["field"] == "title"
    assert details["fields"] == {"title": ["Not a valid string: send a JSON string."]}


def test_a_django_validation_error_names_its_field_in_details():
    from django.core.exceptions import ValidationError

    from config.errors import classify_exception

    _, _, _, details = classify_exception(ValidationError({"ts": ["out of range"]}))
    assert details == {"fields": {"ts": ["out of range"]}, "field": "ts"}


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_body_method_without_the_trailing_slash_is_told_the_path(api_client, method, debug):
    from writing.models import Book

    with override_settings(DEBUG=debug):
        response = getattr(api_client, method)("/api/books", {"title": "t"}, format="json")
    error = assert_error_shape(response, 404, "NOT_FOUND")
    assert error["message"] == "No API endpoint at /api/books: use /api/books/."
    assert error["details"] == {"use_path": "/api/books/"}
    assert Book.objects.count() == 0


def test_a_get_without_the_trailing_slash_still_redirects(api_client):
    response = api_client.get("/api/books")
    assert response.status_code == 301
    assert response["Location"] == "/api/books/"


def test_a_post_to_an_unknown_path_without_a_slash_is_a_plain_404(api_client):
    error = assert_error_shape(api_client.post("/api/no-such", {}, format="json"), 404, "NOT_FOUND")
    assert error["details"] == {}
