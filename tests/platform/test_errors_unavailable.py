"""Faults answer 503 UNAVAILABLE, never 500: the database down, a provider that cannot degrade."""

from __future__ import annotations

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import InterfaceError, OperationalError
from django.test import Client

pytestmark = pytest.mark.django_db


def assert_unavailable(response) -> None:
    """Assert a 503 in the one error shape with code UNAVAILABLE and a Retry-After."""
    assert response.status_code == 503, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "UNAVAILABLE"
    assert int(response["Retry-After"]) > 0


@pytest.fixture
def lenient_client():
    """A plain test client that answers with the response instead of re-raising errors."""
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_database_error_in_an_api_view_answers_503(api_client, monkeypatch, error):
    from activities import selectors

    def down(**kwargs):
        raise error("connection to server failed: Connection refused")

    monkeypatch.setattr(selectors, "activity_list", down)
    assert_unavailable(api_client.get("/api/activities/"))


@pytest.mark.parametrize("debug", [False, True])
def test_database_error_raised_by_middleware_answers_503_on_api_paths(
    lenient_client, monkeypatch, settings, debug
):
    settings.DEBUG = debug

    def down(self, request):
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr(SessionMiddleware, "process_request", down)
    assert_unavailable(lenient_client.get("/v1/users/alice/messages"))


def test_database_error_on_a_page_answers_a_plain_503_page(lenient_client, monkeypatch):
    def down(self, request):
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr(SessionMiddleware, "process_request", down)
    response = lenient_client.get("/admin/login/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert b"unavailable" in response.content


def test_provider_error_where_nothing_can_degrade_answers_503(api_client, monkeypatch):
    from activities import views
    from rag.providers.embedding import ProviderError

    def down(**kwargs):
        raise ProviderError("openai: HTTP 503", provider="openai", retryable=True)

    monkeypatch.setattr(views, "activities_search", down)
    response = api_client.post("/rag/search", {"semanticQuery": "x"}, format="json")
    assert_unavailable(response)
    assert response.json()["error"]["details"] == {"provider": "openai"}
