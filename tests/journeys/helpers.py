"""What several journeys do on the journey service: organise activities, chat with the agent."""

from __future__ import annotations

# A worker embeds each activity after its POST answered; a search finds it by meaning after.
INDEXED_WITHIN_SECONDS = 60


def organise(service, user: str, bodies: list[dict]) -> list[dict]:
    """Create the activities ``bodies`` as ``user``; return them once a worker indexed each."""
    created = []
    for body in bodies:
        response = service.post("/api/activities/", user, body)
        assert response.status_code == 201, response.text
        created.append(response.json())

    def indexed():
        rows = [service.get(f"/api/activities/{a['id']}/", user).json() for a in created]
        return rows if all(r["index_state"] == "indexed" for r in rows) else None

    return service.wait_until(indexed, INDEXED_WITHIN_SECONDS, what="activities indexed")


def say(service, user: str, message: str, **extra) -> dict:
    """Send one chat turn to the agent as ``user``; return the answer's JSON."""
    response = service.post("/api/agent/chat", user, {"message": message, **extra})
    assert response.status_code == 200, response.text
    return response.json()
