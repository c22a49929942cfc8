"""Days people name (issue 30, session 50): St Andrew's Day, Burns Night, the Chinese lunar
festivals, the solar terms and the shopping days, and the Scots day words ("the night", "the
morn", "the morra"), each to its window; ordinary phrases that look like them stay text.

Every case passes a fixed ``now`` (no clock): Wednesday 2026-11-25 10:00 local.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from rag.understand import understand
from rag.understand.calendar_zh import LAST_YEAR, solar_term_day
from rag.understand.holidays import days_of

GLASGOW = "Europe/London"
SHANGHAI = "Asia/Shanghai"


def read(text: str, tz: str):
    """Return the time phrase of ``text`` read in ``tz`` on 2026-11-25 10:00, or None."""
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(tz))
    return understand(text, now=now, tz=tz, direction="future").time


def window(first: date, tz: str, start: float = 0, end: float = 24):
    """Return (start, end) from ``start`` to ``end`` hours of ``first``."""
    day = datetime(first.year, first.month, first.day, tzinfo=ZoneInfo(tz))
    return (day + timedelta(hours=start), day + timedelta(hours=end))


def spans(text: str, tz: str):
    found = read(text, tz)
    assert found is not None, text
    return [(w.start, w.end) for w in found.windows]


@pytest.mark.parametrize("text", ["whats happening for st andrews day", "st andrew's day plans?"])
def test_st_andrews_day_is_the_thirtieth_of_november(text):
    assert spans(text, GLASGOW) == [window(date(2026, 11, 30), GLASGOW)]


def test_st_andrews_the_town_is_no_day():
    assert read("golf at st andrews", GLASGOW) is None


def test_burns_night_is_the_evening_of_the_twenty_fifth_of_january():
    assert spans("burns night ceilidh", GLASGOW)[0][0].date() == date(2027, 1, 25)


@pytest.mark.parametrize(
    ("term", "year", "day"),
    [
        ("冬至", 2026, date(2026, 12, 22)),
        ("冬至", 2025, date(2025, 12, 21)),
        ("大雪", 2026, date(2026, 12, 7)),
        ("立冬", 2027, date(2027, 11, 7)),
        ("立春", 2025, date(2025, 2, 3)),
        ("立春", 2026, date(2026, 2, 4)),
        ("雨水", 2026, date(2026, 2, 18)),  # one of the formula's published exceptions
    ],
)
def test_solar_terms_are_computed_to_the_day(term, year, day):
    assert solar_term_day(term, year) == day


@pytest.mark.parametrize(
    ("name", "year", "day"),
    [
        ("七夕", 2026, date(2026, 8, 19)),
        ("七夕", 2027, date(2027, 8, 8)),
        ("重阳节", 2026, date(2026, 10, 18)),
        ("重阳节", 2027, date(2027, 10, 8)),
        ("腊八节", 2027, date(2027, 1, 15)),
        ("腊八节", 2028, date(2028, 1, 4)),
    ],
)
def test_lunar_festivals_come_from_the_table(name, year, day):
    assert days_of(name, "CN", year) == [day]


def test_a_lunar_festival_outside_the_table_names_no_day():
    assert days_of("七夕", "CN", LAST_YEAR + 1) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("冬至有什么活动", date(2026, 12, 22)),
        ("大雪节气去哪玩", date(2026, 12, 7)),
        ("双十二有什么好玩的", date(2026, 12, 12)),
        # Session 51: the nearer is this year's, over (98 days back; next year's is 256 ahead).
        ("七夕约会去哪", date(2026, 8, 19)),
        ("腊八那天带孩子去庙会", date(2027, 1, 15)),
    ],
)
def test_chinese_named_days_read_as_their_day(text, day):
    assert spans(text, SHANGHAI) == [window(day, SHANGHAI)]


@pytest.mark.parametrize("text", ["明天有大雪吗", "下小雪了想出去走走", "喝腊八粥"])
def test_snow_and_food_are_not_the_named_day(text):
    found = read(text, SHANGHAI)
    assert found is None or found.windows[0].start.date() == date(2026, 11, 26)


def test_ming_is_the_dynasty_not_tomorrow():
    assert read("明朝的历史讲座", SHANGHAI) is None


@pytest.mark.parametrize(
    "text", ["fancy a pint and some music the night", "anything on the night?"]
)
def test_scots_the_night_is_tonight(text):
    assert spans(text, GLASGOW) == [window(date(2026, 11, 25), GLASGOW, 18, 24)]


@pytest.mark.parametrize("text", ["ceilidh the morn", "icy on the roads the morra"])
def test_scots_the_morn_and_the_morra_are_tomorrow(text):
    assert spans(text, GLASGOW) == [window(date(2026, 11, 26), GLASGOW)]


@pytest.mark.parametrize(
    "text",
    [
        "the night market",
        "a night out",
        "good night",
        "dancing all the night",
        "spend the night in a bothy",
        "what happened on the night of the fire",
        "in the morn",
    ],
)
def test_ordinary_night_and_morn_phrases_are_no_day(text):
    assert read(text, GLASGOW) is None


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("今儿个有啥好玩的", 0),
        ("明儿去公园", 1),
        ("后儿有空", 2),
        ("今朝去哪白相", 0),
        ("听日去边度", 1),
    ],
)
def test_regional_chinese_day_words_are_their_day(text, offset):
    # Today's window starts now (10:00), not at midnight: compare the day and its end.
    day = date(2026, 11, 25) + timedelta(days=offset)
    [(start, end)] = spans(text, SHANGHAI)
    assert (start.date(), end) == (day, window(day, SHANGHAI)[1])


def test_thanksgiving_follows_the_country_of_the_time_zone():
    assert days_of("thanksgiving", "US", 2026) == [date(2026, 11, 26)]
    assert days_of("thanksgiving", "CA", 2026) == [date(2026, 10, 12)]
    assert days_of("thanksgiving", "US", 2027) == [date(2027, 11, 25)]


def test_a_named_days_name_stays_in_the_text_and_is_read_once():
    now = datetime(2026, 11, 25, 10, tzinfo=ZoneInfo(GLASGOW))
    found = understand("whats happening for st andrews day", now=now, tz=GLASGOW)
    assert (len(found.times), found.rest) == (1, "whats happening st andrews day")
