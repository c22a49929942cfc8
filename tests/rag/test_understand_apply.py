"""Deciding from counts what a search does with an understood window or place cue."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.understand import Window
from rag.understand.apply import closeness, decide_time, intersect

SH = ZoneInfo("Asia/Shanghai")
FRIDAY_EVENING = Window(datetime(2026, 11, 27, 18, tzinfo=SH), datetime(2026, 11, 28, tzinfo=SH))


def test_intersect_cuts_the_window_to_the_callers_filter():
    cut = intersect(FRIDAY_EVENING, None, datetime(2026, 11, 27, 21, tzinfo=SH))
    assert (cut.start, cut.end) == (FRIDAY_EVENING.start, datetime(2026, 11, 27, 21, tzinfo=SH))


def test_intersect_of_disjoint_spans_is_none():
    assert intersect(FRIDAY_EVENING, datetime(2026, 12, 1, tzinfo=SH), None) is None


def test_rows_in_the_window_narrow_the_filter():
    decision = decide_time(window=FRIDAY_EVENING, inside=4, total=30)
    assert decision.mode == "narrow" and decision.window == FRIDAY_EVENING


def test_an_empty_window_with_other_rows_ranks_instead():
    assert decide_time(window=FRIDAY_EVENING, inside=0, total=30).mode == "rank"


def test_nothing_anywhere_narrows_to_an_honest_empty_answer():
    assert decide_time(window=FRIDAY_EVENING, inside=0, total=0).mode == "narrow"


def test_no_window_changes_nothing():
    assert decide_time(window=None, inside=0, total=30).mode == "none"


def test_meta_names_the_phrase_the_mode_and_the_window():
    meta = decide_time(window=FRIDAY_EVENING, inside=0, total=3).as_meta("周五晚上")
    assert meta["phrase"] == "周五晚上" and meta["applied"] == "rank"
    assert meta["start"] == "2026-11-27T18:00:00+08:00"


def test_closeness_is_one_inside_and_half_one_window_length_away():
    assert closeness(datetime(2026, 11, 27, 20, tzinfo=SH), FRIDAY_EVENING) == 1.0
    # The evening is 6 hours, so the scale is the one-day minimum.
    assert closeness(datetime(2026, 11, 29, tzinfo=SH), FRIDAY_EVENING) == pytest.approx(0.5)


@settings(max_examples=200, deadline=None)
@given(
    near=st.integers(min_value=0, max_value=10**6),
    further=st.integers(min_value=1, max_value=10**6),
    before=st.booleans(),
)
def test_closeness_falls_with_distance(near, further, before):
    sign = -1 if before else 1
    edge = FRIDAY_EVENING.start - timedelta(seconds=1) if before else FRIDAY_EVENING.end

    def at(seconds):
        return edge + timedelta(seconds=sign * seconds)

    assert 0 < closeness(at(near + further), FRIDAY_EVENING) < closeness(at(near), FRIDAY_EVENING)
