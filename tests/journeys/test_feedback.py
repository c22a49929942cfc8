"""The feedback journey over real HTTP: chat, rate what the reply recommended, list, see it change.

On the journey service (``manage.py serve``, tests/journeys/conftest.py: a worker embeds an
activity after its POST answered, so the journey waits until each is indexed). Frank organises
activities; Erin asks the agent for them in Chinese and in English, rates the first
recommendation -1, finds the rating in her list (named by the activity's title) and no longer
gets it recommended.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.journeys.helpers import organise

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

ACTIVITIES = [
    ("周六下午桌游局", "几个人一起玩卡坦岛，新手友好。", "桌游"),
    ("周日狼人杀桌游夜", "十二人狼人杀，有主持人带新手。", "桌游"),
    ("Board game night", "Catan and Ticket to Ride for beginners, snacks included.", "桌游"),
    ("Weekend board games cafe", "Play modern board games with new friends.", "桌游"),
]
ASK = {"zh": "推荐一些桌游活动", "en": "recommend some board game activities"}


@pytest.fixture(scope="module")
def service(journey_service):
    """The journey service with Frank's activities, each embedded by a worker."""
    start = datetime.now(UTC) + timedelta(days=5)
    bodies = [
        {
            "title": title,
            "description": description,
            "type": kind,
            "start_at": start.isoformat(),
            "location": {"lat": 31.2304, "lng": 121.4737},
            "location_name": "人民广场",
            "max_participants": 8,
        }
        for title, description, kind in ACTIVITIES
    ]
    organise(journey_service, "frank", bodies)
    return journey_service


def recommended(service, lang: str) -> tuple[dict, list[str]]:
    response = service.post("/api/agent/chat", "erin", {"message": ASK[lang]})
    assert response.status_code == 200, response.text
    body = response.json()
    return body, [i["id"] for i in body["items"] if i["type"] == "activity"]


@pytest.mark.parametrize("lang", list(ASK))
def test_a_rating_of_a_recommendation_is_listed_and_changes_the_next_one(service, lang):
    body, activities = recommended(service, lang)
    assert body["intent"] == "EXPLORE", body
    assert activities, body
    assert any(i["type"] == "message" for i in body["items"])
    rated = service.post(
        "/api/feedback/",
        "erin",
        {"target_type": "activity", "target_id": activities[0], "rating": -1, "comment": "不适合"},
    )
    assert rated.status_code == 201, rated.text
    listing = service.get("/api/feedback/", "erin").json()["items"]
    mine = [i for i in listing if i["target_id"] == activities[0]]
    assert mine and mine[0]["rating"] == -1
    assert mine[0]["target_label"] in [title for title, _, _ in ACTIVITIES]
    assert all(
        i["target_id"] != activities[0]
        for i in service.get("/api/feedback/", "frank").json()["items"]
    )
    _, again = recommended(service, lang)
    assert activities[0] not in again


def test_a_rating_of_the_reply_itself_is_listed_with_its_words(service):
    body, _ = recommended(service, "zh")
    (message,) = [i["id"] for i in body["items"] if i["type"] == "message"]
    rated = service.post(
        "/api/feedback/", "erin", {"target_type": "message", "target_id": message, "rating": 1}
    )
    assert rated.status_code == 201, rated.text
    assert body["reply"].startswith(rated.json()["target_label"])
