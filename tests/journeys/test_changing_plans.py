"""A chat user who changes plans, over real HTTP: joins, backs out, stops a search for company.

On the journey service (``manage.py serve``, tests/journeys/conftest.py; offline agent, local
model). Tara organises two workshops days ahead of the server's clock. Sami tells the agent
a name and a diet, asks what it knows of them, joins both workshops by title, and says
"sorry, can't make it" right after the second join: that one is left, the first is kept. Sami
then asks for a badminton buddy and says "never mind, stop it": the search for company is
closed, no activity is touched. Each seam was found broken on ``make run`` (session 50).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.journeys.helpers import organise, say

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

WORKSHOPS = ("Lantern making for grown-ups", "Sourdough starter clinic")


@pytest.fixture(scope="module")
def workshops(journey_service):
    """Tara's two workshops, four and five days after the server's now, indexed."""
    start = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(days=4)
    bodies = [
        {
            "title": title,
            "description": "A small hands-on workshop, all materials provided.",
            "type": "手工",
            "start_at": (start + timedelta(days=offset)).isoformat(),
            "location": {"lat": 31.2304, "lng": 121.4737},
            "location_name": "People's Square studio",
            "max_participants": 8,
        }
        for offset, title in enumerate(WORKSHOPS)
    ]
    return organise(journey_service, "tara", bodies)


def taken(service, workshops) -> list[int]:
    """Return the places taken in each workshop (only Sami joins them)."""
    return [
        service.get(f"/api/activities/{w['id']}/", "tara").json()["current_participants"]
        for w in workshops
    ]


def test_a_user_who_changes_plans_backs_out_of_the_last_join_and_stops_a_search(service, workshops):
    chat = say(service, "sami", "hi, I'm Sami and I'm vegetarian")["chat_id"]
    known = say(service, "sami", "what do you know about me?", chat_id=chat)
    for title in WORKSHOPS:
        joined = say(service, "sami", f"sign me up for {title}", chat_id=chat)
        assert [c["name"] for c in joined["tool_calls"]][-1] == "joinActivity", joined["reply"]
    backed_out = say(service, "sami", "sorry, can't make it", chat_id=chat)

    assert "Sami" in known["reply"] and "vegetarian" in known["reply"], known["reply"]
    assert [c["name"] for c in backed_out["tool_calls"]] == ["getActivity", "cancelActivity"]
    assert backed_out["reply"] == f'You left "{WORKSHOPS[1]}".', backed_out["reply"]
    assert taken(service, workshops) == [1, 0]

    asked = say(service, "sami", "find me a badminton buddy", chat_id=chat)
    stopped = say(service, "sami", "never mind, stop it", chat_id=chat)

    assert asked["intent"] == "PARTNER"
    assert [c["name"] for c in stopped["tool_calls"]] == [
        "getPartnerIntents",
        "closePartnerIntent",
    ]
    assert taken(service, workshops) == [1, 0]
