"""Clock times: the patterns that find them (English with am / pm or a colon, a bare English
hour beside a day, an hour after "after", Chinese 点) and what each one reads as
(:func:`clock_atom`).

Split out of ``rag.understand.words`` (the patterns) and ``rag.understand.scan`` (the atom),
which read them; ``rag.understand.time`` reads the hours with their part of the day.
"""

from __future__ import annotations

import re

from rag.understand.numbers import cn_number
from rag.understand.words import NUMERAL, rx

# The kind of an English hour said without am / pm ("at 8"), and of one after "after" ("fri
# after 6"): each a time only beside a day or a part (CLOCK_JOINED, rag.understand.scan).
BARE_CLOCK = "en_bare_clock"
BOUND_HOUR = "en_bound_hour"
CLOCK_JOINED = frozenset({BARE_CLOCK, BOUND_HOUR})
# A part of the day said beside a bare hour ("at 8 tonight", "tonight at 8", "at 9 in the
# morning", "friday night at 9"): without one, a bare 7-11 is either half of the day and no hour
# ("drinks friday at 9" is all of Friday: session 55's audit found it read 09:00).
_PART_BEFORE_HOUR = re.compile(
    r"\b(?:tonight|tonite|2nite|morning|evening|night|nite|afternoon|arvo)\s*,?\s*$", re.I
)
_PART_AFTER_HOUR = re.compile(
    r"^\s*,?\s*(?:tonight|tonite|2nite|(?:in\s+the\s+|this\s+|tomorrow\s+|tmrw\s+|\w+day\s+)?"
    r"(?:morning|evening|night|nite|afternoon|arvo))\b",
    re.I,
)


def bare_hour_read(match: re.Match, hour: int) -> bool:
    """Return whether a bare English hour ("at 8") names its hour: 1-6 and 12 always (the
    afternoon and noon, as a bare Chinese 1-6 点), 7-11 only with a part of the day beside it."""
    if not 7 <= hour <= 11:
        return True
    text = match.string
    return bool(
        _PART_BEFORE_HOUR.search(text[: match.start()])
        or _PART_AFTER_HOUR.match(text[match.end() :])
    )


