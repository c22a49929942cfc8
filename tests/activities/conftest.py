"""Fixtures of the activities tests.

- ``demo_items``: the demo fixture items (``activities/fixtures/demo_activities.json``).
- ``demo_activities``: every demo activity saved and indexed (the stand-in's vectors, or the real
  model's in a ``real_model`` test). The first load of a process, per embedding model and day,
  goes through ``activities.demo.load_demo_activities``; later ones insert the same rows again
  (``_DEMO_ROWS``). Returns ``{title: Activity}``.
- ``make_activity``: a factory for one activity through the service (not yet indexed unless the
  test runs the on-commit callbacks).
- ``counting_provider``: wraps the real embedding provider and counts ``embed`` calls.
- ``failing_provider``: a provider whose ``embed`` raises ``ProviderError`` (a hosted API down).
- ``vector_search_k``: the ``k`` of every vector search the activities search runs.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

FIXTURES = Path(__file__).resolve().parents[2] / "activities" / "fixtures"
SHANGHAI = (31.2304, 121.4737)  # People's Square


@pytest.fixture(scope="session")
def demo_items() -> list[dict]:
    """The demo fixture items."""
    return json.loads((FIXTURES / "demo_activities.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def eval_queries() -> list[dict]:
    """The labelled queries: ``[{query, relevant: {title: grade}}]``."""
    return json.loads((FIXTURES / "eval_queries.json").read_text(encoding="utf-8"))


@pytest.fixture
def demo_user(make_user):
    """The creator of the demo activities."""
    return make_user("demo")


# The demo rows as the loader indexed them, by (embedding model, load day): the columns of each
# row but its id, creator and timestamps. Loading segments every text with jieba and embeds it
# (about 0.5 CPU-second, in each of about 100 tests); the result depends only on the model and
# the day (``activities.demo.demo_start``), so each process loads once per key and copies after.
_DEMO_ROWS: dict[tuple[str, object], list[dict]] = {}
_DEMO_FRESH = {"id", "creator_id", "created_at", "updated_at", "indexed_at", "index_state_at"}


@pytest.fixture
def demo_activities(db, demo_items, demo_user):
    """Every demo activity, saved and indexed; ``{title: Activity}``."""
    from activities.demo import load_demo_activities
    from activities.models import Activity
    from rag.embeddings import current_model

    key = (current_model(), timezone.localdate())
    if key in _DEMO_ROWS:
        now = timezone.now()
        rows = [
            Activity(**values, creator=demo_user, indexed_at=now, index_state_at=now)
            for values in _DEMO_ROWS[key]
        ]
        created = Activity.objects.bulk_create(rows)
    else:
        created, totals = load_demo_activities(demo_items, creator=demo_user)
        assert totals.errors == 0
        columns = [
            f.attname
            for f in Activity._meta.concrete_fields
            if f.attname not in _DEMO_FRESH and not f.generated
        ]
        _DEMO_ROWS[key] = list(
            Activity.objects.filter(pk__in=[c.pk for c in created]).order_by("pk").values(*columns)
        )
    return {a.title: a for a in Activity.objects.filter(pk__in=[c.pk for c in created])}


@pytest.fixture
def make_activity(demo_user):
    """Return a factory creating an activity through ``activity_create`` (default: joinable)."""
    from activities.services import activity_create

    def factory(creator=None, **fields):
        values = {
            "title": "周六下午桌游局",
            "description": "几个人一起玩卡坦岛，新手友好。",
            "type": "桌游",
            "tags": ["桌游"],
            "start_at": timezone.now() + timedelta(days=3),
            "lat": SHANGHAI[0],
            "lng": SHANGHAI[1],
            "location_name": "人民广场",
            "max_participants": 6,
            "current_participants": 0,
        }
        values.update(fields)
        return activity_create(creator=creator or demo_user, **values)

    return factory


class CountingProvider:
    """Delegate to a real provider, counting calls and texts."""

    def __init__(self, inner):
        self.inner = inner
        self.model = inner.model
        self.dimensions = inner.dimensions
        self.max_batch = inner.max_batch
        self.local = getattr(inner, "local", False)
        self.calls = 0
        self.texts: list[str] = []

    def embed(self, texts, role="passage"):
        self.calls += 1
        self.texts.extend(texts)
        return self.inner.embed(texts, role)


class FailingProvider:
    """A provider that is down: every ``embed`` raises ``ProviderError``."""

    def __init__(self, inner, *, retryable=True):
        self.model = inner.model
        self.dimensions = inner.dimensions
        self.max_batch = inner.max_batch
        self.calls = 0
        self.retryable = retryable

    def embed(self, texts, role="passage"):
        from rag.embeddings import ProviderError

        self.calls += 1
        raise ProviderError(
            "HTTP 503: upstream down", status=503, provider="fake", retryable=self.retryable
        )


@pytest.fixture
def counting_provider(monkeypatch):
    """Count calls to the embedding provider (``.calls``, ``.texts``)."""
    from rag import embeddings

    counter = CountingProvider(embeddings.get_provider())
    monkeypatch.setattr(embeddings, "get_provider", lambda: counter)
    return counter


@pytest.fixture
def failing_provider(monkeypatch):
    """Make the embedding provider fail with ``ProviderError`` (a hosted API that is down)."""
    from rag import embeddings

    failing = FailingProvider(embeddings.get_provider())
    monkeypatch.setattr(embeddings, "get_provider", lambda: failing)
    return failing


@pytest.fixture
def vector_search_k(monkeypatch) -> list[int]:
    """Record the ``k`` (rows asked) of each vector search ``activities_search`` runs."""
    from activities import search

    asked: list[int] = []
    real = search.vector_search

    def spy(queryset, vector, *, k, **kwargs):
        asked.append(k)
        return real(queryset, vector, k=k, **kwargs)

    monkeypatch.setattr(search, "vector_search", spy)
    return asked
