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


def past_windows(text: str) -> list[tuple[datetime, datetime]]:
    """Return the windows of ``text``'s time phrase as memory reads it (direction "past")."""
    tz = LONDON if text.isascii() else SH
    found = understand(text, now=datetime(2026, 11, 25, 10, tzinfo=tz), direction="past")
    assert found.time is not None, text
    return [(w.start, w.end) for w in found.time.windows]


def rest(text: str) -> str:
    tz = LONDON if text.isascii() else SH
    return understand(text, now=datetime(2026, 11, 25, 10, tzinfo=tz)).rest


# A part of the day or a clock time between (or after) a weekday and its date narrows the date
# (audit, session 42): the date decides the day.
@pytest.mark.parametrize(
    "text, future, past",
    [
        (
            "saturday night, dec 5",
            [day(12, 5, 18, 24, tz=LONDON)],
            [day(12, 5, 18, 24, tz=LONDON, year=2025)],
        ),
        ("周六晚上12月5日", [day(12, 5, 18, 24)], [day(12, 5, 18, 24, year=2025)]),
        ("周六 8点 12月5日", [day(12, 5, 8, 9)], [day(12, 5, 8, 9, year=2025)]),
        ("sat dec 5", [day(12, 5, tz=LONDON)], [day(12, 5, tz=LONDON, year=2025)]),
    ],
)
def test_a_part_or_clock_beside_a_labelled_date_narrows_the_date(text, future, past):
    assert windows(text) == future
    assert past_windows(text) == past


def test_a_weekday_in_a_list_of_days_is_no_label_of_the_date():
    # "dec 5, saturday and sunday": the date and the weekend, as before labels were read.
    assert windows("dec 5, saturday and sunday") == [
        (day(11, 28, tz=LONDON)[0], day(11, 29, tz=LONDON)[1]),
        day(12, 5, tz=LONDON),
    ]


@pytest.mark.parametrize(
    "text, left",
    [
        ("sat dec 5", ""),
        ("sat dec 5 skiing", "skiing"),
        ("sat, 5 dec", ""),
        ("wed, dec 9 at 7pm", ""),
        ("12月5日（周六）", ""),
        ("周六（12月5日）滑雪", "滑雪"),
    ],
)
def test_a_labelled_date_leaves_neither_its_weekday_nor_its_bracket(text, left):
    assert rest(text) == left


@pytest.mark.parametrize(
    "text",
    [
        "apr 5% loan",
        "jan 3 results",
        "top 5 mar picks",
        "did jan 2 weeks ago mention the trip",
        "table for 2 jan and mike",
        "may 5 people",
    ],
)
def test_a_short_month_name_before_a_count_is_no_date(text):
    tz = LONDON
    for direction in ("future", "past"):
        found = understand(text, now=datetime(2026, 11, 25, 10, tzinfo=tz), direction=direction)
        assert found.time is None, (text, direction)


@pytest.mark.parametrize(
    "text, future, past",
    [
        ("sat dec 5", day(12, 5), day(12, 5, year=2025)),
        ("dec 5", day(12, 5), day(12, 5, year=2025)),
        ("Dec. 5th", day(12, 5), day(12, 5, year=2025)),
        ("on 5 dec", day(12, 5), day(12, 5, year=2025)),
        ("Nov 30th", day(11, 30), day(11, 30, year=2025)),
        ("jan 3", day(1, 3, year=2027), day(1, 3)),
        ("jan. 3 brunch", day(1, 3, 10, 14, year=2027), day(1, 3, 10, 14)),
        ("sat 5 dec", day(12, 5), day(12, 5, year=2025)),
        ("dec 5 night", day(12, 5, 18, 24), day(12, 5, 18, 24, year=2025)),
        ("wed, dec 9 at 7pm", day(12, 9, 19, 20), day(12, 9, 19, 20, year=2025)),
        ("sat, 5 dec", day(12, 5), day(12, 5, year=2025)),
        (
            "3 dec to 5 dec",
            (day(12, 3)[0], day(12, 5)[1]),
            (day(12, 3, year=2025)[0], day(12, 5, year=2025)[1]),
        ),
    ],
)
def test_a_short_month_name_as_dates_are_written_still_reads(text, future, past):
    future = tuple(t.replace(tzinfo=LONDON) for t in future)
    past = tuple(t.replace(tzinfo=LONDON) for t in past)
    assert windows(text) == [future]
    assert past_windows(text) == [past]


@pytest.mark.parametrize("text", ["十1点", "三十1号", "一2号", "第二12号"])
def test_digits_after_a_chinese_numeral_are_no_time(text):
    found = understand(text, now=datetime(2026, 11, 25, 10, tzinfo=SH), direction="future")
    assert found.time is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("周六8点", [day(11, 28, 8, 9)]),
        ("周六12点", [day(11, 28, 12, 13)]),
        ("星期六12点", [day(11, 28, 12, 13)]),
        ("周一3点", [day(11, 30, 15, 16)]),
        ("2026年12月5日", [day(12, 5)]),
        ("5月2日", [day(5, 2, year=2027)]),
        ("周六12月5日", [day(12, 5)]),
    ],
)
def test_digits_after_a_weekday_numeral_still_read(text, expected):
    assert windows(text) == expected


# A meal after a day followed by 前 / 后 (以前, 之前, 以后, 之后) is before / after the meal, not
# its hours (audit, session 42; hours: rag.understand.parts).
@pytest.mark.parametrize(
    "text, future, past, left",
    [
        ("周六午饭前有什么活动", day(11, 28, 6, 12), day(11, 21, 6, 12), "有什么活动"),
        ("周六午饭以前", day(11, 28, 6, 12), day(11, 21, 6, 12), ""),
        ("周日早饭后爬山", day(11, 29, 8, 12), day(11, 22, 8, 12), "爬山"),
        ("周日早餐之后散步", day(11, 29, 8, 12), day(11, 22, 8, 12), "散步"),
        ("周六晚饭前", day(11, 28, 12, 18), day(11, 21, 12, 18), ""),
        ("周六早饭前跑步", day(11, 28, 5, 8), day(11, 21, 5, 8), "跑步"),
        ("周六晚饭后", day(11, 28, 19, 24), day(11, 21, 19, 24), ""),
        # The meal itself still says when and what.
        ("周二午饭约一个", day(12, 1, 11, 14), day(11, 24, 11, 14), "午饭约一个"),
        # 餐厅 is a restaurant: Saturday evening (晚) and a restaurant.
        ("周六晚餐厅", day(11, 28, 18, 24), day(11, 21, 18, 24), "餐厅"),
    ],
)
def test_before_or_after_a_meal_after_a_day(text, future, past, left):
    assert windows(text) == [future]
    assert past_windows(text) == [past]
    assert rest(text) == left
