"""Query understanding in the activities search (activities/understanding.py).

Pure functions first (reading cues, plans, boosts), then the time plan against real rows.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from activities.understanding import (
    FILTER,
    NEARBY_RADIUS_KM,
    RANK,
    TIME_RANK_WEIGHT,
    TimePlan,
    apply_time,
    order_by_closeness,
    plan_place,
    plan_time,
    read_query,
    time_boost,
    user_zone,
)
from rag.understand import Window

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
# A Wednesday morning.
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)


def test_friday_evening_is_read_as_the_coming_friday_evening():
    understood = read_query("周五晚上热闹的地方", now=NOW, tz=SHANGHAI)
    phrase = understood.found.time
    assert phrase.text == "周五晚上"
    assert (phrase.start, phrase.end) == (
        datetime(2026, 11, 27, 18, tzinfo=SHANGHAI),
        datetime(2026, 11, 28, 0, tzinfo=SHANGHAI),
    )
    assert understood.rest == "热闹的地方"
    assert understood.mood_labels() == ["热闹"]


def test_time_phrases_are_read_in_the_users_zone():
    # 01:00 on Thursday in Shanghai is still Wednesday evening in New York.
    now = datetime(2026, 11, 26, 1, 0, tzinfo=SHANGHAI)
    ny = zoneinfo.ZoneInfo("America/New_York")
    tonight = read_query("tonight", now=now, tz=ny).found.time
    assert tonight.start.astimezone(ny).date() == datetime(2026, 11, 25).date()
    assert tonight.end.astimezone(ny).hour == 0


def test_a_search_for_sunday_on_sunday_evening_reads_next_sunday_too():
    now = datetime(2026, 11, 29, 21, 0, tzinfo=SHANGHAI)
    windows = read_query("周日有什么活动", now=now, tz=SHANGHAI).found.times[0].windows
    assert [w.start.date().day for w in windows] == [29, 6]


def test_english_kinds_join_the_understood_kinds():
    understood = read_query("quiet reading", now=NOW, tz=SHANGHAI)
    assert [c.label for c in understood.kinds] == ["读书"]


@pytest.mark.parametrize(
    ("query", "refused"),
    [("outdoor stuff but not hiking", "徒步"), ("volunteering but not outdoors", "户外")],
)
def test_an_english_kind_or_mood_under_a_negation_is_not_asked_for(query, refused):
    understood = read_query(query, now=NOW, tz=SHANGHAI)
    assert refused not in {c.label for c in understood.kinds}
    assert refused not in understood.mood_labels()


def test_a_drink_out_asks_for_the_lively_evening_and_the_nightlife_kind():
    # 喝点儿 with nothing named is a drink out, as 喝一杯 (session 43); refused, it asks for none.
    understood = read_query("周五晚上喝点儿去", now=NOW, tz=SHANGHAI)
    assert understood.mood_labels() == ["热闹"]
    assert [c.label for c in understood.kinds] == ["夜生活"]
    refused = read_query("晚上想出门玩，但是不想喝酒", now=NOW, tz=SHANGHAI)
    assert "夜生活" not in [c.label for c in refused.kinds]
    assert "热闹" not in refused.mood_labels()


def test_kinds_come_from_the_activity_types():
    understood = read_query("周末桌游", now=NOW, tz=SHANGHAI)
    assert [c.label for c in understood.kinds] == ["桌游"]


def test_language_of_the_query():
    assert read_query("water sports this weekend", now=NOW, tz=SHANGHAI).english
    assert not read_query("周末玩水", now=NOW, tz=SHANGHAI).english


def test_nearby_with_a_location_and_no_radius_becomes_the_default_radius():
    understood = read_query("附近的桌游", now=NOW, tz=SHANGHAI)
    plan = plan_place(understood, (31.2, 121.4, None))
    assert (plan.applied, plan.radius_km) == ("radius", NEARBY_RADIUS_KM)


def test_a_named_radius_wins_over_the_default():
    understood = read_query("3公里内的桌游", now=NOW, tz=SHANGHAI)
    assert plan_place(understood, (31.2, 121.4, None)).radius_km == 3.0


def test_the_requests_own_radius_wins_over_the_query():
    understood = read_query("附近的桌游", now=NOW, tz=SHANGHAI)
    plan = plan_place(understood, (31.2, 121.4, 12.0))
    assert (plan.applied, plan.radius_km) == ("location", 12.0)


def test_nearby_without_a_location_is_unknown():
    understood = read_query("near me board games", now=NOW, tz=SHANGHAI)
    assert plan_place(understood, None).as_meta() == {
        "phrase": "near me",
        "applied": "unknown",
        "radiusKm": None,
    }


def test_no_place_cue_no_place_plan():
    understood = read_query("桌游", now=NOW, tz=SHANGHAI)
    assert plan_place(understood, (31.2, 121.4, None)).as_meta() is None


def test_user_zone_rejects_unknown_names():
    assert user_zone("Europe/Paris").key == "Europe/Paris"
    for bad in ("Mars/Base", "../../etc/passwd", "/etc/passwd", "Asia"):
        with pytest.raises(ValueError):
            user_zone(bad)


def test_time_plan_meta_names_phrase_window_and_mode():
    window = Window(NOW, NOW + timedelta(hours=2))
    meta = TimePlan(FILTER, "今晚", (window,), "x").as_meta()
    assert meta["phrase"] == "今晚"
    assert meta["applied"] == "filter"
    assert meta["start"] == NOW.isoformat()


@given(
    score=st.floats(min_value=0.0, max_value=1.0),
    near=st.floats(min_value=0.0, max_value=1.0),
    far=st.floats(min_value=0.0, max_value=1.0),
)
def test_time_boost_is_bounded_and_monotonic(score, near, far):
    near, far = max(near, far), min(near, far)
    assert score <= time_boost(score, near) <= score * (1 + TIME_RANK_WEIGHT) + 1e-12
    assert time_boost(score, near) >= time_boost(score, far)


@given(minutes=st.integers(min_value=-3 * 24 * 60, max_value=3 * 24 * 60))
def test_closeness_is_one_inside_the_windows_and_less_outside(minutes):
    windows = (
        Window(NOW, NOW + timedelta(hours=6)),
        Window(NOW + timedelta(days=1), NOW + timedelta(days=1, hours=6)),
    )
    plan = TimePlan(RANK, "周末晚上", windows)
    moment = NOW + timedelta(minutes=minutes)
    if plan.contains(moment):
        assert plan.closeness(moment) == 1.0
    elif plan.contains(moment - timedelta(minutes=1)) is False:
        # Outside by at least a minute: strictly less than inside.
        assert 0.0 < plan.closeness(moment) < 1.0


# --- against rows ---------------------------------------------------------------------------


def _next_wednesday() -> datetime:
    """Return 10:00 on the first Wednesday at least a day from now (Shanghai)."""
    from django.utils import timezone

    day = timezone.now().astimezone(SHANGHAI).date() + timedelta(days=1)
    day += timedelta(days=(2 - day.weekday()) % 7)
    return datetime(day.year, day.month, day.day, 10, tzinfo=SHANGHAI)


@pytest.fixture
def wednesday():
    """A fixed 'now': 10:00 on the next Wednesday (Shanghai)."""
    return _next_wednesday()


@pytest.fixture
def week_of_activities(make_activity, wednesday):
    """Activities at 20:00 on each of the 7 days after ``wednesday``; ``{weekday: Activity}``."""
    rows = {}
    for days in range(1, 8):
        day = wednesday.date() + timedelta(days=days)
        start = datetime(day.year, day.month, day.day, 20, tzinfo=SHANGHAI)
        rows[day.weekday()] = make_activity(title=f"day {days}", start_at=start)
    return rows


def _hard(now, **parsed):
    from activities.search_filters import hard_filter

    base = {"location": None, "start": None, "end": None, "type": None}
    base.update(parsed)
    return hard_filter(base, now=now)


def test_a_window_with_rows_narrows_the_filter(week_of_activities, wednesday):
    understood = read_query("周五晚上", now=wednesday, tz=SHANGHAI)
    qs = _hard(wednesday)
    plan = plan_time(understood, qs)
    assert plan.applied == FILTER
    kept = list(apply_time(qs, plan))
    assert [a.pk for a in kept] == [week_of_activities[4].pk]


def test_a_window_outside_time_range_ranks_by_closeness(week_of_activities, wednesday):
    friday = week_of_activities[4].start_at
    understood = read_query("周五晚上", now=wednesday, tz=SHANGHAI)
    # The request's own range ends the day before that Friday.
    end = friday - timedelta(days=1) + timedelta(hours=1)
    qs = _hard(wednesday, end=end)
    plan = plan_time(understood, qs, end=end)
    assert plan.applied == RANK
    assert apply_time(qs, plan).count() == qs.count()
    ordered = list(order_by_closeness(qs, plan))
    assert ordered[0].start_at == friday - timedelta(days=1)


def test_no_row_at_all_is_an_honest_empty_filter(db, wednesday):
    understood = read_query("周五晚上", now=wednesday, tz=SHANGHAI)
    qs = _hard(wednesday)
    plan = plan_time(understood, qs)
    assert plan.applied == FILTER
    assert not apply_time(qs, plan).exists()


@pytest.mark.parametrize(
    "cap, expected",
    [(1, 1), (4, 2)],
    ids=["existence-only", "counted-to-the-cap"],
)
def test_the_plan_counts_the_rows_it_leaves_up_to_the_cap(
    week_of_activities, wednesday, cap, expected
):
    # 周末 is Saturday and Sunday: two of the week's activities.
    understood = read_query("周末", now=wednesday, tz=SHANGHAI)
    qs = _hard(wednesday)
    plan = plan_time(understood, qs, count_upto_rows=cap)
    assert plan.applied == FILTER
    assert apply_time(qs, plan).count() == 2
    assert plan.rows == expected


def test_a_ranking_plan_counts_every_row_that_passes(week_of_activities, wednesday):
    friday = week_of_activities[4].start_at
    understood = read_query("周五晚上", now=wednesday, tz=SHANGHAI)
    end = friday - timedelta(days=1) + timedelta(hours=1)  # the range stops before Friday
    qs = _hard(wednesday, end=end)
    plan = plan_time(understood, qs, end=end, count_upto_rows=10)
    assert plan.applied == RANK
    assert plan.rows == qs.count() == 1


def test_a_time_phrase_search_counts_its_rows_once(week_of_activities, wednesday):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from activities.search import activities_search

    with CaptureQueriesContext(connection) as queries:
        found = activities_search(semantic_query="周末", now=wednesday, time_zone="Asia/Shanghai")
    assert found["meta"]["candidates"] == 2
    reads = [q["sql"] for q in queries.captured_queries if "activities_activity" in q["sql"]]
    # The plan's count is the candidates: no EXISTS before it and no second COUNT after it.
    assert sum("COUNT(" in sql for sql in reads) == 1
    assert not any('SELECT 1 AS "a"' in sql for sql in reads)


@pytest.mark.parametrize(
    "query, vouching",
    [
        ("攀岩抱石", []),  # one sport
        ("找个地方喝一杯", []),  # a drink
        ("周末去公园野餐", []),  # one outing
        ("想运动一下出出汗", ["运动"]),  # the field itself
        ("找个安静的地方发呆", ["安静"]),
        ("去户外走走", ["户外"]),
    ],
)
def test_only_a_mood_word_vouches_not_the_name_of_one_activity(query, vouching):
    from activities.understanding import vouching_moods

    understood = read_query(query, now=NOW, tz=SHANGHAI)
    assert vouching_moods(understood).mood_labels() == vouching
