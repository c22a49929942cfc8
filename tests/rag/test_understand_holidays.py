"""Named days (rag.understand.holidays), informal day words and meals after a day: each phrase
family resolves to its window, by the country of the time zone; words that only look like one
stay text.

Every case passes a fixed ``now`` (no clock): Wednesday 2026-11-25 10:00 local.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from rag.understand import understand
from rag.understand.holidays import country_of, days_of, easter_sunday

SEATTLE = "America/Los_Angeles"
TORONTO = "America/Toronto"
LONDON = "Europe/London"
MELBOURNE = "Australia/Melbourne"
SHANGHAI = "Asia/Shanghai"


def windows(text: str, tz: str) -> list[tuple[datetime, datetime]]:
    """Return the windows of the one time phrase of ``text`` read in ``tz``."""
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(tz))
    found = understand(text, now=now, tz=tz, direction="future")
    assert len(found.times) == 1, (text, found.times)
    return [(w.start, w.end) for w in found.times[0].windows]


def days(first: date, last: date, tz: str, start: float = 0, end: float = 24):
    """Return one window from ``start`` hours of ``first`` to ``end`` hours of ``last``."""
    zone = ZoneInfo(tz)
    lo = datetime(first.year, first.month, first.day, tzinfo=zone) + timedelta(hours=start)
    hi = datetime(last.year, last.month, last.day, tzinfo=zone) + timedelta(hours=end)
    return [(lo, hi)]


def test_the_country_comes_from_the_time_zone_database():
    assert country_of(ZoneInfo(SEATTLE)) == "US"
    assert country_of(ZoneInfo(LONDON)) == "GB"
    assert country_of(ZoneInfo(MELBOURNE)) == "AU"
    assert country_of(ZoneInfo("Asia/Chongqing")) == "CN"  # a link to Asia/Shanghai
    assert country_of(ZoneInfo("UTC")) is None


def test_movable_holidays_follow_their_rule():
    assert [easter_sunday(y) for y in (2024, 2025, 2026, 2027)] == [
        date(2024, 3, 31),
        date(2025, 4, 20),
        date(2026, 4, 5),
        date(2027, 3, 28),
    ]
    assert days_of("thanksgiving", "US", 2026) == [date(2026, 11, 26)]
    assert days_of("thanksgiving", "CA", 2026) == [date(2026, 10, 12)]
    assert days_of("memorial day", "US", 2026) == [date(2026, 5, 25)]
    assert days_of("victoria day", "CA", 2026) == [date(2026, 5, 18)]
    assert days_of("清明节", "CN", 2026) == [date(2026, 4, 5)]
    assert [days_of("冬至", "CN", y) for y in (2024, 2025, 2026)] == [
        [date(2024, 12, 21)],
        [date(2025, 12, 21)],
        [date(2026, 12, 22)],
    ]


NAMED = [
    # Thanksgiving is the user's country's: the US's this Thursday; Canada's the nearer
    # October one, over (a named day is its nearest occurrence: issue 30, session 51).
    (
        "what can i do on thanksgiving day",
        SEATTLE,
        days(date(2026, 11, 26), date(2026, 11, 26), SEATTLE),
    ),
    ("thanksgiving", TORONTO, days(date(2026, 10, 12), date(2026, 10, 12), TORONTO)),
    # A name the country does not keep is the first listed country's.
    ("thanksgiving", LONDON, days(date(2026, 11, 26), date(2026, 11, 26), LONDON)),
    (
        "day after thanksgiving, get outside",
        SEATTLE,
        days(date(2026, 11, 27), date(2026, 11, 27), SEATTLE),
    ),
    ("thanksgiving weekend hikes", SEATTLE, days(date(2026, 11, 26), date(2026, 11, 29), SEATTLE)),
    ("christmas eve service", LONDON, days(date(2026, 12, 24), date(2026, 12, 24), LONDON)),
    ("the day before christmas", LONDON, days(date(2026, 12, 24), date(2026, 12, 24), LONDON)),
    ("boxing day walk", LONDON, days(date(2026, 12, 26), date(2026, 12, 26), LONDON)),
    (
        "new year's eve fireworks",
        MELBOURNE,
        days(date(2026, 12, 31), date(2026, 12, 31), MELBOURNE),
    ),
    ("christmas morning", LONDON, days(date(2026, 12, 25), date(2026, 12, 25), LONDON, 6, 12)),
    # The next bank holiday (Christmas, a Friday in 2026) and the weekend it makes.
    ("bank holiday weekend", LONDON, days(date(2026, 12, 25), date(2026, 12, 27), LONDON)),
    ("easter weekend", LONDON, days(date(2027, 3, 26), date(2027, 3, 29), LONDON)),
    ("melbourne cup day", MELBOURNE, days(date(2026, 11, 3), date(2026, 11, 3), MELBOURNE)),
    ("国庆去哪玩", SHANGHAI, days(date(2026, 10, 1), date(2026, 10, 7), SHANGHAI)),
    ("中秋节赏月", SHANGHAI, days(date(2026, 9, 25), date(2026, 9, 25), SHANGHAI)),
    ("春节期间开门的景点", SHANGHAI, days(date(2027, 2, 5), date(2027, 2, 11), SHANGHAI)),
    ("平安夜约会", SHANGHAI, days(date(2026, 12, 24), date(2026, 12, 24), SHANGHAI)),
    ("情人节前一天", SHANGHAI, days(date(2027, 2, 13), date(2027, 2, 13), SHANGHAI)),
]


@pytest.mark.parametrize(("text", "tz", "expected"), NAMED)
def test_a_named_day_is_its_window(text, tz, expected):
    assert windows(text, tz) == expected


INFORMAL = [
    ("sat nite out", SEATTLE, days(date(2026, 11, 28), date(2026, 11, 28), SEATTLE, 18, 24)),
    (
        "sat arvo, wanna eat",
        MELBOURNE,
        days(date(2026, 11, 28), date(2026, 11, 28), MELBOURNE, 12, 18),
    ),
    ("this arvo", MELBOURNE, days(date(2026, 11, 25), date(2026, 11, 25), MELBOURNE, 12, 18)),
    ("tonite", LONDON, days(date(2026, 11, 25), date(2026, 11, 25), LONDON, 18, 24)),
    ("tmrw morning yoga", LONDON, days(date(2026, 11, 26), date(2026, 11, 26), LONDON, 6, 12)),
    ("wknd plans", LONDON, days(date(2026, 11, 28), date(2026, 11, 29), LONDON)),
    ("fri drinks", LONDON, days(date(2026, 11, 27), date(2026, 11, 27), LONDON)),
    ("anything on sat", LONDON, days(date(2026, 11, 28), date(2026, 11, 28), LONDON)),
    ("thurs evening", LONDON, days(date(2026, 11, 26), date(2026, 11, 26), LONDON, 18, 24)),
    # Meals right next to a day narrow it.
    (
        "sunday brunch or a long lunch",
        SEATTLE,
        days(date(2026, 11, 29), date(2026, 11, 29), SEATTLE, 10, 14),
    ),
    ("dinner on friday", LONDON, days(date(2026, 11, 27), date(2026, 11, 27), LONDON, 17, 22)),
    # A part of the day apart from the query's one day is read on it.
    (
        "lunch break thing near the office on wednesday",
        MELBOURNE,
        days(date(2026, 11, 25), date(2026, 11, 25), MELBOURNE, 12, 14),
    ),
    # ... but a meal apart is the meal.
    ("brunch spots open sunday", LONDON, days(date(2026, 11, 29), date(2026, 11, 29), LONDON)),
]


@pytest.mark.parametrize(("text", "tz", "expected"), INFORMAL)
def test_informal_words_and_meals_are_read(text, tz, expected):
    assert windows(text, tz) == expected


@pytest.mark.parametrize(
    "text",
    [
        "christmas markets",  # a name before another word names the thing, not the day
        "halloween party",
        "easter egg hunt",
        "a family day out",
        "i sat in the sun all day",  # sat, sun: words, not days
        "somewhere for sun and sand",
        "what we had for dinner",
        "圣诞市集",
        "五一广场附近",
        "清明上河图展览",
        "国庆路附近吃饭",
        "想找回点小时候过年的那种味儿",  # 过年的 + noun: the New Year's taste
    ],
)
def test_no_time_is_read(text):
    tz = SEATTLE if text.isascii() else SHANGHAI
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(tz))
    assert understand(text, now=now, tz=tz, direction="future").times == ()


def test_a_named_day_is_a_holiday_not_a_day_of_the_week():
    # The demo loader places listings by the kinds day / weekday / weekend only.
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(SEATTLE))
    found = understand("on thanksgiving", now=now, tz=SEATTLE, direction="future")
    assert [t.kind for t in found.times] == ["holiday"]
    # The name says what as well as when and stays in the text; the cue "on" does not (s. 50).
    assert found.rest == "thanksgiving"
