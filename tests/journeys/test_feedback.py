"""The feedback journey over real HTTP: chat, rate what the reply recommended, list, see it change.

One embedded PostgreSQL of its own and one ``runserver`` process (``tests.platform.live_service``;
tasks run inline, so an activity is embedded before its POST answers). Bob organises activities;
Alice asks the agent for them in Chinese and in English, rates the first recommendation -1, finds
the rating in her list (named by the activity's title) and no longer gets it recommended.
"""

from __future__ import annotations

import shutil
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.platform.live_service import ServiceDatabase, WebServer

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
def service():
    """A web server on a migrated database of its own, with Bob's activities."""
    from config import embedded_db

    root = Path(tempfile.mkdtemp(prefix="semmem-feedback-"))
    data_dir = root / "pgdata"
    try:
        web = WebServer(
            ServiceDatabase(data_dir).create(), env={"SEARCH_TIME_BUDGET_SECONDS": "60"}
        )
        try:
            web.start()
            start = datetime.now(UTC) + timedelta(days=5)
            for title, description, kind in ACTIVITIES:
                body = {
                    "title": title,
                    "description": description,
                    "type": kind,
                    "start_at": start.isoformat(),
                    "location": {"lat": 31.2304, "lng": 121.4737},
                    "location_name": "人民广场",
                    "max_participants": 8,
                }
                response = web.post("/api/activities/", "bob", body)
                assert response.status_code == 201, response.text
            yield web
        finally:
            web.stop()
    finally:
        embedded_db.stop(data_dir)
        shutil.rmtree(root, ignore_errors=True)


def recommended(service, lang: str) -> tuple[dict, list[str]]:
    response = service.post("/api/agent/chat", "alice", {"message": ASK[lang]})
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
        "alice",
        {"target_type": "activity", "target_id": activities[0], "rating": -1, "comment": "不适合"},
    )
    assert rated.status_code == 201, rated.text
    listing = service.get("/api/feedback/", "alice").json()["items"]
    mine = [i for i in listing if i["target_id"] == activities[0]]
    assert mine and mine[0]["rating"] == -1
    assert mine[0]["target_label"] in [title for title, _, _ in ACTIVITIES]
    assert all(
        i["target_id"] != activities[0]
        for i in service.get("/api/feedback/", "bob").json()["items"]
    )
    _, again = recommended(service, lang)
    assert activities[0] not in again


def test_a_rating_of_the_reply_itself_is_listed_with_its_words(service):
    body, _ = recommended(service, "zh")
    (message,) = [i["id"] for i in body["items"] if i["type"] == "message"]
    rated = service.post(
        "/api/feedback/", "alice", {"target_type": "message", "target_id": message, "rating": 1}
    )
    assert rated.status_code == 201, rated.text
    assert body["reply"].startswith(rated.json()["target_label"])
