"""The activities app's warm-up hook (activities/apps.py)."""

from __future__ import annotations

import pytest

from activities.apps import warm_search
from activities.models import Activity
from activities.search_relevance import INTENT_OFF, INTENT_ON
from rag import embeddings, intent


@pytest.mark.django_db
def test_warm_up_embeds_the_off_topic_gate_examples_on_an_empty_catalogue(monkeypatch):
    assert not Activity.objects.exists()
    intent.reset()
    warm_search()

    def no_embedding(*args, **kwargs):
        raise AssertionError("the gate's examples were embedded after the warm-up")

    monkeypatch.setattr(embeddings, "embed_texts", no_embedding)
    assert len(intent.example_vectors(INTENT_ON)) == len(intent.example_texts(INTENT_ON))
    assert len(intent.example_vectors(INTENT_OFF)) == len(intent.example_texts(INTENT_OFF))
