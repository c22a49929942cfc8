"""Helpers of the memory tests (imported by the test modules)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

BASE_TS = datetime(2025, 3, 1, 8, 0, tzinfo=UTC)


def ts(minutes: float) -> str:
    """Return an RFC 3339 timestamp ``minutes`` after the base time."""
    return (BASE_TS + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def join_and_like(client, activity_id):
    """Join the activity and rate it +1 through the API."""
    assert client.post(f"/api/activities/{activity_id}/join/").status_code in (200, 201)
    r = client.post(f"/api/activities/{activity_id}/feedback/", {"rating": 1}, format="json")
    assert r.status_code in (200, 201)
