"""The learned intent gate read with the real model (activities/fixtures/intent_learned.json)."""

from __future__ import annotations

import pytest

from activities.search_relevance import INTENT_LEARNED
from rag import intent
from rag.embeddings import embed_texts

# Read by meaning: the real model, whose weights the fixture holds (docs/DEVELOPING.md).
pytestmark = [pytest.mark.django_db, pytest.mark.real_model]


@pytest.mark.parametrize("query", ["how do I renew my driving licence", "医保卡丢了在哪个窗口补办"])
def test_a_request_for_paperwork_reads_as_one_for_something_else(query):
    intent.reset()
    [vector] = embed_texts([query], role="query")
    assert intent.learned_score(vector, INTENT_LEARNED) > 0


@pytest.mark.parametrize("query", ["周末带孩子去哪玩", "any board game meetups this weekend"])
def test_a_request_for_something_to_do_does_not(query):
    intent.reset()
    [vector] = embed_texts([query], role="query")
    assert intent.learned_score(vector, INTENT_LEARNED) < 0


def test_another_model_falls_back_to_the_margin_alone(monkeypatch):
    # The fixture holds weights for the model it was fitted with only.
    [vector] = embed_texts(["how do I renew my driving licence"], role="query")
    monkeypatch.setattr(intent, "model_key", lambda: "hosted:another-model@384")
    intent.reset()
    assert intent.learned_score(vector, INTENT_LEARNED) is None
