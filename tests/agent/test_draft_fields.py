"""A new draft's start and title (agent.draft_fields: start_at, draft_title)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from agent import extract
from agent.draft_fields import draft_title, keep_time_of_day, start_at
from agent.extract import extract_time_range

WEDNESDAY_10AM = datetime(2026, 11, 25, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


def test_a_draft_named_by_a_part_of_the_day_starts_at_its_usual_hour():
    start = start_at(extract_time_range("周日下午想办个桌游局", WEDNESDAY_10AM))
    assert start == "2026-11-29T14:00:00+08:00"


@pytest.mark.parametrize(
    ("message", "start"),
    [
        ("host a pottery workshop next Saturday afternoon", "2026-12-05T14:00:00+08:00"),
        ("a dinner on Friday evening", "2026-11-27T19:00:00+08:00"),
        ("a run Sunday morning", "2026-11-29T09:00:00+08:00"),
    ],
)
def test_an_english_part_of_the_day_starts_at_its_usual_hour(message, start):
    assert start_at(extract_time_range(message, WEDNESDAY_10AM), now=WEDNESDAY_10AM) == start


def test_a_draft_named_by_a_newer_part_of_the_day_starts_inside_it():
    # 一早 opens at 5:00, a draft at 7:00; 下班后 opens at 18:00, the draft too.
    start = start_at(extract_time_range("周日一早想办个晨跑局", WEDNESDAY_10AM))
    assert start == "2026-11-29T07:00:00+08:00"
    start = start_at(extract_time_range("周一下班后办个桌游局", WEDNESDAY_10AM))
    assert start == "2026-11-30T18:00:00+08:00"


SATURDAY_NIGHT = datetime(2026, 11, 28, 22, 24, 37, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.mark.parametrize(
    ("message", "start"),
    [
        # The weekend asked on Saturday night opens now: Sunday evening, not 22:24:37.
        ("这周末组个羽毛球局", "2026-11-29T19:00:00+08:00"),
        # Tonight asked at 22:24 has no evening left: the next full hour.
        ("今晚组个局", "2026-11-28T23:00:00+08:00"),
    ],
)
def test_a_draft_whose_window_opens_now_starts_at_a_time_one_would_set(message, start):
    window = extract_time_range(message, SATURDAY_NIGHT)

    assert start_at(window, now=SATURDAY_NIGHT) == start


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("host a picnic at Zilker Park on Sunday", "Picnic"),
        ("help me organise a bbq at The Domain", "Bbq"),
        ("I'd like to host a board game night next friday at 7pm for 6 people", "Board game night"),
        ("host a board game night this friday for 6 people at my place", "Board game night"),
        ("host a dinner party at our flat tomorrow evening", "Dinner party"),
        ("host a board games night friday at 7pm at my place in Jing'an", "Board games night"),
        ("set up a board game night at my friend's place in Pudong", "Board game night"),
        ("host a pottery evening next thursday at 7, max 8 people", "Pottery evening"),
        ("run a trivia night on friday, 10 people max", "Trivia night"),
        ("host a wine tasting friday at 8, limit 6", "Wine tasting"),
        ("set up a book club next tuesday at 7pm for no more than 5 people", "Book club"),
    ],
)
def test_an_english_draft_title_says_what_it_is_not_where_or_who_asked(message, title):
    assert draft_title(message, extract.read(message), "社交") == title


def test_a_far_draft_moved_to_a_bare_weekday_stays_beside_it():
    new_year = datetime(2027, 1, 1, 19, 0, tzinfo=ZoneInfo("Asia/Shanghai"))  # a Friday
    ctx = SimpleNamespace(message="move it to saturday", draft=SimpleNamespace(start_at=new_year))
    moved = keep_time_of_day(ctx, {})
    assert moved["startAt"] == "2027-01-02T19:00:00+08:00"


def test_a_draft_asked_for_tonight_at_half_past_eleven_starts_at_the_next_quarter():
    late = datetime(2026, 11, 28, 23, 30, 12, tzinfo=ZoneInfo("Asia/Shanghai"))

    assert start_at(extract_time_range("今晚组个局", late), now=late) == "2026-11-28T23:45:00+08:00"


@pytest.mark.parametrize(
    ("message", "hour"),
    [("host a wine tasting friday at 8, limit 6", 20), ("run a quiz on friday at 9", 21)],
)
def test_a_bare_evening_hour_said_for_a_new_activity_is_the_evenings(message, hour):
    from agent.draft_fields import fields_of

    start = datetime.fromisoformat(fields_of(message)["startAt"])
    assert (start.hour, start.minute, start.weekday()) == (hour, 0, 4)


def test_a_day_nearly_over_sets_its_next_occurrence_and_tonight_stays_tonight():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from agent.extract import time_to_set

    sunday_evening = datetime(2026, 11, 29, 21, tzinfo=ZoneInfo("Asia/Shanghai"))
    assert time_to_set("组织一个周日的飞盘局", sunday_evening).start.day == 6
    assert time_to_set("今晚组织个桌游局", sunday_evening).start.day == 29
