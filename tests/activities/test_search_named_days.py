"""The activity search applies a named day (a holiday of the user's country) and an informal
day phrase like any other time phrase: it narrows to the window, and a window with nothing in
it answers the closest rows outside it, each saying so.

A fixed ``now`` (tests.conftest.FIXED_NOW, Wednesday 2026-11-25 10:00 Shanghai: Tuesday
2026-11-24 18:00 in Seattle); rows are made on fixed days.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime

import pytest

from activities.search import activities_search

SEATTLE = zoneinfo.ZoneInfo("America/Los_Angeles")
pytestmark = pytest.mark.real_model

HIKES = [
    # Thanksgiving in the US is Thursday 26 November 2026; the Saturday after is the 28th.
    ("Thanksgiving morning hike at Discovery Park", datetime(2026, 11, 26, 9, tzinfo=SEATTLE)),
    ("Rattlesnake Ledge hike, carpool", datetime(2026, 11, 27, 9, tzinfo=SEATTLE)),
    ("Saturday night salsa social", datetime(2026, 11, 28, 20, tzinfo=SEATTLE)),
    ("Saturday morning trail run", datetime(2026, 11, 28, 8, tzinfo=SEATTLE)),
]


@pytest.fixture
def seattle_rows(make_activity, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for title, start in HIKES:
            make_activity(
                title=title, description=title, type="outdoors", tags=["outdoors"], start_at=start
            )


def search(query: str) -> dict:
    from tests.conftest import FIXED_NOW

    return activities_search(
        semantic_query=query, limit=10, time_zone="America/Los_Angeles", now=FIXED_NOW
    )


@pytest.mark.parametrize(
    ("query", "day", "first_hour"),
    [
        ("a hike on thanksgiving day", 26, 0),
        ("day after thanksgiving, a hike", 27, 0),
        ("sat nite, something fun", 28, 18),
    ],
)
def test_a_named_or_informal_day_narrows_to_its_window(seattle_rows, query, day, first_hour):
    outcome = search(query)
    time = outcome["meta"]["understood"]["time"]
    assert time is not None and time["applied"] in ("filter", "rank"), outcome["meta"]
    start = datetime.fromisoformat(time["start"]).astimezone(SEATTLE)
    assert (start.day, start.hour) == (day, first_hour)
    assert outcome["results"]
    for result in outcome["results"]:
        begins = datetime.fromisoformat(result["startAt"]).astimezone(SEATTLE)
        inside = begins.day == day and begins.hour >= first_hour
        assert inside or "nothing fits" in result["matchReason"], result


def test_a_named_day_with_nothing_in_it_answers_the_closest_marked(seattle_rows):
    # Nothing starts on Christmas Day: the closest rows come, each saying so.
    outcome = search("a hike on christmas day")
    time = outcome["meta"]["understood"]["time"]
    # The phrase as shown: without the preposition the reader removed with it.
    assert time["phrase"] == "christmas day" and time["applied"] == "rank", outcome["meta"]
    assert outcome["results"]
    assert all('nothing fits "christmas day"' in r["matchReason"] for r in outcome["results"])


def test_a_named_day_just_over_answers_the_closest_marked_not_next_years(seattle_rows):
    # Asked on Friday 27 November (Seattle), Thanksgiving was yesterday: that day, over, is the
    # one meant (issue 30, session 51); nothing can start in it, so each row says so.
    outcome = activities_search(
        semantic_query="a hike on thanksgiving day",
        limit=10,
        time_zone="America/Los_Angeles",
        now=datetime(2026, 11, 27, 8, tzinfo=SEATTLE),
    )
    time = outcome["meta"]["understood"]["time"]
    start = datetime.fromisoformat(time["start"]).astimezone(SEATTLE)
    assert (start.date().isoformat(), time["applied"]) == ("2026-11-26", "rank"), time
    assert outcome["results"]
    assert all("nothing fits" in r["matchReason"] for r in outcome["results"])
