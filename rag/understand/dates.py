"""Date arithmetic of the time reader: months added, dates that may not exist, a month or a
part of it as a range of days (used by ``rag.understand.scan``)."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from rag.understand.words import MONTH_PARTS


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
