"""Hours said beside a day (issue 30, session 55): Cantonese and written 夜 after a day, English
"early" closing the clause after a day, "late" before a day and its part, a meal's before and
after ("saturday before lunch"), and a bare hour after "after" / "from" / "past" ("fri after
6"); and the same words used as other words, which stay text.

Every case passes a fixed ``now`` (no clock): Wednesday 2026-11-25 10:00, Shanghai for the
Chinese phrases and London for the English ones.
"""

from __future__ import annotations

import pytest

from tests.rag.time_helpers import LONDON, on, read


# Wednesday 25th: Thursday 26, Friday 27, Saturday 28, Sunday 29.
@pytest.mark.parametrize(
    ("text", "window", "rest"),
    [
        ("礼拜五夜 想饮两杯", on(27, 18, 24), "想饮两杯"),
        ("周五夜", on(27, 18, 24), ""),
        ("听日夜去边度", on(26, 18, 24), "去边度"),
        ("今日夜有乜好玩", on(25, 18, 24), "有乜好玩"),
        ("tomorrow early, something to get me moving", on(26, 5, 9, LONDON), ""),
        ("saturday early", on(28, 5, 9, LONDON), ""),
        ("what can the weans do saturday before lunch", on(28, 6, 12, LONDON), ""),
        ("sunday before dinner", on(29, 12, 18, LONDON), ""),
        ("sunday after breakfast", on(29, 8, 12, LONDON), ""),
        ("fri after 6 drinks with pals", on(27, 18, 24, LONDON), "drinks with pals"),
        ("saturday from 2", on(28, 14, 24, LONDON), ""),
        ("friday after 6 o'clock", on(27, 18, 24, LONDON), ""),
        ("saturday after 12", on(28, 12, 24, LONDON), ""),
        ("late on saturday night, out dancing", on(28, 22, 26, LONDON), "out dancing"),
        ("late friday afternoon", on(27, 15, 18, LONDON), ""),
        ("staying up late saturday night", on(28, 22, 26, LONDON), "staying up"),
    ],
)
def test_hours_said_beside_a_day_narrow_it(text, window, rest):
    found = read(text)
    assert [(w.start, w.end) for t in found.times for w in t.windows] == [window]
    if rest:
        assert found.rest.endswith(rest)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        # 夜 beginning a word after a day is that word, not the night.
        ("周五夜跑", "周五"),
        ("周六夜市逛逛", "周六"),
        ("周六夜宵", "周六"),
        ("周日夜景", "周日"),
        ("周六夜泳", "周六"),
        ("周末夜排档推荐", "周末"),
        # "early" before a word says how early, not when.
        ("saturday early bird tickets", "saturday"),
        ("tomorrow early start at the gym", "tomorrow"),
        # A number after "after" that counts something is no clock time.
        ("friday after 2 hours of work", "friday"),
        ("sunday after 5k run", "sunday"),
        ("saturday after 3 rounds", "saturday"),
        # A bare 7 to 11 could be the morning or the evening: unread.
        ("sat after 8", None),
        # Late after a verb of being or running is arriving late, not the late night.
        ("i'm running late on saturday night", "on saturday night"),
        ("we'll be late friday night", "friday night"),
        # "late" with no part after its day is no part.
        ("late friday", "friday"),
    ],
)
def test_the_same_words_used_otherwise_leave_the_day_or_its_part_as_it_was(text, phrase):
    found = read(text)
    assert [t.text for t in found.times] == ([phrase] if phrase else [])
    for t in found.times:
        assert t.start.hour in (0, 18)  # the whole day, or its evening as "night" alone reads


@pytest.mark.parametrize(
    "text",
    ["夜", "黑夜里的星星", "i want to leave work early.", "after 6 drinks", "drinks before dinner"],
)
def test_alone_they_are_no_time(text):
    assert read(text).times == ()
