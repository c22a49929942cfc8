"""A date beside its weekday, short English month names and a weekday before a number written
in digits (issue 30, session 42), read against Wednesday 2026-11-25 10:00, searching forward.

Written from general usage after the fresh12 held-out split showed "sat dec 5" read as this
Saturday: a date and its weekday side by side name the date ("sat dec 5", 12月5日周六,
"Saturday, December 5"); a month's short name is read beside a day of the month ("dec 5",
"5 Sept", "Nov. 30th"); and a Chinese numeral never runs into the digits after it (周六8点 is
Saturday at 8, not "六8" o'clock).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from rag.understand import understand

SH = ZoneInfo("Asia/Shanghai")
LONDON = ZoneInfo("Europe/London")


def windows(text: str) -> list[tuple[datetime, datetime]]:
    """Return the windows the time phrase of ``text`` is filtered on (searching forward)."""
    tz = LONDON if text.isascii() else SH
    found = understand(text, now=datetime(2026, 11, 25, 10, tzinfo=tz), direction="future")
    assert found.time is not None, text
    return [(w.start, w.end) for w in found.time.windows]


def day(month: int, dom: int, start: float = 0, end: float = 24, tz=SH, year: int = 2026):
    """Return [start, end) hours of ``dom`` ``month`` (end 24: the next midnight)."""
    midnight = datetime(year, month, dom, tzinfo=tz)
    return midnight + timedelta(hours=start), midnight + timedelta(hours=end)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("anything up the mountains on sat dec 5, skiing", [day(12, 5, tz=LONDON)]),
        ("Saturday, December 5 hike", [day(12, 5, tz=LONDON)]),
        ("12月5日周六滑雪", [day(12, 5)]),
        ("周六12月5日滑雪", [day(12, 5)]),
        ("星期六 12月5日", [day(12, 5)]),
        ("12月5日（周六）去滑雪", [day(12, 5)]),
        # The date decides when the weekday disagrees with it (5 December is a Saturday).
        ("周五12月5日", [day(12, 5)]),
    ],
)
def test_a_weekday_beside_its_date_names_the_date(text, expected):
    assert windows(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("skiing dec 5", [day(12, 5, tz=LONDON)]),
        ("5 dec skiing", [day(12, 5, tz=LONDON)]),
        ("yoga on Nov. 30th", [day(11, 30, tz=LONDON)]),
        ("market on 3 sept", [day(9, 3, tz=LONDON, year=2027)]),
    ],
)
def test_a_short_month_name_beside_a_day_is_a_date(text, expected):
    assert windows(text) == expected


def test_a_short_month_name_alone_is_no_date():
    assert understand("dec party ideas", now=datetime(2026, 11, 25, 10, tzinfo=LONDON)).time is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("周六8点爬山", [day(11, 28, 8, 9)]),
        ("周日10点半喝茶", [day(11, 29, 10.5, 11.5)]),
        ("礼拜天9点", [day(11, 29, 9, 10)]),
    ],
)
def test_a_weekday_before_a_clock_in_digits_is_that_day_at_that_hour(text, expected):
    assert [start for start, _end in windows(text)] == [start for start, _end in expected]
