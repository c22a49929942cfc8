"""Semantic and hybrid search with the embedding provider down: lexical hits, ``degraded``."""

from __future__ import annotations

import pytest

SEM = "/v1/messages/semantic_search"
HYB = "/v1/messages/hybrid_search"

pytestmark = pytest.mark.django_db


def _ids(body):
    return [i["message_id"] for i in body["items"]]


def test_semantic_search_with_text_answers_lexical_hits_when_the_provider_is_down(
    api_client, user, plain_chat, provider_outage
):
    provider_outage()
    response = api_client.post(SEM, {"user_id": user.username, "query_text": "西湖"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["degraded"] is True and body["degraded_reason"] == "embedding_failed"
    assert set(_ids(body)) == {"a3", "a4"}
    assert all(i["semantic_score"] is None and i["lexical_score"] > 0 for i in body["items"])


def test_semantic_search_with_an_embedding_is_not_degraded_by_an_outage(
    api_client, user, plain_chat, provider_outage
):
    asked = provider_outage()
    response = api_client.post(
        SEM, {"user_id": user.username, "query_embedding": [0.1] * 384}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["degraded"] is False
    # The relevance cut's reference sample is asked for (once per model, within the search
    # budget; its failure only skips the cut); the query never is.
    from rag.background import reference_texts

    assert [text for text in asked if text not in set(reference_texts())] == []


def test_hybrid_search_falls_back_to_the_lexical_list_when_the_provider_is_down(
    api_client, user, plain_chat, provider_outage
):
    provider_outage()
    response = api_client.post(HYB, {"user_id": user.username, "query_text": "火锅"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["degraded"] is True
    assert set(_ids(body)) == {"a1", "a6"}
    assert all(i["semantic_rank"] is None and i["lexical_rank"] for i in body["items"])


def test_second_search_during_the_cool_down_does_not_call_the_provider(
    api_client, user, plain_chat, provider_outage
):
    asked = provider_outage()
    api_client.post(HYB, {"user_id": user.username, "query_text": "火锅"}, format="json")
    calls = len(asked)
    body = api_client.post(
        HYB, {"user_id": user.username, "query_text": "西湖"}, format="json"
    ).json()
    assert body["degraded_reason"] == "embedding_unavailable"
    assert len(asked) == calls


def test_hybrid_search_is_not_degraded_when_the_provider_works(api_client, user, chat):
    body = api_client.post(
        HYB, {"user_id": user.username, "query_text": "火锅"}, format="json"
    ).json()
    assert body["degraded"] is False and body["degraded_reason"] is None
    assert any(i["semantic_rank"] for i in body["items"])
