"""Hybrid search's second dense list: the question said without the speaker it names."""

from __future__ import annotations

import pytest

from memory import search_hybrid
from memory.search_semantic import query_vector
from rag import embeddings
from rag.providers.embedding import ProviderError
from tests.memory.memory_helpers import ts

# The lists are ranked by meaning, so these tests need the real model (docs/DEVELOPING.md).
pytestmark = [pytest.mark.django_db, pytest.mark.real_model]

HYB = "/v1/messages/hybrid_search"
# Turns as LoCoMo's transcripts write them: the content begins with the speaker's name.
TURNS = [
    ("Caroline", "Caroline: I started volunteering at the animal shelter last month."),
    ("Melanie", "Melanie: I painted a sunset over the lake yesterday."),
    ("Caroline", "Caroline: My favourite book is about a girl who becomes a scientist."),
    ("Melanie", "Melanie: We took the kids camping in the mountains last weekend."),
    ("Caroline", "Caroline: I am saving money to adopt a child next year."),
    ("Melanie", "Melanie: My daughter loves the pottery class we joined."),
]
NAMED = "Where does Caroline volunteer?"
UNNAMED = "Where does they volunteer?"


@pytest.fixture
def people(api_client, user, write):
    """A chat between Caroline and Melanie, each turn with its speaker, embedded."""
    items = [
        {
            "message_id": f"p{i}",
            "ts": ts(i),
            "role": "user",
            "speaker": speaker,
            "content": content,
            "chat_id": "people",
        }
        for i, (speaker, content) in enumerate(TURNS)
    ]
    write(api_client, user.username, items, status=201)
    return items


@pytest.fixture
def asked(monkeypatch, cold_lru):
    """Return the texts the embedding provider is asked for from now on (it still answers)."""
    provider = embeddings.get_provider()
    texts: list[str] = []
    real_embed = provider.embed

    def embed(batch, role="passage"):
        texts.extend(batch)
        return real_embed(batch, role)

    monkeypatch.setattr(provider, "embed", embed)
    return texts


def _search(client, user, query):
    response = client.post(HYB, {"user_id": user.username, "query_text": query}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_question_naming_a_stored_speaker_embeds_it_said_as_they(api_client, user, people, asked):
    _search(api_client, user, NAMED)
    assert UNNAMED in asked


def test_a_question_naming_no_speaker_asks_the_model_once(api_client, user, people, asked):
    from rag.background import reference_texts

    _search(api_client, user, "Who went camping in the mountains?")
    # The relevance cut's reference sample may be embedded too (once per model).
    assert [t for t in asked if t not in set(reference_texts())] == [
        "Who went camping in the mountains?"
    ]


def test_a_failed_second_embedding_still_answers_with_the_other_lists(
    api_client, user, people, monkeypatch, cold_lru
):
    provider = embeddings.get_provider()
    real_embed = provider.embed
    failed = []

    def embed(batch, role="passage"):
        if UNNAMED in batch:
            failed.append(batch)
            raise ProviderError("down: connection refused", provider="down", retryable=True)
        return real_embed(batch, role)

    monkeypatch.setattr(provider, "embed", embed)
    body = _search(api_client, user, NAMED)
    assert failed
    assert body["degraded"] is False
    assert "p0" in [i["message_id"] for i in body["items"]]
    assert any(i["semantic_rank"] for i in body["items"])


def test_an_off_topic_question_naming_a_speaker_fuses_no_semantic_list(user, people, monkeypatch):
    # The relevance cut finds this question off-topic for the chat (the real model's judgement).
    question = "Caroline 今天股票怎么样"
    vector = query_vector(question, None)

    def answer():
        hits = search_hybrid.hybrid_search(
            user=user, query_text=question, flt={}, top_k=5, vector=vector
        )
        return [(h.row.message_id, h.score) for h in hits]

    found = answer()
    monkeypatch.setattr(search_hybrid, "unnamed_list", lambda **kwargs: [])
    # The same answer as without the unnamed list: Caroline's turns, which name her literally
    # (and their neighbour turns), and no turn of a dense list.
    assert found == answer()
