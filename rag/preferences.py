"""One registry of readers of the preferences a user stated, for any app that personalises.

The app that stores stated preferences (``memory``: ``preference_upsert``, fed by the chat
and the preferences API) registers a reader from its ``AppConfig.ready``::

    register_reader("memory", lambda user, limit: [StatedPreference("vibe", "安静"), ...])

and an app that ranks for a user (``activities``: the personal boost) reads them through
:func:`stated_preferences`, so neither app imports the other (both import ``rag``, which
imports neither). A reader returns the user's newest preferences first; a reader that
fails is logged and skipped, so personalisation degrades to what the other readers say.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

logger = logging.getLogger(__name__)

DEFAULT_LIMIT = 50


@dataclass(frozen=True)
class StatedPreference:
    """One preference a user stated: a category (``vibe``, ``food``...) and a value."""

    category: str
    value: str


Reader = Callable[[object, int], list[StatedPreference]]
_readers: dict[str, Reader] = {}


def register_reader(name: str, reader: Reader) -> None:
    """Register (or replace) the reader of one app's stated preferences."""
    _readers[name] = reader


def stated_preferences(user, *, limit: int = DEFAULT_LIMIT) -> list[StatedPreference]:
    """Return the user's stated preferences from every reader (newest first per reader).

    Anonymous users have none. A failing reader is logged and skipped.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    found: list[StatedPreference] = []
    for name, reader in list(_readers.items()):
        try:
            found.extend(reader(user, limit))
        except Exception as exc:  # noqa: BLE001 - a personalisation signal, never a failure
            logger.warning("stated preferences from %s unavailable: %s", name, exc)
    return found


# --- Ratings: what the user rated -1 or +1 (the feedback API), by target type -----------------

RatingsReader = Callable[[object, str], dict[str, int]]
_ratings_readers: dict[str, RatingsReader] = {}


def register_ratings_reader(name: str, reader: RatingsReader) -> None:
    """Register (or replace) the reader of one app's ratings: ``reader(user, target_type)``.

    A reader returns ``{target id (text): rating}``, the user's latest rating of each target.
    """
    _ratings_readers[name] = reader


def ratings(user, target_type: str) -> dict[str, int]:
    """Return the user's ratings of targets of ``target_type`` (``activity``, ``message``).

    Anonymous users have none. A failing reader is logged and skipped.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return {}
    found: dict[str, int] = {}
    for name, reader in list(_ratings_readers.items()):
        try:
            found.update(reader(user, target_type))
        except Exception as exc:  # noqa: BLE001 - a personalisation signal, never a failure
            logger.warning("ratings from %s unavailable: %s", name, exc)
    return found