# A bound before or after a clock time: from then on ("after 8pm", "8pm onwards", 八点以后) or
# until then ("before 3pm", "by 3pm", 三点前); the window then runs to the end of the part of
# the day (or the day), or from its start (rag.understand.time).
# What a number after "after" counts when it is no clock time: a duration, a distance, a count
# of people or things in a row, an ordinal's ending, an "of" ("after 2 of us").
_UNIT_AFTER_HOUR = (
    r"(?:hours?|hrs?|h|minutes?|mins?|m|days?|weeks?|wks?|months?|years?|yrs?|km|k|miles?|mi"
    r"|people|ppl|persons?|stops?|rounds?|laps?|goes|times?|st|nd|rd|th|of)"
)
_EN_BOUND = r"(?:(?:(?P<after>after|from|past)|(?P<before>before|by|until|till))\s+)?"
_EN_BOUND_AFTER = r"(?:\s+(?P<onwards>onwards?|or\s+later|and\s+later))?"
CLOCK_PATTERNS = [
    (
        "colon",
        rx(
            r"(?<![\d:])"
            + _EN_BOUND
            + r"(?:at\s+)?(?P<hour>\d{1,2})[:：](?P<minute>\d{2})(?![\d:])"
            + r"(?:\s*(?P<half>[ap])\.?m\b\.?)?"
            + _EN_BOUND_AFTER
        ),
    ),
    (
        "en_clock",
        rx(
            r"\b"
            + _EN_BOUND
            + r"(?:at\s+)?(?P<hour>\d{1,2})\s*(?P<half>[ap])\.?m\b\.?"
            + _EN_BOUND_AFTER
        ),
    ),
    # A bare hour ("at 8", "8 o'clock") is a time only beside a day or a part of the day ("at 8
    # tonight", "tomorrow at 7", "sat at 3": CLOCK_JOINED, read by rag.understand.scan
    # _not_alone); alone "at 8" is as often an age, a count or an address.
    (
        BARE_CLOCK,
        rx(
            r"\b(?:at\s+(?P<hour>\d{1,2})(?:\s*o'?\s*clock)?|(?P<oclock>\d{1,2})\s*o'?\s*clock)"
            r"(?![\d:.]|\s*(?:[ap]\.?m\b|%|h\b|hrs?\b|hours?\b|years?\b|yrs?\b|yo\b"
            r"|people\b|persons?\b|of\s+us\b|guests?\b|min\b|mins\b|minutes?\b))"
        ),
    ),
    # A bare hour after "after" / "from" / "past" ("fri after 6"), a time only beside a day
    # (scan: alone it is no time). Read as Chinese reads a bare 1-6 点 (the afternoon: no one
    # goes out "after 3 a.m."), 12 as noon; 7-11 could be either half and stay unread (scan).
    # Not before a unit ("after 2 hours", "from 5 km", "past 3 stops"), a minute or an ordinal.
    # Issue 30, session 55, after fresh13's "fri after 6 drinks with pals" had been seen.
    (
        BOUND_HOUR,
        rx(
            # Not an age after the children it is of ("kids from 3": session 55's audit).
            r"(?<!kids\s)(?<!children\s)(?<!ages\s)(?<!aged\s)(?<!age\s)(?<!boys\s)(?<!girls\s)"
            r"\b(?P<after>after|from|past)\s+(?P<hour>\d{1,2})(?![\d:.]|\s*(?:[ap]\.?m\b|%|"
            + _UNIT_AFTER_HOUR
            + r"\b))(?:\s*o'?clock\b)?"
        ),
    ),
    (
        "zh_clock",
        rx(
            r"(?P<hour>" + NUMERAL + r")点(?:钟)?"
            # A minute is 分 after it or two numerals (六点零五, 六点四十, 六点十): one numeral
            # alone is the next word's (六点四位 is six o'clock, four people; session 49).
            r"(?P<extra>半|[1一]刻|[3三]刻|(?P<minute>" + NUMERAL + r")"
            r"(?:分|(?<=[0-9零〇一二两三四五六七八九十]{2})|(?<=十)))?"
            r"(?:(?P<zafter>以后|之后|往后|后)|(?P<zbefore>以前|之前|前))?"
        ),
    ),
]


def clock_atom(kind: str, match: re.Match) -> tuple | None:
    """Return (hour, minute, am/pm, bare, bound) of a clock time; bare: an hour said with no
    am / pm (三点, "at 3"), whose 1-6 is the afternoon without a part of the day; bound is
    "after" (from it on), "before" (until it) or None (the hour from it)."""
    g = match.groupdict()
    if kind == "colon":
        hour, minute, half = int(g["hour"]), int(g["minute"]), g["half"]
    elif kind == "en_clock":
        hour, minute, half = int(g["hour"]), 0, g["half"]
    elif kind == BARE_CLOCK:
        hour, minute, half = int(g["hour"] or g["oclock"]), 0, None
        if not bare_hour_read(match, hour):
            return None  # "drinks friday at 9": either half of the day
    elif kind == BOUND_HOUR:
        hour, minute = int(g["hour"]), 0
        if not (1 <= hour <= 6 or hour == 12):
            return None  # "after 8": morning or evening, unread (words.CLOCK_PATTERNS)
        half = "p"
    else:
        hour = cn_number(g["hour"])
        extra = g["extra"] or ""
        minute = {"半": 30, "一刻": 15, "1刻": 15, "三刻": 45, "3刻": 45}.get(extra)
        if minute is None:
            minute = cn_number(g["minute"]) if g["minute"] else 0
        half = None
    if hour is None or minute is None or minute > 59:
        return None
    if half and not 1 <= hour <= 12:
        return None
    if hour > 24 or (hour == 24 and minute):
        return None
    after = g.get("after") or g.get("onwards") or g.get("zafter")
    before = g.get("before") or g.get("zbefore")
    bound = "after" if after else ("before" if before else None)
    return hour, minute, half, kind in ("zh_clock", BARE_CLOCK), bound
