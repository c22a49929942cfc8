"""POST /api/writing/search with the embedding provider down: full-text hits, ``degraded``."""

from __future__ import annotations

import pytest

from writing.models import ChildChunk

pytestmark = pytest.mark.django_db


def test_children_get_segmented_search_text_when_chunked(make_chapter, blocks, small_chunks):
    make_chapter(blocks)
    texts = list(ChildChunk.objects.values_list("search_text", flat=True))
    assert texts and all(texts)
    assert any("花果山" in text.split() for text in texts)


def test_search_answers_from_full_text_when_the_provider_is_down(
    api_client, make_chapter, blocks, small_chunks, provider_outage
):
    make_chapter(blocks)
    provider_outage()
    response = api_client.post("/api/writing/search", {"query": "花果山的猴子"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["degraded"] is True and body["degraded_reason"] == "embedding_failed"
    assert body["results"], body
    assert "花果山" in body["results"][0]["text"]


def test_search_is_not_degraded_when_the_provider_works(
    api_client, make_chapter, blocks, small_chunks
):
    make_chapter(blocks)
    body = api_client.post("/api/writing/search", {"query": "花果山"}, format="json").json()
    assert body["degraded"] is False and body["degraded_reason"] is None
