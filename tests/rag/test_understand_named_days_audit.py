"""Named days after the audit of session 50's changes (issue 30, session 51): a day's name that
starts a word for a thing is no day, a named day means its nearest occurrence (over or not),
"X eve" stays whole in the text, and the lunar tables reach a fixed last year.

Every case passes a fixed ``now``; no clock.
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from rag.understand import understand
from rag.understand.calendar_zh import (
    DOUBLE_NINTH,
    DRAGON_BOAT,
    LABA,
    LAST_YEAR,
    LUNAR_NEW_YEAR,
    MID_AUTUMN,
    QIXI,
)
from rag.understand.holidays import days_of

SHANGHAI = "Asia/Shanghai"
NEW_YORK = "America/New_York"
LONDON = "Europe/London"


def first_day(text: str, tz: str, now: datetime) -> date | None:
    """Return the first day of the time ``text`` reads at ``now`` in ``tz``, or None."""
    found = understand(text, now=now, tz=tz, direction="future").time
    return found.windows[0].start.date() if found else None


@pytest.mark.parametrize("text", ["谷雨茶哪里买", "重阳糕怎么做", "冬至面"])
def test_a_days_name_that_starts_a_word_for_a_thing_is_no_day(text):
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(SHANGHAI))
    assert first_day(text, SHANGHAI, now) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("冬至饺子", date(2026, 12, 22)),  # a noun of its own word: dumplings on the day
        ("冬至吃饺子", date(2026, 12, 22)),
        ("冬至那天去爬山", date(2026, 12, 22)),
    ],
)
def test_a_days_name_before_a_word_of_its_own_is_the_day(text, day):
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(SHANGHAI))
    assert first_day(text, SHANGHAI, now) == day


def test_black_friday_asked_the_day_after_is_the_one_just_past():
    now = datetime(2026, 11, 28, 10, tzinfo=ZoneInfo(NEW_YORK))
    assert first_day("what's on black friday", NEW_YORK, now) == date(2026, 11, 27)


def test_double_eleven_asked_two_weeks_after_is_this_years():
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(SHANGHAI))
    assert first_day("双十一有什么活动", SHANGHAI, now) == date(2026, 11, 11)


def test_a_named_day_still_ahead_and_nearer_is_the_coming_one():
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(SHANGHAI))
    assert first_day("双十二有什么好玩的", SHANGHAI, now) == date(2026, 12, 12)
    assert first_day("冬至有什么活动", SHANGHAI, now) == date(2026, 12, 22)


def test_a_named_day_over_keeps_its_own_window_whole():
    now = datetime(2026, 11, 28, 10, tzinfo=ZoneInfo(NEW_YORK))
    found = understand("black friday", now=now, tz=NEW_YORK, direction="future").time
    day = datetime(2026, 11, 27, tzinfo=ZoneInfo(NEW_YORK))
    assert [(w.start, w.end) for w in found.windows] == [(day, day.replace(day=28))]


def test_christmas_eve_stays_whole_in_the_rest():
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(LONDON))
    found = understand("what's on christmas eve", now=now, tz=LONDON, direction="future")
    assert found.rest == "what's christmas eve"


def test_the_day_after_keeps_only_the_name_in_the_rest():
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(NEW_YORK))
    found = understand("a hike the day after thanksgiving", now=now, tz=NEW_YORK)
    assert found.rest == "a hike thanksgiving"


@pytest.mark.parametrize(
    "table", [LUNAR_NEW_YEAR, DRAGON_BOAT, QIXI, MID_AUTUMN, DOUBLE_NINTH], ids=lambda t: ""
)
def test_the_lunar_tables_cover_every_year_to_2050(table):
    # A fixed year, not the clock: lowering LAST_YEAR or cutting a table fails here.
    assert LAST_YEAR >= 2050
    assert set(range(2020, LAST_YEAR + 1)) <= set(table)


def test_laba_is_in_every_year_but_those_with_none():
    # 2023 and 2042 hold no 腊八 (the twelfth month's eighth day fell on 30 December of 2022
    # and 2041, and next on 18 January of 2024 and 2043).
    assert set(range(2020, LAST_YEAR + 1)) - set(LABA) == {2023, 2042}
    assert days_of("腊八节", "CN", 2023) is None
    assert days_of("腊八节", "CN", 2043) == [date(2043, 1, 18)]


def test_a_lunar_festival_in_the_tables_last_years_is_read():
    assert days_of("中秋节", "CN", 2050) == [date(2050, 9, 30)]
    assert days_of("春节", "CN", 2049)[1] == date(2049, 2, 2)
