"""Helpers of the memory tests (imported by the test modules)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.utils import timezone

from memory import bm25

BASE_TS = datetime(2025, 3, 1, 8, 0, tzinfo=UTC)

# Counts of a 100-turn sample: "搬家" in 30 turns (common), "冰箱" in one (rare).
STATS = bm25.TermStats(
    total=100,
    mean_length=8.0,
    lexeme_rows={"搬家": 30, "冰箱": 1},
    terms={"搬家": "'搬家'", "冰箱": "'冰箱'"},
    term_rows={"'搬家'": 30, "'冰箱'": 1},
)


def ts(minutes: float) -> str:
    """Return an RFC 3339 timestamp ``minutes`` after the base time."""
    return (BASE_TS + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def join_and_like(client, activity_id):
    """Join the activity and rate it +1 through the API."""
    assert client.post(f"/api/activities/{activity_id}/join/").status_code in (200, 201)
    r = client.post(f"/api/activities/{activity_id}/feedback/", {"rating": 1}, format="json")
    assert r.status_code in (200, 201)


def create_activity(client, tag, capture):
    """Create (and embed, on commit) one activity through the API; return the response."""
    activity = {
        "title": f"{tag} 周六读书会",
        "description": f"{tag} 一起读《{tag}传》，喝茶聊天。",
        "type": "读书",
        "start_at": (timezone.now() + timedelta(days=4)).isoformat(),
        "location": {"lat": 31.23, "lng": 121.47},
        "max_participants": 10,
    }
    with capture(execute=True):
        created = client.post("/api/activities/", activity, format="json")
    assert created.status_code == 201
    return created
