"""Read the live settings row, cached per process and invalidated on save.

Another process sees a saved change after at most ``TTL_SECONDS`` (each process
caches on its own; the saving process drops its copy at once).
"""

from __future__ import annotations

import threading
import time

TTL_SECONDS = 2.0
_lock = threading.Lock()
_cached = None
_cached_at = 0.0


def get_settings():
    """Return the live settings (creating the row with defaults on first use)."""
    global _cached, _cached_at
    now = time.monotonic()
    with _lock:
        if _cached is not None and now - _cached_at < TTL_SECONDS:
            return _cached
    from rag.models import RagSettings

    row = RagSettings.objects.order_by("pk").first()
    if row is None:
        row, _ = RagSettings.objects.get_or_create(pk=1)
    with _lock:
        _cached, _cached_at = row, time.monotonic()
    return row


def invalidate() -> None:
    """Forget the cached row; the next read goes to the database."""
    global _cached
    with _lock:
        _cached = None
