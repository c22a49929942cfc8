"""Dates written by their numbers alone, and a weekday that labels one (issue 30, session 49).

- An English ordinal is a day of the month where nothing makes it a count or a rank: right
  after a weekday ("saturday the 5th", "sat 5th"), or with "the" before it and nothing after it
  but the end of the clause or a small word ("on the 5th", "the 21st?", "the 5th at 8";
  not "the 5th floor", "for the 2nd time", "5th avenue").
- A slash date ("12/5", "5/12", "12/5/2026", 12/5去滑雪) reads its numbers in the order of the
  writer's convention: month first in Chinese text (12/5 = 12月5日, as Chinese dates are written)
  and for an English query in the United States or Canada (their usual order); day first for any
  other English query (British, Irish, Australian, New Zealand, South African, Singaporean
  usage). When only one order is a real date ("12/25" in London) that order is read. Only
  where a date is meant: a weekday or on / by / until / from before it, or after it the end of
  the clause, a small word or a time word (in Chinese, any word but a count's: 3/4的人, 1/2价);
  never before a counted noun ("1/2 price"), and never the idioms 24/7 and 9/11.
- A weekday beside a date with no month ("saturday the 5th", 周六5号) chooses among the
  date's months the first one on which the date falls on that weekday (Saturday 5 December,
  not the 5th of a month where it is a Thursday); when no searched month agrees, the date
  decides, as it does beside a named month ("sat dec 5").

Written from English and Chinese date usage after fresh19's "date night saturday the 5th" (read
as this Saturday, answered empty) had been seen; no form is a query's wording.
"""

from __future__ import annotations

import re
from datetime import date, timedelta, tzinfo

from rag.understand.dates import counted_after, month_add, safe_date
from rag.understand.holidays import country_of
from rag.understand.words import EN_WEEKDAY_AMBIGUOUS, EN_WEEKDAY_SHORT, EN_WEEKDAYS, rx

_WEEKDAY_WORD = "|".join(
    sorted({*EN_WEEKDAYS, *EN_WEEKDAY_SHORT, *EN_WEEKDAY_AMBIGUOUS}, key=len, reverse=True)
)
# The ordinal with its optional cue; group 1 "the", group 2 the day.
_NTH = rx(r"\b(?:(?:on|by|until|till|from|for)\s+)?(the\s+)?(\d{1,2})(?:st|nd|rd|th)\b")
# A slash date: month/day or day/month, an optional year; not inside a longer number, a
# fraction of a fraction, a clock or a decimal.
_SLASH = rx(
    r"(?<![\d/.:])(?:(?:on|by|until|till|from)\s+)?(?:the\s+)?"
    r"(\d{1,2})/(\d{1,2})(?:/((?:19|20)?\d\d))?(?![\d/%]|\.\d)"
)
NUMBERED_PATTERNS = [("en_nth", _NTH), ("slash_date", _SLASH)]
NUMBERED_KINDS = frozenset(kind for kind, _pattern in NUMBERED_PATTERNS)
_IDIOMS = frozenset({"24/7", "9/11"})
_WEEKDAY_BEFORE = rx(
    r"(?:\b(?:" + _WEEKDAY_WORD + r")\.?,?|(?:周|星期|礼拜)[一二三四五六日天])\s*$"
)
_PREPOSITION = re.compile(r"\b(?:on|by|until|till|from)\s+$")
# What may follow a date of numbers alone: the end of the clause, or a word that is no noun of
# the number (a preposition, a conjunction, a part of the day or a clock time).
_DATE_END = rx(
    r"\s*(?:$|[,，.。;；!！?？)）]|(?:at|for|in|on|from|to|and|or|till|until|by|after|before|"
    r"around|with|if|please|pls|morning|afternoon|evening|night|nite|arvo|lunch|dinner|"
    r"brunch|breakfast|\d{1,2}(?::\d\d)?\s*[ap]\.?m)\b)"
)
# Countries whose English writes the month first (12/5 = 5 December).
_MONTH_FIRST_COUNTRIES = frozenset({"US", "CA"})
_CJK = re.compile(r"[\u4e00-\u9fff]")
# In Chinese text a date runs into the next word (12/5去滑雪, 12/5晚上); a fraction or a count
# does too, and is told by the word after it (3/4的人, 1/2价, 2/3个).
_ZH_AFTER_DATE = re.compile(r"\s*[\u4e00-\u9fff](?<![的人个位折价倍成份])")


