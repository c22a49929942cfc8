"""Written shorthand for a time (issue 30, session 56): "wk" / "wks" for week after this / next /
last or a count, and "am" / "pm" after a named day as after a weekday; and the same letters used
otherwise, which stay text.

Every case passes a fixed ``now`` (no clock): Wednesday 2026-11-25 10:00 in London (an American
holiday asked there is the American day, ``rag.understand.holidays``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.rag.time_helpers import LONDON, NOW_LONDON, on, read

MONDAY_NEXT = datetime(2026, 11, 30, tzinfo=LONDON)


@pytest.mark.parametrize(
    ("text", "window", "rest"),
    [
        ("any gigs next wk", (MONDAY_NEXT, MONDAY_NEXT + timedelta(days=7)), "any gigs"),
        ("this wk, anything fun", (NOW_LONDON, MONDAY_NEXT), "anything fun"),
        ("next 2 wks", (NOW_LONDON, NOW_LONDON + timedelta(days=14)), ""),
    ],
)
def test_wk_after_this_next_or_a_count_is_a_week(text, window, rest):
    found = read(text)
    assert [(w.start, w.end) for t in found.times for w in t.windows] == [window]
    assert found.rest == rest


@pytest.mark.parametrize(
    ("text", "window"),
    [
        ("thanksgiving am fun run", on(26, 6, 12, LONDON)),
        ("thanksgiving pm", on(26, 12, 24, LONDON)),
    ],
)
def test_am_or_pm_after_a_named_day_is_its_half(text, window):
    assert [(w.start, w.end) for t in read(text).times for w in t.windows] == [window]


@pytest.mark.parametrize(
    "text",
    [
        # "wk" alone is a count of weeks in a plan, not the current one.
        "wk 3 of my training plan",
        # "am" before a pronoun is the verb; a word starting with "am" is that word.
        "christmas am i right",
        "thanksgiving am i invited anywhere",
        "thanksgiving amateur run",
        # A bare name before another word is a name, as before.
        "thanksgiving fun run",
    ],
)
def test_the_same_letters_used_otherwise_are_no_time(text):
    assert read(text).times == ()


@pytest.mark.parametrize(
    "text", ["xmas am so bored what to do", "thanksgiving am bored af", "sat am gonna be lonely"]
)
def test_am_before_what_the_verb_says_is_the_verb(text):
    # The round's audit (session 56): "am" with its "I" left out, before an adjective or an
    # adverb, is no morning.
    assert not [t for t in read(text).times if "am" in t.text.split()]


def test_wk_end_written_apart_is_no_week():
    assert not read("next wk end camping").times
