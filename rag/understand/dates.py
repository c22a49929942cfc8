"""Date arithmetic of the time reader: months added, dates that may not exist, a month or a
part of it as a range of days, and which English month-and-number matches are dates (used by
``rag.understand.scan``)."""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from rag.understand.words import (
    EN_MONTHS,
    EN_WEEKDAY_AMBIGUOUS,
    EN_WEEKDAY_SHORT,
    EN_WEEKDAYS,
    MONTH_PARTS,
)


def month_add(day: date, months: int) -> date:
    """Return the first day of the month ``months`` after ``day``'s month."""
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def safe_date(year: int, month: int, day: int) -> date | None:
    """Return that date, or None when it does not exist (2月30日)."""
    try:
        return date(year, month, day)
    except ValueError:
        return None


def month_range(first: date, part: str | None) -> tuple[date, date]:
    """Return [first day, day after the last] of a month, or of a part of it (月初, late)."""
    last = calendar.monthrange(first.year, first.month)[1]
    if not part:
        return first, first.replace(day=last) + timedelta(days=1)
    lo, hi = MONTH_PARTS[part]
    lo = last + lo + 1 if lo < 0 else lo
    hi = last + hi + 1 if hi < 0 else hi
    return first.replace(day=lo), first.replace(day=hi) + timedelta(days=1)


def listed(found: date | None) -> list[date] | None:
    """Return ``[found]``, or None when there is no such date."""
    return [found] if found else None


# A month's short name beside a number is a date only where the number cannot be a count or the
# name another word (general English usage; audit, session 42: "apr 5% loan", "jan 3 results",
# "top 5 mar picks", "table for 2 jan and mike"):
# - never before a percentage or a counted noun ("5% loan", "2 weeks ago", "3 results", "8 pax");
# - jan (a name) and mar ("to spoil") month first only with their dot ("Jan. 3"), an ordinal
#   ("jan 3rd"), a year, or the end of the phrase (a comma, the end of the query);
# - day first ("5 dec") only at the start of the query or a clause, or after on / by / until /
#   till / from / the, a weekday ("sat 5 dec") or another date's to / and / or ("3 dec to 5
#   dec"), as dates are written; "for 2 jan" is a count.
_COUNTED = re.compile(
    r"\s*(?:%|percent\b|(?:weeks?|days?|months?|years?|hours?|hrs?|mins?|minutes?|people|"
    r"persons?|ppl|pax|guests?|adults?|kids?|results?|times?|items?|pcs|tickets?|seats?|of)\b)"
)
_NAME_WORD = frozenset({"jan", "mar"})
_PHRASE_END = re.compile(r"\s*(?:[,，.。;；!！?？)）]|$)")
_DAY_FIRST_CUE = re.compile(
    r"(?:^|[,，.。;；!！?？:：(（-]\s*|\b(?:on|by|until|till|from|the|to|through|thru|and|or|"
    + "|".join((*EN_WEEKDAYS, *EN_WEEKDAY_SHORT, *EN_WEEKDAY_AMBIGUOUS))
    + r")\.?,?\s+)$"
)


def counted_after(text: str, end: int) -> bool:
    """Return whether a counted noun or a percentage follows position ``end`` ("5% loan", "3
    results": the number before it is a count, not a day)."""
    return _COUNTED.match(text, end) is not None


def short_month_date(match: re.Match) -> bool:
    """Return whether an ``en_date`` match is a date (see above: a whole month name before a
    counted noun is no date either: "may 5 people")."""
    text, whole = match.string, match.group(0)
    if _COUNTED.match(text, match.end()):
        return False
    if (match.group(1) or match.group(4)) in EN_MONTHS:
        return True
    if match.group(1):  # month first: "dec 5"
        return (
            match.group(1) not in _NAME_WORD
            or "." in whole
            or bool(re.search(r"\d(?:st|nd|rd|th)", whole) or match.group(5))
            or _PHRASE_END.match(text, match.end()) is not None
        )
    return _DAY_FIRST_CUE.search(text[: match.start(3)]) is not None