def _month_days(day: int, today: date):
    """Return the date rule of a day of the month, the month unnamed (k months on)."""

    def of_month(k: int) -> list[date] | None:
        first = month_add(today, k)
        found = safe_date(first.year, first.month, day)
        return [found] if found else None

    return of_month


def _nth_is_date(match: re.Match) -> bool:
    text = match.string
    if _WEEKDAY_BEFORE.search(text[: match.start()]):
        return True
    # Without a weekday: "the 5th" and nothing after it that it could rank ("the 5th floor",
    # "on the 5th floor", "for the 2nd time" are no dates).
    return bool(match.group(1)) and _DATE_END.match(text, match.end()) is not None


def _month_first(text: str, tz: tzinfo) -> bool:
    """Return whether a slash date in ``text`` writes the month first (the module docstring)."""
    return bool(_CJK.search(text)) or country_of(tz) in _MONTH_FIRST_COUNTRIES


def numbered_atom(kind: str, match: re.Match, today: date, tz: tzinfo) -> tuple | None:
    """Return (cycle, DateRule, implied part) of a date written by its numbers, or None."""
    text = match.string
    if kind == "en_nth":
        day = int(match.group(2))
        if not 1 <= day <= 31 or not _nth_is_date(match):
            return None
        return "month", _month_days(day, today), None
    first, second, year = int(match.group(1)), int(match.group(2)), match.group(3)
    if f"{first}/{second}" in _IDIOMS or counted_after(text, match.end()):
        return None
    before = text[: match.start()]
    cue = _PREPOSITION.search(before) or _WEEKDAY_BEFORE.search(before)
    zh_after = _CJK.search(text) and _ZH_AFTER_DATE.match(text, match.end())
    if not (cue or zh_after or _DATE_END.match(text, match.end())):
        return None
    orders = [(first, second), (second, first)]
    if not _month_first(text, tz):
        orders.reverse()
    valid = [(m, d) for m, d in orders if 1 <= m <= 12 and 1 <= d <= 31]
    if not valid:
        return None
    month, day = valid[0]
    if year:
        full = int(year) + (2000 if len(year) == 2 else 0)
        found = safe_date(full, month, day)
        return (None, lambda k: [found], None) if found else None
    return "year", (lambda k: _listed(safe_date(today.year + k, month, day))), None


def _listed(found: date | None) -> list[date] | None:
    return [found] if found else None


def agreeing(date_data: tuple, weekday: int, today: date) -> tuple:
    """Return a date atom's data chosen by a weekday that labels it: a day of an unnamed month
    falls on the first of its months where it is that weekday (searched two months ahead, as
    every repeating phrase is); with no such month ahead, or a month named, the date as it
    was ("thursday the 5th" on 25 November: the 5th of December, the one Thursday the 5th
    being over)."""
    cycle, rule, implied = date_data
    if cycle != "month":
        return date_data

    def agrees(k: int) -> list[date] | None:
        days = rule(k)
        return days if days and days[0].weekday() == weekday else None

    if not any((days := agrees(k)) and days[0] >= today for k in range(0, 3)):
        return date_data
    return cycle, agrees, implied


def weekday_of(day_data: tuple) -> int | None:
    """Return the weekday a weekday atom names (0 = Monday)."""
    try:
        days = day_data[1](0)
    except (ValueError, OverflowError):
        return None
    return days[0].weekday() if days and len(days) == 1 else None


def in_week(day_data: tuple, monday: date) -> tuple:
    """Return a weekday's data fixed to the week starting ``monday`` ("friday next week")."""
    weekday = weekday_of(day_data)
    if weekday is None:
        return day_data
    found = monday + timedelta(days=weekday)
    return None, lambda k: [found], day_data[2]
