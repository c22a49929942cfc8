"""A day or a week nearly over when asked for also means its next occurrence (周日 asked at 21:00
on Sunday): ``rag.understand.time.ENDING_SHARE``."""

from __future__ import annotations

from datetime import datetime

import pytest

from rag.understand import understand
from tests.rag.time_helpers import SH, on

SUNDAY_EVENING = datetime(2026, 11, 29, 21, tzinfo=SH)


def _windows(text: str, now: datetime, *, next_when_ending: bool = True) -> list:
    found = understand(text, now=now, direction="future", next_when_ending=next_when_ending)
    assert len(found.times) == 1, (text, found.times)
    return [(w.start, w.end) for w in found.times[0].windows]


def test_sunday_asked_on_sunday_evening_is_the_hours_left_and_next_sunday():
    assert _windows("周日有什么活动", SUNDAY_EVENING) == [on(29, 21, 24), on(36, 0, 24)]


def test_the_weekend_asked_on_sunday_evening_is_also_the_next_weekend():
    assert _windows("周末去哪玩", SUNDAY_EVENING) == [on(29, 21, 24), on(35, 0, 48)]


def test_the_evening_asked_late_runs_into_tomorrow_evening():
    late = datetime(2026, 11, 25, 23, tzinfo=SH)
    assert _windows("晚上有什么好玩的", late) == [on(25, 23, 24), on(26, 18, 24)]


@pytest.mark.parametrize(
    ("text", "now", "expected"),
    [
        # Most of the day left: today alone.
        ("周三有什么活动", datetime(2026, 11, 25, 10, tzinfo=SH), [on(25, 10, 24)]),
        # "this Sunday" said on it is today, however late.
        ("这周日有什么活动", SUNDAY_EVENING, [on(29, 21, 24)]),
        ("this sunday anything fun", SUNDAY_EVENING, [on(29, 21, 24)]),
        # A clock time decides.
        ("周日晚上十一点半", datetime(2026, 11, 29, 23, tzinfo=SH), [on(29, 23.5, 24.5)]),
    ],
)
def test_a_day_with_time_left_named_as_this_or_with_a_clock_is_that_day_alone(text, now, expected):
    assert _windows(text, now) == expected


def test_read_for_anything_but_a_search_the_day_nearly_over_is_that_day_alone():
    found = _windows("组织一个周日的飞盘局", SUNDAY_EVENING, next_when_ending=False)
    assert found == [on(29, 21, 24)]
