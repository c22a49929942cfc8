"""Turn what a query was understood to ask into what a search does, from counts alone.

A search that understood a time phrase either *narrows* its hard filter to the phrase's window
or, when that would leave nothing, keeps its filter and *ranks* rows by how close they are to
the window. The caller
counts rows (with its own database) and these pure functions decide, so every search surface
decides the same way and says so in ``meta.understood``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from rag.understand.time import Window

NARROW, RANK, NONE = "narrow", "rank", "none"
MIN_RANK_SCALE = timedelta(days=1)


def _ts(moment: datetime) -> float:
    return moment.timestamp()


def intersect(
    window: Window | None, start: datetime | None = None, end: datetime | None = None
) -> Window | None:
    """Return ``window`` cut to the caller's own ``[start, end]`` filter (either end optional).

    None when there is no window or the two do not overlap.
    """
    if window is None:
        return None
    lo = window.start if start is None or _ts(window.start) >= _ts(start) else start
    hi = window.end if end is None or _ts(window.end) <= _ts(end) else end
    return Window(lo, hi) if _ts(lo) < _ts(hi) else None


@dataclass(frozen=True)
class TimeDecision:
    """What a search does with an understood window.

    ``mode`` is ``"narrow"`` (filter to ``window``), ``"rank"`` (keep the filter, rank by
    :func:`closeness` to ``window``) or ``"none"``; ``reason`` says why, for ``meta``.
    """

    mode: str
    window: Window | None
    reason: str

    def as_meta(self, phrase: str | None = None) -> dict:
        """Return ``{"phrase", "applied", "reason", "start", "end"}`` for ``meta.understood``."""
        out: dict = {"phrase": phrase, "applied": self.mode, "reason": self.reason}
        if self.window is not None:
            out.update(self.window.as_dict())
        return out


def decide_time(
    *, window: Window | None, inside: int, total: int, soft: bool = False
) -> TimeDecision:
    """Return whether to narrow to ``window`` or rank by it.

    ``window`` is the understood window already cut to the caller's own filter
    (:func:`intersect`); ``inside`` counts the rows passing every hard filter within it and
    ``total`` those passing the hard filters without it. Narrow when at least one row is inside;
    rank when none is but others pass (the answer is then not empty, and says it is outside the
    time asked for); with no row at all, narrow (an empty answer, honestly for that time).
    A ``soft`` phrase (the time of a feeling, a kind of outing: ``TimePhrase.soft``) ranks
    whenever rows pass: the window orders, it does not narrow.
    """
    if window is None:
        return TimeDecision(NONE, None, "no time phrase, or none overlapping the filter")
    if inside < 0 or total < 0:
        raise ValueError("counts cannot be negative")
    if soft and total > 0:
        return TimeDecision(RANK, window, "a time the request is not bound to: ranked by it")
    if inside > 0:
        return TimeDecision(NARROW, window, f"{inside} of {total} rows in the window")
    if total > 0:
        return TimeDecision(RANK, window, "no row in the window: ranked by closeness to it")
    return TimeDecision(NARROW, window, "no row passes the filters")


def closeness(moment: datetime, window: Window) -> float:
    """Return 1.0 inside ``window``, falling towards 0 with the distance from it.

    ``1 / (1 + distance / scale)``, the scale being the window's length (at least a day): a
    row one window-length away scores 0.5.
    """
    start, end, at = _ts(window.start), _ts(window.end), _ts(moment)
    if start <= at < end:
        return 1.0
    distance = start - at if at < start else at - end
    scale = max(end - start, MIN_RANK_SCALE.total_seconds())
    return 1.0 / (1.0 + distance / scale)
