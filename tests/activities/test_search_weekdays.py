"""A time phrase answers the same kind of list whatever day of the week the search runs.

The demo is loaded on each weekday in turn (the clock moved there first), so the rows a phrase
like 周末 narrows to differ from day to day: sometimes a few, sometimes none close to the query.
Whatever the day, "周末放松一下" / "something chill this weekend" finds the restful rows of the
weekend (on a Thursday, the quiet Saturday reading night), or, when the weekend has none left,
the closest restful ones after it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from activities.demo import load_demo_activities
from activities.models import Activity
from activities.search import activities_search
from tests.conftest import FIXED_NOW

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

WEEKDAYS = range(7)  # days after FIXED_NOW (a Wednesday): Wednesday ... Tuesday


@pytest.fixture
def demo_on(clock, demo_items, demo_user):
    """Return a loader: move the clock ``days`` after FIXED_NOW, then load the demo there."""

    def load(days: int):
        clock.move_to(FIXED_NOW + timedelta(days=days))
        load_demo_activities(demo_items, creator=demo_user)

    return load


def quiet_rows(start: str, end: str) -> set[int]:
    """Return the ids of the restful (vibe 安静) demo rows starting in ``[start, end)``."""
    rows = Activity.objects.filter(start_at__gte=start, start_at__lt=end)
    return {a.pk for a in rows if "安静" in (a.vibes or ())}


@pytest.mark.parametrize("days", WEEKDAYS)
@pytest.mark.parametrize(
    ("query", "phrase"),
    [("周末放松一下", "「周末」没有合适的"), ("something chill this weekend", "")],
)
def test_a_weekend_request_answers_with_the_restful_rows_on_every_weekday(
    demo_on, days, query, phrase
):
    demo_on(days)
    outcome = activities_search(semantic_query=query, limit=10)
    time = outcome["meta"]["understood"]["time"]
    found = [int(r["id"]) for r in outcome["results"]]
    quiet = quiet_rows(time["start"], time["end"])

    assert found, (query, outcome["meta"]["reason"])
    if quiet:
        # The quiet reading night (Thursday's demo puts 上海图书馆东馆夜读自习 on Saturday evening;
        # other days put another restful row in the weekend): every one of them is found.
        assert quiet <= set(found), (query, [r["title"] for r in outcome["results"]])
    else:
        # Nothing restful left this weekend (the search runs on it): the closest restful rows
        # after it come first, saying the weekend had none.
        after = quiet_rows(time["end"], "9999-12-31T00:00:00+00:00")
        assert found[0] in after, outcome["results"][0]
    for result in outcome["results"]:
        inside = time["start"] <= result["startAt"] < time["end"]
        outside = (
            "nothing fits" in result["matchReason"]
            if not phrase
            else (phrase in result["matchReason"])
        )
        assert inside or outside, (query, result)


# More rows in the weekend than the few the search returns unranked (SMALL_RESULT), none of
# them restful; a restful one the Thursday after.
WEEKEND_ROWS = [
    ("创业者早餐会｜种子轮项目交流", "社交", ["创业", "路演"]),
    ("季度个税申报讲座", "讲座", ["个税", "财务"]),
    ("七人制足球联赛淘汰赛", "运动", ["足球", "比赛"]),
    ("Python 数据清洗工作坊", "学习", ["编程", "数据"]),
]


def test_a_window_with_nothing_close_ranks_by_closeness_to_it(
    make_activity, django_capture_on_commit_callbacks
):
    saturday = FIXED_NOW + timedelta(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        for hour, (title, kind, tags) in enumerate(WEEKEND_ROWS):
            start_at = saturday.replace(hour=8 + hour)
            make_activity(title=title, type=kind, tags=tags, description=title, start_at=start_at)
        make_activity(
            title="阴瑜伽与睡前拉伸",
            description="慢节奏的阴瑜伽，放松肩颈，睡前身体扫描，适合久坐的上班族。",
            type="运动",
            tags=["瑜伽", "放松"],
            start_at=saturday + timedelta(days=5),
        )
    outcome = activities_search(semantic_query="周末放松一下", limit=10)
    time = outcome["meta"]["understood"]["time"]
    assert time["applied"] == "rank", outcome["meta"]
    assert time["reason"].startswith("nothing in the window fits")
    assert outcome["results"][0]["title"] == "阴瑜伽与睡前拉伸"
    assert "「周末」没有合适的" in outcome["results"][0]["matchReason"]


def test_an_off_topic_query_with_a_time_phrase_still_answers_nothing(demo_on):
    demo_on(0)
    outcome = activities_search(semantic_query="周末怎么修漏水的水龙头", limit=10)
    assert outcome["results"] == []
    assert outcome["meta"]["reason"].startswith("Nothing fits")
