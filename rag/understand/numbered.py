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

from rag.understand.dates import counted_after, listed, month_add, safe_date
from rag.understand.holidays import country_of
from rag.understand.words import (
    EN_WEEKDAY_AMBIGUOUS,
    EN_WEEKDAY_SHORT,
    EN_WEEKDAYS,
    ZH_WEEKDAYS,
    rx,
    weekday_index,
)

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
_WEEKDAY_BEFORE = rx(
    r"(?:\b(?:" + _WEEKDAY_WORD + r")\.?,?|(?:周|星期|礼拜)[一二三四五六日天])\s*$"
)
_PREPOSITION = re.compile(r"\b(?:on|by|until|till|from)\s+$")
# What may follow a date of numbers alone: the end of the clause, or a word that is no noun of
# the number (a preposition, a conjunction, a part of the day or a clock time), or the day being
# free ("got the 4th off", "the 12th free?": fresh23's "got the 4th off, what's on" was read
# with no date, session 53).
_DATE_END = rx(
    r"\s*(?:$|[,，.。;；!！?？)）\-–~]|(?:at|for|in|on|from|to|and|or|till|until|through|thru|by|"
    r"after|before|"
    # Off or free ending the clause or before "work" / "then" ("got the 4th off, what's on");
    # not "the 1st free class", "take the 5th off the list" (an audit, session 53).
    r"(?:off|free)(?=\s*(?:$|[,，.。!！?？;；]|(?:work|then|and|so|anything|what)\b))|"
    r"around|with|if|please|pls|morning|afternoon|evening|night|nite|arvo|lunch|dinner|"
    r"brunch|breakfast|\d{1,2}(?::\d\d)?\s*[ap]\.?m)\b)"
)
# Countries whose usage writes the month first (12/5 = 5 December): the United States and Canada
# in English; China, Hong Kong, Macau, Taiwan, Japan and Korea, which write year/month/day (an
# audit, session 49: "12/5" asked in Shanghai without a Chinese character read 12 May).
_MONTH_FIRST_COUNTRIES = frozenset({"US", "CA", "CN", "HK", "MO", "TW", "JP", "KR"})
_CJK = re.compile(r"[\u4e00-\u9fff]")
# In Chinese text a date runs into the next word (12/5去滑雪, 12/5晚上); a fraction or a count
# does too, and is told by the word after it (3/4的人, 1/2价, 2/3个).
_ZH_AFTER_DATE = re.compile(r"\s*[\u4e00-\u9fff](?<![的人个位折价倍成份])")


def _month_days(day: int, today: date):
    """Return the date rule of a day of the month, the month unnamed (k months on)."""

    def of_month(k: int) -> list[date] | None:
        first = month_add(today, k)
        return listed(safe_date(first.year, first.month, day))

    return of_month


# A date of numbers in a list or a range ("the 5th and 6th", "12/5-12/7", "the 5th through the
# 7th") or bounded by a word this reader does not read ("before the 20th", "until the 10th",
# "the weekend of the 12th"): reading one of its days would filter to the wrong ones, so none
# is read (an audit, session 49), as before dates of numbers were read at all.
_LIST_NEXT = rx(
    r"\s*(?:,|&|and|or)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th|/\d)?\b"
    # A range to a day this reader leaves unread ("the 5th to 7th": the 7th has no "the"); a
    # range to one it reads ("from 12/5 to 12/7") is joined as one span (rag.understand).
    r"|\s*(?:to|through|thru|till|until|-|–|~)\s*\d{1,2}(?:st|nd|rd|th)\b"
)
_LIST_BEFORE = rx(
    r"(?:\d(?:st|nd|rd|th)?|\d/\d{1,2})\s*(?:,|&|and|or)\s*(?:the\s+)?$"
    r"|\b(?:before|after|around|since|until|till|of|ages?|rated|scored?|room|table\s+for)"
    r"\s+(?:the\s+)?$"
)
# Slash numbers that are no date: the idioms 24/7 and 9/11, a score or a rating ("a 10/10
# brunch spot", "rated 5/5"), the shop 7/11.
_NOT_SLASH_DATE = frozenset({"24/7", "9/11", "10/10", "5/5", "7/11", "4/4", "3/3", "1/1"})


_BOUND_CUE = rx(r"^(?:until|till|by)\b")
_NTH_WEEKDAY_BEFORE = rx(r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\s+$")


def in_list(match: re.Match) -> bool:
    """Return whether a date of numbers is one of a list or range, or bounded by a word the
    reader does not read (see ``_LIST_NEXT``)."""
    text = match.string
    return bool(
        _LIST_NEXT.match(text, match.end())
        or _LIST_BEFORE.search(text[: match.start()])
        or _BOUND_CUE.match(match.group(0))
    )


def nth_weekday(match: re.Match) -> bool:
    """Return whether a weekday is the Nth of its month ("the 2nd saturday"): this reader reads
    no such day, and the weekday alone would be the wrong one."""
    return bool(_NTH_WEEKDAY_BEFORE.search(match.string[: match.start()]))


def _nth_is_date(match: re.Match) -> bool:
    text = match.string
    if in_list(match) or re.match(r"\s*(?:" + _WEEKDAY_WORD + r")\b", text[match.end() :], re.I):
        return False  # "the 2nd saturday" is a weekday of the month, not the 2nd
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
    if f"{first}/{second}" in _NOT_SLASH_DATE or counted_after(text, match.end()):
        return None
    if in_list(match):
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
    labelled = _WEEKDAY_BEFORE.search(before)
    if labelled and not year:
        # "saturday 12/5" in London: the order on which the date is that weekday (5 December).
        weekday = _weekday_named(labelled.group(0))
        valid.sort(key=lambda md: _next_date(today, *md).weekday() != weekday)
    month, day = valid[0]
    if year:
        full = int(year) + (2000 if len(year) == 2 else 0)
        found = safe_date(full, month, day)
        return (None, lambda k: [found], None) if found else None
    return "year", (lambda k: listed(safe_date(today.year + k, month, day))), None


def _weekday_named(words: str) -> int | None:
    """Return the weekday (Monday 0) a weekday label before a date names."""
    words = words.strip().rstrip(".,").lower()
    if words and words[-1] in ZH_WEEKDAYS:
        return ZH_WEEKDAYS[words[-1]]
    return weekday_index(words.split()[-1]) if words else None


def _next_date(today: date, month: int, day: int) -> date:
    """Return the first month/day on or after ``today`` (today's year, else the next)."""
    found = safe_date(today.year, month, day)
    if found is None or found < today:
        found = safe_date(today.year + 1, month, day)
    return found or today


def agreeing(date_data: tuple, weekday: int, today: date) -> tuple | None:
    """Return a date atom's data chosen by a weekday that labels it: a day of an unnamed month
    falls on the first of its months where it is that weekday (searched two months ahead, as
    every repeating phrase is); None when no month ahead agrees ("friday the 13th" on 25
    November 2026: no Friday the 13th before February), and the weekday is read alone, as
    before days of the month were read (an audit, session 49: it read Sunday 13 December). A
    month named decides ("sat dec 5")."""
    cycle, rule, implied = date_data
    if cycle != "month":
        return date_data

    def agrees(k: int) -> list[date] | None:
        days = rule(k)
        return days if days and days[0].weekday() == weekday else None

    if not any((days := agrees(k)) and days[0] >= today for k in range(0, 3)):
        return None
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
