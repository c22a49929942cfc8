"""Fixtures of the agent tests.

- ``activities_loaded``: the first ``DEMO_COUNT`` demo activities
  (``activities/fixtures/demo_activities.json``, a subset keeps the suite fast), saved with their
  real embeddings by ``activities.demo.load_demo_activities``; returns ``{title: Activity}``.
- ``say``: ``say(client, message, **body) -> dict`` posts one turn to ``POST /api/agent/chat``
  and runs the on-commit callbacks (so the stored turns are embedded, as in production);
  asserts a 200 and returns the JSON body.
- ``fake_llm``: a running ``FakeOpenAIServer`` with ``settings.RAG_LLM`` pointed at it (the
  cached provider is reset on entry and exit); script turns with ``fake_llm.chat_script``.
- ``SHANGHAI``: a location near People's Square, where most demo activities are.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "activities" / "fixtures"
SHANGHAI = {"lat": 31.2304, "lng": 121.4737}
DEMO_COUNT = 24


@pytest.fixture
def activities_loaded(db, make_user):
    """Every demo activity, saved and embedded; ``{title: Activity}``."""
    from activities.demo import load_demo_activities

    items = json.loads((FIXTURES / "demo_activities.json").read_text(encoding="utf-8"))
    created, totals = load_demo_activities(items[:DEMO_COUNT], creator=make_user("demo"))
    assert totals.errors == 0
    return {a.title: a for a in created}


@pytest.fixture
def say(django_capture_on_commit_callbacks):
    """Return ``say(client, message, **body)``: one chat turn through the API, as JSON."""

    def _say(client, message, *, status=200, **body):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/api/agent/chat", {"message": message, **body}, format="json")
        assert response.status_code == status, response.content.decode()
        return response.json()

    return _say


@pytest.fixture
def make_activity_for(db):
    """Return ``make_activity_for(user, **fields)``: an active activity created by ``user``."""
    from datetime import timedelta

    from django.utils import timezone

    from activities.services import activity_create

    def factory(creator, **fields):
        values = {
            "title": "周六下午桌游局",
            "description": "几个人一起玩卡坦岛，新手友好。",
            "type": "桌游",
            "start_at": timezone.now() + timedelta(days=3),
            "lat": SHANGHAI["lat"],
            "lng": SHANGHAI["lng"],
            "location_name": "人民广场",
            "max_participants": 6,
        }
        values.update(fields)
        return activity_create(creator=creator, **values)

    return factory
