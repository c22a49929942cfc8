"""Every API error speaks the request's language: English or Simplified Chinese, never both."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

HAN = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
# Two English words in a row: a sentence, not a field name, code, path or media type.
ENGLISH_WORDS = re.compile(r"\b[A-Za-z]{2,}\b[ ,;:]+\b[A-Za-z]{2,}\b")
# What may stay English in a Chinese message: names the client sent or must send.
UNTRANSLATED = re.compile(
    r"Authorization: Token <key>|application/json|multipart/form-data|/[\w/]*|[A-Z_]{3,}"
)


@pytest.fixture(autouse=True)
def _fresh_throttle_history():
    cache.clear()
    yield
    cache.clear()


def _bad_requests(user) -> dict:
    """Return a name -> callable(client) sending one bad request each."""
    token_client = APIClient()
    token_client.force_authenticate(user)

    def as_user(send):
        def run(language):
            token_client.credentials(HTTP_ACCEPT_LANGUAGE=language)
            return send(token_client)

        return run

    def as_anonymous(send, **headers):
        def run(language):
            return send(APIClient(HTTP_ACCEPT_LANGUAGE=language, **headers))

        return run

    def post_json(path, body):
        return lambda client: client.post(path, body, content_type="application/json")

    return {
        "unauthenticated": as_anonymous(lambda c: c.get("/api/books/")),
        "wrong scheme": as_anonymous(
            lambda c: c.get("/api/books/"), HTTP_AUTHORIZATION="Basic YWxpY2U6cHc="
        ),
        "wrong method": as_user(lambda c: c.get("/api/agent/chat")),
        "invalid field": as_user(post_json("/api/books/", json.dumps({"title": "长" * 500}))),
        "wrong type": as_user(post_json("/api/books/", json.dumps({"title": 5}))),
        "missing field": as_user(post_json("/api/books/", "{}")),
        "unknown field": as_user(post_json("/api/books/", json.dumps({"title": "a", "x": 1}))),
        "bad json": as_user(post_json("/api/books/", '{"title": ')),
        "too large": as_user(post_json("/api/books/", "[" + " " * 3_000_000 + "]")),
        "multipart": as_user(lambda c: c.post("/api/books/", {"title": "a"}, format="multipart")),
        "no trailing slash": as_user(post_json("/api/books", json.dumps({"title": "a"}))),
        "unknown url": as_user(lambda c: c.get("/api/no-such-thing")),
    }


CASES = [
    "unauthenticated",
    "wrong scheme",
    "wrong method",
    "invalid field",
    "wrong type",
    "missing field",
    "unknown field",
    "bad json",
    "too large",
    "multipart",
    "no trailing slash",
    "unknown url",
]


def _error_text(response) -> str:
    assert response.status_code >= 400, response.content[:300]
    body = response.json()
    assert set(body["error"]) == {"code", "message", "details"}
    return body["error"]["message"]


@pytest.mark.parametrize("case", CASES)
def test_an_english_request_gets_no_chinese_in_the_error(user, case):
    message = _error_text(_bad_requests(user)[case]("en"))
    assert not HAN.search(message.replace("长", "")), message


@pytest.mark.parametrize("case", CASES)
def test_a_chinese_request_gets_no_english_sentence_in_the_error(user, case):
    message = _error_text(_bad_requests(user)[case]("zh-Hans"))
    assert HAN.search(message), message
    assert not ENGLISH_WORDS.search(UNTRANSLATED.sub("", message)), message


@pytest.mark.parametrize("header", ["zh-CN", "zh-CN,zh;q=0.9,en;q=0.8", "zh"])
def test_browser_chinese_headers_choose_simplified_chinese(anon_client, header):
    response = anon_client.get("/api/books/", HTTP_ACCEPT_LANGUAGE=header)
    assert HAN.search(response.json()["error"]["message"])


def test_without_accept_language_errors_are_english(anon_client):
    message = anon_client.get("/api/books/").json()["error"]["message"]
    assert message.startswith("Authentication credentials were not provided")


def test_the_response_says_its_language_and_varies_on_the_header(anon_client):
    response = anon_client.get("/api/books/", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response["Content-Language"] == "zh-hans"
    assert "Accept-Language" in response["Vary"]


def _app_errors(user) -> dict:
    """Return a name -> callable(language) sending a request that one app's service refuses."""
    client = APIClient()
    client.force_authenticate(user)
    name = user.username

    def send(method, path, body=None):
        def run(language):
            client.credentials(HTTP_ACCEPT_LANGUAGE=language)
            data = None if body is None else json.dumps(body)
            return getattr(client, method)(path, data, content_type="application/json")

        return run

    return {
        "activities: join a missing activity": send("post", "/api/activities/999999/join/", {}),
        "activities: a time range ending before it starts": send(
            "post",
            "/rag/search",
            {
                "semanticQuery": "kayak",
                "filters": {
                    "timeRange": {
                        "start": "2026-12-02T00:00:00+08:00",
                        "end": "2026-12-01T00:00:00+08:00",
                    }
                },
            },
        ),
        "writing: a missing book": send("get", "/api/books/999999/"),
        "writing: a chapter of a missing book": send(
            "post", "/api/chapters/", {"book": 999999, "title": "t", "blocks": ["a"]}
        ),
        "memory: an empty batch of messages": send(
            "post", f"/v1/users/{name}/messages", {"items": []}
        ),
        "memory: an item without content": send(
            "post",
            f"/v1/users/{name}/messages",
            {"items": [{"ts": "2026-11-25T10:00:00+08:00", "role": "user", "content": " "}]},
        ),
        "memory: a query vector of the wrong size": send(
            "post", "/v1/messages/semantic_search", {"query_embedding": [0.5, 0.5]}
        ),
        "agent: a webhook url with a password": send(
            "post", f"/v1/users/{name}/webhooks", {"url": "https://ann:pw@example.com/hook"}
        ),
        "platform: rotate a missing token": send("post", "/v1/tokens/999999/rotate", {}),
    }


APP_CASES = [
    "activities: join a missing activity",
    "activities: a time range ending before it starts",
    "writing: a missing book",
    "writing: a chapter of a missing book",
    "memory: an empty batch of messages",
    "memory: an item without content",
    "memory: a query vector of the wrong size",
    "agent: a webhook url with a password",
    "platform: rotate a missing token",
]


@pytest.mark.parametrize("case", APP_CASES)
def test_an_app_error_speaks_only_the_request_language(user, case):
    request = _app_errors(user)[case]
    english, chinese = _error_text(request("en")), _error_text(request("zh-Hans"))
    assert not HAN.search(english), english
    assert HAN.search(chinese), chinese
    assert not ENGLISH_WORDS.search(UNTRANSLATED.sub("", chinese)), chinese
