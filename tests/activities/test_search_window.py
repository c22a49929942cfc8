"""The time window's few rows (activities.search_window.window_lacks_request): when none of the
rows a time phrase leaves is what the query asks for, the search ranks every joinable row by
closeness to the window instead of showing those few as the answer.

Three rows sit on Saturday (a run, pottery, a murder-mystery game) and one family outing on the
Saturday after. A fixed ``now`` (tests.conftest.FIXED_NOW, Wednesday 2026-11-25 10:00 Shanghai).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from activities.search import activities_search
from activities.search_window import window_lacks_request
from activities.understanding import read_query, user_zone

pytestmark = pytest.mark.real_model

SATURDAY = [
    ("周六上午公园慢跑", "运动", 28, 9),
    ("周六下午陶艺体验", "手工", 28, 15),
    ("周六晚上剧本杀", "桌游", 28, 19),
]
FAMILY = ("植物园亲子自然观察", "亲子", 5, 10)  # the Saturday after (December 5)


def now():
    from tests.conftest import FIXED_NOW

    return FIXED_NOW


def at(day: int, hour: int) -> datetime:
    month = 12 if day < 25 else 11
    return now().replace(month=month, day=day, hour=hour)


@pytest.fixture
def saturday(make_activity, django_capture_on_commit_callbacks):
    """Return the activities: Saturday's three and the family outing a week later."""
    made = {}
    with django_capture_on_commit_callbacks(execute=True):
        for title, kind, day, hour in [*SATURDAY, FAMILY]:
            made[title] = make_activity(
                title=title, description=title, type=kind, tags=[kind], start_at=at(day, hour)
            )
    return made


def test_a_window_holding_none_of_the_kind_asked_for_is_widened(saturday):
    outcome = activities_search(semantic_query="周六有什么亲子活动", limit=10, now=now())

    assert outcome["meta"]["understood"]["time"]["applied"] == "rank"
    first = outcome["results"][0]
    assert first["title"] == FAMILY[0]
    assert "没有合适的" in first["matchReason"]


def test_a_window_holding_what_is_asked_for_keeps_its_few_rows(saturday):
    outcome = activities_search(semantic_query="周六玩剧本杀", limit=10, now=now())

    assert outcome["meta"]["path"] == "hard_filter_small"
    assert outcome["results"][0]["title"] == "周六晚上剧本杀"
    assert FAMILY[0] not in [r["title"] for r in outcome["results"]]


@pytest.mark.parametrize("query", ["周六有什么活动", "周六不要亲子的"])
def test_a_query_asking_for_no_kind_or_refusing_it_leaves_the_window_alone(saturday, query):
    understood = read_query(query, now=now(), tz=user_zone(None))
    rows = [saturday[title] for title, *_ in SATURDAY]

    assert window_lacks_request(rows, understood, understood.rest) is False
