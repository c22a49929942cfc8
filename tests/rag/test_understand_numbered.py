"""Dates as people type them (issue 30, session 49), read against Wednesday 2026-11-25 10:00,
searching forward.

The forms are generated from the grammar (a weekday's spellings, the words that join it to a day
of the month, the two orders of a slash date), not copied from any query set: a day of the month
alone ("the 5th", 5号) and with its weekday ("sat the 5th", 周日3号: the weekday chooses the
month), slash dates in the writer's order (month first in the United States and in Chinese, day
first in British English), a weekday beside a week ("friday next week"), several English parts
of the day apart from their day, "before noon", and words of the regional tables (Wuhan 黑了,
Australian "knock off").
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from rag.understand import understand

DENVER = ZoneInfo("America/Denver")
LONDON = ZoneInfo("Europe/London")
SYDNEY = ZoneInfo("Australia/Sydney")
SH = ZoneInfo("Asia/Shanghai")


def read(text: str, tz=DENVER):
    """Return the understanding of ``text`` at the fixed instant, searching forward."""
    return understand(text, now=datetime(2026, 11, 25, 10, tzinfo=tz), direction="future")


def span(text: str, tz=DENVER) -> tuple[datetime, datetime] | None:
    """Return [start, end) of the time ``text`` is searched in, or None."""
    found = read(text, tz).time
    return None if found is None else (found.start, found.end)


def day(month: int, dom: int, start: float = 0, end: float = 24, tz=DENVER, year: int = 2026):
    """Return [start, end) hours of ``dom`` ``month``."""
    midnight = datetime(year, month, dom, tzinfo=tz)
    return midnight + timedelta(hours=start), midnight + timedelta(hours=end)


SATURDAYS = ("saturday", "Saturday", "sat", "Sat.")
JOINS = (" the ", " ", ", the ", ", ")


@pytest.mark.parametrize("weekday, join", list(itertools.product(SATURDAYS, JOINS)))
def test_a_weekday_and_a_day_of_the_month_name_that_date(weekday: str, join: str) -> None:
    assert span(f"{weekday}{join}5th") == day(12, 5)


@pytest.mark.parametrize("text", ["date night saturday the 5th", "saturday the 5th, date night"])
def test_an_evening_beside_a_weekday_and_its_day_of_the_month_narrows_that_date(text) -> None:
    assert span(text) == day(12, 5, 18)


def test_date_night_stays_in_the_text_the_model_reads() -> None:
    assert "date night" in read("date night saturday the 5th").rest


@pytest.mark.parametrize("text", ["the 5th", "on the 5th", "anything on the 5th?"])
def test_the_5th_alone_is_the_next_5th_of_a_month(text: str) -> None:
    assert span(text) == day(12, 5)


@pytest.mark.parametrize("text", ["got the 5th off, what's on", "i have the 5th free, ideas?"])
def test_a_day_of_the_month_said_to_be_free_is_that_date(text: str) -> None:
    assert span(text) == day(12, 5)


@pytest.mark.parametrize(
    "text",
    ["the 5th floor", "on the 5th floor", "for the 2nd time", "5th", "the 5th off-ramp"],
)
def test_an_ordinal_that_ranks_a_noun_is_no_date(text: str) -> None:
    assert read(text).time is None


def test_a_weekday_chooses_the_month_its_day_of_the_month_falls_on_that_weekday() -> None:
    # 3 December 2026 is a Thursday, 3 January 2027 a Sunday.
    assert span("sunday the 3rd") == day(1, 3, year=2027)


def test_a_chinese_weekday_chooses_the_month_as_well() -> None:
    assert span("周日3号", SH) == day(1, 3, tz=SH, year=2027)


@pytest.mark.parametrize("text", ["thursday the 5th", "thu the 5th"])
def test_a_weekday_no_month_ahead_agrees_with_is_read_alone(text) -> None:
    # No Thursday the 5th before February: the weekday, this Thursday, as before days of the
    # month were read (an audit, session 49: "friday the 13th" read Sunday 13 December).
    assert span(text) == day(11, 26)


def test_friday_the_13th_is_this_friday() -> None:
    assert span("friday the 13th horror night") == day(11, 27, 18)


@pytest.mark.parametrize(
    "text",
    [
        "the 5th and 6th",
        "things to do on the 5th and 6th",
        "the 5th to 7th",
        "any gigs on the 5th, 6th or 7th",
        "until the 10th",
        "before the 20th",
        "the 2nd saturday",
        "kids classes ages 5/6",
        "a 10/10 brunch spot",
        "rated 5/5",
        "table for 2/3",
        "room 12/5",
        "7/11便利店",
    ],
)
def test_numbers_in_a_list_a_bound_a_rank_or_a_score_name_no_time(text) -> None:
    # Reading one day of a list, or a score as a date, would filter to the wrong rows (an
    # audit, session 49); none is read, as before dates of numbers were read at all.
    assert span(text) is None


@pytest.mark.parametrize(
    ("text", "tz"), [("12/5-12/7", DENVER), ("12/5 thru 12/7", SH), ("from 12/5 to 12/7", DENVER)]
)
def test_a_range_of_slash_dates_is_one_span(text, tz) -> None:
    assert span(text, tz) == (day(12, 5, tz=tz)[0], day(12, 7, tz=tz)[1])


@pytest.mark.parametrize(("text", "tz"), [("12/5", SH), ("saturday 12/5", LONDON)])
def test_a_slash_date_is_read_in_east_asian_order_and_as_its_weekday_agrees(text, tz) -> None:
    assert span(text, tz) == day(12, 5, tz=tz)


def test_a_knockoff_is_no_time_of_day() -> None:
    assert span("knockoff handbags market saturday") == day(11, 28)


@pytest.mark.parametrize(
    "text, tz, expected",
    [
        ("12/5", DENVER, day(12, 5)),
        ("gigs on 12/5", DENVER, day(12, 5)),
        ("sat 12/5", DENVER, day(12, 5)),
        ("5/12", LONDON, day(12, 5, tz=LONDON)),
        ("sat 5/12", LONDON, day(12, 5, tz=LONDON)),
        # Only one order is a date: that one, whatever the convention.
        ("12/25", LONDON, day(12, 25, tz=LONDON)),
        ("12/5去滑雪", SH, day(12, 5, tz=SH)),
        ("周六12/5", SH, day(12, 5, tz=SH)),
    ],
)
def test_a_slash_date_reads_in_the_writers_order(text: str, tz, expected) -> None:
    assert span(text, tz) == expected


def test_a_slash_date_in_the_other_order_is_another_day() -> None:
    assert span("5/12", DENVER) == day(5, 12, year=2027)


@pytest.mark.parametrize("text", ["open 24/7", "1/2 price tickets", "12/5 gigs", "3/4的人"])
def test_a_fraction_a_count_or_an_idiom_is_no_slash_date(text: str) -> None:
    assert read(text, SH if not text.isascii() else DENVER).time is None


@pytest.mark.parametrize(
    "text", ["friday next week", "next week on friday", "lunchtime on friday next week"]
)
def test_a_weekday_beside_a_week_is_that_weeks_day(text: str) -> None:
    start, end = span(text)
    assert day(12, 4)[0] <= start < end <= day(12, 4)[1]


def test_parts_apart_from_their_day_that_overlap_narrow_it() -> None:
    assert span("3rd of dec, evening, date night") == day(12, 3, 18)


def test_parts_apart_that_do_not_overlap_leave_the_whole_day() -> None:
    assert span("3rd of dec, morning walk then date night") == day(12, 3)


def test_before_noon_is_the_morning() -> None:
    assert span("sunday before noon") == day(11, 29, 6, 12)


def test_one_numeral_after_dian_is_the_next_words_count() -> None:
    assert span("今晚六点四位", SH) == day(11, 25, 18, 19, tz=SH)


def test_two_numerals_after_dian_are_the_minutes() -> None:
    assert span("今晚六点四十", SH) == day(11, 25, 18 + 40 / 60, 19 + 40 / 60, tz=SH)


def test_wuhan_heile_after_a_day_is_its_evening() -> None:
    assert span("明天黑了去哪", SH) == day(11, 26, 18, tz=SH)


def test_heile_alone_is_no_time() -> None:
    assert read("天黑了", SH).time is None


def test_knock_off_beside_a_day_is_after_work() -> None:
    assert span("knock off drinks friday", SYDNEY) == day(11, 27, 17, tz=SYDNEY)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("5号", day(12, 5, tz=SH)),
        ("12月5日", day(12, 5, tz=SH)),
        ("本周六", day(11, 28, tz=SH)),
        ("这礼拜六", day(11, 28, tz=SH)),
        ("下个礼拜天", day(12, 6, tz=SH)),
        ("周六早上", day(11, 28, 5, 10, tz=SH)),
        ("礼拜六过早", day(11, 28, 6, 10, tz=SH)),
        # 早点 is "earlier" (or a snack), never a part of the day: the whole Saturday.
        ("周六早点出门", day(11, 28, tz=SH)),
    ],
)
def test_chinese_day_forms_read_as_meant(text: str, expected) -> None:
    assert span(text, SH) == expected


@pytest.mark.parametrize("text", ["早点", "过早", "早点去哪吃"])
def test_zaodian_and_guozao_alone_are_no_time(text: str) -> None:
    assert read(text, SH).time is None


def test_guozao_stays_in_the_text_the_model_reads() -> None:
    assert "过早" in read("礼拜六过早去哪", SH).rest


@pytest.mark.parametrize(
    "text, expected",
    [
        ("dec 5", day(12, 5)),
        ("5 dec", day(12, 5)),
        ("this sat", day(11, 28)),
        ("next sat", day(12, 5)),
        ("this weekend", (day(11, 28)[0], day(11, 29)[1])),
        ("tonight", (datetime(2026, 11, 25, 18, tzinfo=DENVER), day(11, 26)[0])),
        ("weekend brunch", (day(11, 28, 10)[0], day(11, 29, 14)[0])),
    ],
)
def test_english_day_forms_read_as_meant(text: str, expected) -> None:
    assert span(text) == expected


def test_date_night_alone_is_no_time() -> None:
    assert read("date night ideas").time is None


def test_quarters_of_an_hour_in_figures_are_read_as_in_characters() -> None:
    assert read("晚上7点3刻", SH).times[0].point == datetime(2026, 11, 25, 19, 45, tzinfo=SH)
