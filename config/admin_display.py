"""Helpers for admin columns: long text shortened, times in the admin's time zone.

A changelist column holding a title, a URL or a message shows at most :data:`SHORT_CHARS`
characters (the full text is on the change page), so that no table is wider than the screen.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format

SHORT_CHARS = 60


def shorten(text, limit: int = SHORT_CHARS) -> str:
    """Return ``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def local_datetime(value: datetime | str | None) -> str:
    """Return an aware datetime (or its ISO text) in the current time zone, to the second.

    ``2026-11-25 18:30:05 +0800``: the same in every language, no microseconds; "" for None.
    """
    if not value:
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, "Y-m-d H:i:s O" if timezone.is_aware(value) else "Y-m-d H:i:s")
