"""The input rules of config/inputs.py: the bounded JSON parser, the guard middleware.

The last tests send bad input through a real HTTP server (pytest-django's ``live_server``) with
httpx, as a client would: the test client skips part of Django's request parsing.
"""

from __future__ import annotations

import json

import httpx
import pytest

from config.inputs import MAX_JSON_DEPTH, InputError, bad_text_reason, load_json
from config.services import token_issue

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_json_nested_to_the_limit_parses():
    assert load_json(nested(MAX_JSON_DEPTH)) is not None


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100_000])
def test_json_nested_past_the_limit_is_an_input_error_not_a_recursion_error(depth):
    with pytest.raises(InputError, match="nested deeper"):
        load_json(nested(depth))


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = json.dumps({"a": "[" * 1000 + '\\"{' * 100})
    assert load_json(text)["a"].startswith("[[[")


@pytest.mark.parametrize(
    "raw",
    [
        '{"a": "x\\u0000y"}',
        '{"a": ["ok", {"b": "x\\ud800"}]}',
        '{"a": "\\udc00x"}',
        '{"x\\u0000": 1}',
        '{"a": NaN}',
        '{"a": -Infinity}',
        '{"a": 1e400}',
        b'{"a": "\xff"}',
        b'{"a": "\xed\xa0\x80"}',  # a surrogate encoded as UTF-8 bytes (CESU-8)
    ],
)
def test_bad_json_is_an_input_error(raw):
    with pytest.raises(InputError):
        load_json(raw)


def test_a_surrogate_pair_is_a_character_and_passes():
    assert load_json('{"a": "\\ud83d\\ude00"}') == {"a": "😀"}


def test_bad_text_reason_names_nul_and_lone_surrogates():
    assert "NUL" in bad_text_reason("a\x00")
    assert "surrogate" in bad_text_reason("a\udfff")
    assert bad_text_reason("普通的文字 😀") is None


def test_request_data_too_big_wherever_it_surfaces_is_413_payload_too_large():
    from django.core.exceptions import RequestDataTooBig

    from config.errors import classify_exception

    assert classify_exception(RequestDataTooBig("big"))[:2] == (413, "PAYLOAD_TOO_LARGE")


@pytest.mark.django_db
def test_nul_in_a_path_outside_the_api_answers_plain_400(client):
    response = client.get("/admin/a%00b/")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")


# --- through a real HTTP server ---------------------------------------------------------


@pytest.fixture
def http(live_server, transactional_db):
    """An httpx client of the live server, authenticated by a token of a normal user."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="alice", password="pw-alice")
    key = token_issue(user=user).key
    headers = {"Authorization": f"Token {key}", "Content-Type": "application/json"}
    with httpx.Client(base_url=live_server.url, headers=headers, timeout=60) as client:
        yield client


def _error_code(response) -> str:
    assert response.headers["content-type"].startswith("application/json")
    return response.json()["error"]["code"]


def _message_count() -> int:
    from memory.models import ChatMessage

    return ChatMessage.objects.count()


@pytest.mark.parametrize(
    "method, path, body, status, code",
    [
        ("POST", "/v1/users/alice/messages", b"x" * 3_000_000, 413, "PAYLOAD_TOO_LARGE"),
        ("POST", "/api/books/", b"x" * 3_000_000, 413, "PAYLOAD_TOO_LARGE"),
        ("POST", "/v1/users/alice/messages", nested(100_000).encode(), 400, "INVALID_ARGUMENT"),
        ("POST", "/v1/users/hw%00nul/messages", b'{"items": []}', 400, "INVALID_ARGUMENT"),
        ("GET", "/v1/users/alice/messages?chat_id=a%00", b"", 400, "INVALID_ARGUMENT"),
        ("GET", "/v1/users/alice/chats/a%00/context", b"", 400, "INVALID_ARGUMENT"),
        ("DELETE", "/v1/users/hw%00nul", b"", 400, "INVALID_ARGUMENT"),
        (
            "POST",
            "/v1/users/alice/messages",
            b'{"items": [{"ts": "2024-05-01T12:00:00Z", "role": "user", "content": "a\\ud800"}]}',
            400,
            "INVALID_ARGUMENT",
        ),
        (
            "POST",
            "/v1/users/alice/messages",
            b'{"items": [{"ts": "9999-12-31T23:59:59-14:00", "role": "user", "content": "a"}]}',
            400,
            "INVALID_ARGUMENT",
        ),
        ("POST", "/api/books/", b'{"title": 0}', 400, "INVALID_ARGUMENT"),
    ],
)
def test_bad_input_over_real_http_answers_in_the_error_shape(
    http, method, path, body, status, code
):
    response = http.request(method, path, content=body)
    assert response.status_code == status, response.text[:300]
    assert _error_code(response) == code
    assert _message_count() == 0


def test_a_valid_write_over_real_http_still_succeeds(http):
    """The guard does not refuse what is allowed: emoji (surrogate pairs) and Chinese pass."""
    body = {"items": [{"ts": "2099-12-31T23:59:59Z", "role": "user", "content": "火锅 😀"}]}
    response = http.post("/v1/users/alice/messages", content=json.dumps(body).encode())
    assert response.status_code == 201, response.text[:300]
    assert _message_count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    ["title=a%ED%A0%80b", "title=a%00b", "ti%00tle=abc", b"title=a\xffb"],
    ids=["surrogate-escape", "nul-value", "nul-key", "invalid-utf8-byte"],
)
def test_a_bad_form_body_is_400_like_json_and_writes_nothing(api_client, body):
    from writing.models import Book

    response = api_client.post(
        "/api/books/", body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"
    assert Book.objects.count() == 0


@pytest.mark.django_db
def test_a_good_form_body_still_creates(api_client):
    from writing.models import Book

    response = api_client.post(
        "/api/books/",
        "title=%E8%A5%BF%E6%B8%B8%E8%AE%B0",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 201, response.content
    assert Book.objects.get().title == "西游记"
