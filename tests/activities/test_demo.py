"""Demo activities whose words match their dates (activities/demo.py), whatever the load day."""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime, timedelta

import pytest

from activities.demo import build_activity, named_days, named_offset

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
# Seven load days, Monday to Sunday, morning and late evening, across a month and a year end.
LOAD_DAYS = [
    datetime(2026, 12, 28, 9, tzinfo=SHANGHAI) + timedelta(days=d, hours=h)
    for d in range(7)
    for h in (0, 14)
]


def said_days(item: dict) -> set[int] | None:
    """Return the weekdays the title and tags say (周五 -> {4}, 周末 -> {5, 6}), or None."""
    words = item["title"] + " " + " ".join(item.get("tags") or ())
    named = {WEEKDAY[d] for d in re.findall(r"(?:周|星期)([一二三四五六日天])", words)}
    if named:
        return named
    if "周末" in words:
        return {5, 6}
    return None


@pytest.mark.parametrize("now", LOAD_DAYS, ids=lambda d: d.strftime("%a-%H"))
def test_every_day_word_matches_the_date(demo_items, now):
    checked = 0
    for item in demo_items:
        days = said_days(item)
        start = build_activity(item, creator=None, now=now).start_at.astimezone(SHANGHAI)
        assert start > now, item["title"]
        if days is not None:
            assert start.weekday() in days, (item["title"], start)
            checked += 1
    assert checked >= 10  # the fixture does name days: 周五 x6, 周末, 周六, 周日


@pytest.mark.parametrize("now", LOAD_DAYS[:4], ids=lambda d: d.strftime("%a-%H"))
def test_the_hour_and_spread_are_kept(demo_items, now):
    for item in demo_items:
        start = build_activity(item, creator=None, now=now).start_at.astimezone(SHANGHAI)
        assert start.hour == int(item["hour"])
        # Moved to the nearest named day: at most 3 days either way of the offset's date.
        offset_day = now.date() + timedelta(days=item["day_offset"])
        assert -3 <= (start.date() - offset_day).days <= 3


def test_tonight_falls_on_the_load_day_and_tomorrow_on_the_next():
    now = datetime(2026, 12, 30, 9, tzinfo=SHANGHAI)
    base = {"description": "", "type": "派对", "tags": [], "day_offset": 9, "hour": 20}
    base.update(lat=31.2, lng=121.4, max_participants=10)
    tonight = build_activity({**base, "title": "今晚屋顶派对"}, creator=None, now=now)
    tomorrow = build_activity(
        {**base, "title": "明天下午读书会", "hour": 15}, creator=None, now=now
    )
    assert tonight.start_at.astimezone(SHANGHAI).date() == now.date()
    assert tomorrow.start_at.astimezone(SHANGHAI).date() == now.date() + timedelta(days=1)


def test_named_days_reads_weekdays_and_weekends():
    assert named_days("周五 livehouse") == {4}
    assert named_days("周末编织局") == {5, 6}
    assert named_days("旗忠网球中心周末网球约球，周六早上开打") == {5}
    assert named_days("手工包饺子聚会") == frozenset()
    assert named_offset("手工包饺子聚会") is None
    assert named_offset("今晚") == 0


def test_loading_with_an_injected_now_stores_matching_dates(db, demo_items, demo_user):
    from activities.demo import load_demo_activities

    now = datetime(2027, 1, 6, 22, tzinfo=SHANGHAI)  # a Wednesday, late
    created, _ = load_demo_activities(demo_items, creator=demo_user, embed=False, now=now)
    fridays = [a for a in created if a.title.startswith("周五")]
    assert len(fridays) == 6
    assert all(a.start_at.astimezone(SHANGHAI).weekday() == 4 for a in fridays)


def test_an_item_named_for_the_load_days_weekday_with_no_offset_moves_a_week():
    now = datetime(2026, 12, 30, 9, tzinfo=SHANGHAI)  # a Wednesday
    item = {"title": "周三读书会", "description": "", "type": "读书", "tags": [], "day_offset": 0}
    item.update(hour=19, lat=31.2, lng=121.4, max_participants=10)
    start = build_activity(item, creator=None, now=now).start_at.astimezone(SHANGHAI)
    assert start.date() == now.date() + timedelta(days=7)
