"""POST /rag/search when the embedding provider is down or slow: degraded at once."""

from __future__ import annotations

import threading

import pytest

pytestmark = pytest.mark.django_db

QUERY = {
    "semanticQuery": "想找个地方玩水",
    "filters": {"location": {"lat": 31.2304, "lng": 121.4737, "radiusInKm": 50}},
    "limit": 5,
}


def test_search_during_the_cool_down_skips_the_provider(
    api_client, demo_activities, failing_provider
):
    first = api_client.post("/rag/search", QUERY, format="json").json()["meta"]
    calls = failing_provider.calls
    second = api_client.post("/rag/search", QUERY, format="json").json()["meta"]
    assert first["degradedReason"] == "embedding_failed"
    assert second["degraded"] is True and second["degradedReason"] == "embedding_unavailable"
    assert failing_provider.calls == calls


def test_provider_slower_than_the_budget_answers_degraded(
    api_client, demo_activities, monkeypatch, settings
):
    from rag import embeddings

    real = embeddings.get_provider()
    release = threading.Event()

    class SlowProvider:
        name, model, dimensions, max_batch = "slow", real.model, real.dimensions, 64

        def embed(self, texts, role="passage"):
            release.wait(30)
            return real.embed(texts, role)

    monkeypatch.setattr(embeddings, "get_provider", lambda: SlowProvider())
    settings.SEARCH_TIME_BUDGET_SECONDS = 0.2
    try:
        response = api_client.post("/rag/search", QUERY, format="json")
    finally:
        release.set()
    assert response.status_code == 200
    meta = response.json()["meta"]
    assert meta["degraded"] is True and meta["degradedReason"] == "embedding_timeout"
    assert len(response.json()["results"]) == 5
