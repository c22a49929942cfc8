"""Helpers of the time-reading tests: a fixed ``now`` (Wednesday 2026-11-25 10:00, Shanghai for
Chinese phrases, London for English ones) and the windows expected, so no test reads the clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from rag.understand import understand

SH = ZoneInfo("Asia/Shanghai")
LONDON = ZoneInfo("Europe/London")
NOW_SH = datetime(2026, 11, 25, 10, tzinfo=SH)
NOW_LONDON = datetime(2026, 11, 25, 10, tzinfo=LONDON)


def read(text: str, direction: str = "future"):
    """Return the reading of ``text`` (Chinese: Shanghai, else London)."""
    now = NOW_LONDON if text.isascii() else NOW_SH
    return understand(text, now=now, direction=direction)


def windows(text: str, direction: str = "future") -> list[tuple[datetime, datetime]]:
    """Return the windows of the one time phrase of ``text`` (Chinese: Shanghai, else London)."""
    found = read(text, direction)
    assert len(found.times) == 1, (text, found.times)
    return [(w.start, w.end) for w in found.times[0].windows]


def on(day: int, start: float, end: float, tz=SH) -> tuple[datetime, datetime]:
    """Return [start, end) hours of November ``day`` 2026 (31: 1 December; end past 24: the
    next day)."""
    midnight = datetime(2026, 11, 1, tzinfo=tz) + timedelta(days=day - 1)
    return midnight + timedelta(hours=start), midnight + timedelta(hours=end)
