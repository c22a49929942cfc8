"""Resolve time phrases to windows of local time for a ``now``, a time zone and a direction.

The semantics are in the ``rag.understand`` docstring. Pure: no database, no settings, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from rag.understand.holidays import NAMED
from rag.understand.parts import LATE_PARTS, NOON_PARTS, PM_PARTS, in_parts, part_hours
from rag.understand.scan import Ctx, DateRule, Phrase
from rag.understand.words import CLOCK_WINDOW, MAX_DISTANCE

# --- the results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """A span ``[start, end)`` of time; both ends aware, in the query's time zone."""

    start: datetime
    end: datetime

    def as_dict(self) -> dict:
        """Return the window as ISO 8601 strings."""
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


@dataclass(frozen=True)
class TimePhrase:
    """Words that named a time, where they stand in the query, and the window(s) they mean.

    ``windows`` has one window, or one per day for a weekend with a part of the day ("周末晚上":
    Saturday evening and Sunday evening). ``point`` is set for a clock time ("三点").
    """

    text: str
    span: tuple[int, int]
    kind: str
    windows: tuple[Window, ...]
    point: datetime | None = None
    # Why the phrase is the time of a feeling or a kind of outing rather than when to search
    # ("state", "habit", "kind", "suits"; rag.understand.soft), else None.
    soft: str | None = None

    @property
    def start(self) -> datetime:
        """Return the start of the first window."""
        return self.windows[0].start

    @property
    def end(self) -> datetime:
        """Return the end of the last window."""
        return self.windows[-1].end

    def as_dict(self) -> dict:
        """Return the phrase as plain JSON data (for ``meta.understood``)."""
        out = {"phrase": self.text, "span": list(self.span), "kind": self.kind}
        out.update(start=self.start.isoformat(), end=self.end.isoformat())
        if len(self.windows) > 1:
            out["windows"] = [w.as_dict() for w in self.windows]
        if self.point is not None:
            out["point"] = self.point.isoformat()
        if self.soft is not None:
            out["soft"] = self.soft
        return out


@dataclass(frozen=True)
class Ignored:
    """A time phrase that was recognised but not applied, and why.

    ``reason`` is ``"past"`` (searching forward, the phrase has ended), ``"future"`` (recalling,
    it has not started), ``"invalid"`` (no such date, e.g. 2月30日), ``"too_far"`` or
    ``"negated"`` (a time the person cannot or will not make: 晚上没空, "not on sunday").
    """

    text: str
    span: tuple[int, int]
    reason: str
    # The windows of a negated phrase (the time refused); empty for the other reasons.
    windows: tuple[Window, ...] = ()

    def as_dict(self) -> dict:
        """Return the ignored phrase as plain JSON data."""
        return {"phrase": self.text, "span": list(self.span), "reason": self.reason}


def _at(day: date, hours: float, tz: tzinfo) -> datetime:
    """Return the moment ``hours`` after the start of local ``day`` (a local time that does not
    exist on a DST change resolves to the real moment after the gap)."""
    extra, rest = divmod(hours, 24)
    hour = int(rest)
    minute = int(round((rest - hour) * 60))
    local = datetime.combine(day + timedelta(days=int(extra)), time(hour, minute), tzinfo=tz)
    return local.astimezone(UTC).astimezone(tz)


# --- resolution ---------------------------------------------------------------------------------

_KIND_NAMES = {"day_part": "day", "rel_month": "month", "month_name": "month", "part_short": "part"}
_KIND_NAMES.update({"past_unit": "rolling", "colon": "clock", "en_clock": "clock"})
_KIND_NAMES.update({"zh_clock": "clock", "nth": "date", "slash_date": "date"})


def _kind(phrase: Phrase) -> str:
    atom = phrase.get("day") or phrase.get("clock") or phrase.atoms[0]
    name = atom.kind.split("_", 1)[1] if atom.kind[:3] in ("zh_", "en_") else atom.kind
    return _KIND_NAMES.get(name, name)


def _clock_hours(clock: tuple, part: str | None) -> float:
    """Return the clock time in hours after the day's start, read with its part of the day."""
    hour, minute, half, bare = clock[:4]
    if bare and part is None and 1 <= hour <= 6:
        hour += 12  # 三点开会, "sat at 3": a bare 1-6 is the afternoon
    elif in_parts(part, NOON_PARTS) and hour < 6 or half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    elif not half and in_parts(part, LATE_PARTS):
        hour = hour + 24 if hour <= 5 else (hour + 12 if hour < 12 else 24 if hour == 12 else hour)
    elif not half and in_parts(part, PM_PARTS) and hour <= 12:
        hour = hour + 12 if hour < 12 or not in_parts(part, {"下午", "afternoon"}) else hour
    return hour + minute / 60


def _clock_window(day_: date, hours: float, point: datetime, bound, part, tz: tzinfo):
    """Return the window of a clock time: the hour from it, or with a bound from it to the end
    of its part of the day (of the day without one), or from that start until it."""
    if bound is None:
        return point, (point.astimezone(UTC) + CLOCK_WINDOW).astimezone(tz)
    lo, hi = part_hours(part) if part is not None else (0, 24)
    if bound == "after":
        return point, _at(day_, max(hi, hours + 1), tz)
    return _at(day_, min(lo, hours - 1), tz), point


Candidate = tuple[list[tuple[datetime, datetime]], datetime | None]


def _candidates(phrase: Phrase, ctx: Ctx, anchor: DateRule | None):
    """Return (cycle, k -> Candidate | None, the day rule used) for a phrase."""
    tz = ctx.tz
    first = phrase.atoms[0]
    if first.role == "alone":
        cycle, rule = first.data
        if cycle == "rolling":
            return cycle, rule, None

        def whole(k: int) -> Candidate | None:
            days = rule(k)
            if days is None:
                return None
            return [(_at(days[0], 0, tz), _at(days[1], 0, tz))], None

        return cycle, whole, None
    day, part_atom, clock_atom = phrase.get("day"), phrase.get("part"), phrase.get("clock")
    if day is not None:
        cycle, dates, implied = day.data
    elif anchor is not None:
        cycle, dates, implied = None, anchor, None
    else:
        cycle, implied = "day", None

        def dates(k: int) -> list[date]:
            return [ctx.today + timedelta(days=k)]

    part = part_atom.data if part_atom is not None else implied
    clock = clock_atom.data if clock_atom is not None else None

    def build(k: int) -> Candidate | None:
        days = dates(k)
        if not days:
            return None
        windows, points = [], []
        for day_ in days:
            if clock is not None:
                hours = _clock_hours(clock, part)
                point = _at(day_, hours, tz)
                points.append(point)
                windows.append(_clock_window(day_, hours, point, clock[4], part, tz))
            elif part is not None:
                lo, hi = part_hours(part)
                windows.append((_at(day_, lo, tz), _at(day_, hi, tz)))
            else:
                windows.append((_at(day_, 0, tz), _at(day_ + timedelta(days=1), 0, tz)))
        merged = [windows[0]]
        for start, end in windows[1:]:  # a weekend's two whole days are one window
            if _utc(start) == _utc(merged[-1][1]):
                merged[-1] = (merged[-1][0], end)
            else:
                merged.append((start, end))
        return merged, points[0] if len(points) == 1 else None

    return cycle, build, dates


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def _fits(windows, now: datetime, direction: str) -> bool:
    if direction == "future":
        return _utc(windows[-1][1]) > now
    if direction == "past":
        return _utc(windows[0][0]) < now
    return True


def _choose(cycle, build, now: datetime, direction: str) -> tuple[int, Candidate] | str:
    """Return (k, candidate) for the direction, or the reason none fits."""
    ks = range(-2, 3) if cycle else (0,)
    found = []
    for k in ks:
        try:
            candidate = build(k)
        except (ValueError, OverflowError):
            candidate = None
        if candidate is not None:
            found.append((k, candidate))
    if not found:
        return "invalid"
    if not cycle:
        k, candidate = found[0]
        return (k, candidate) if _fits(candidate[0], now, direction) else _wrong(direction)
    if cycle == NAMED and direction == "future":
        # A named day means its nearest occurrence: one that is over when it is the nearer
        # (black friday asked the day after, 双十一 two weeks after) is the one meant, and
        # nothing can start in it; next year's is not what was asked (issue 30, session 51).
        return _nearest(found, now)
    fitting = [(k, c) for k, c in found if _fits(c[0], now, direction)]
    if not fitting:
        return _wrong(direction)
    if direction == "future":
        return fitting[0]
    if direction == "past":
        return fitting[-1]
    return _nearest(fitting, now)


# How little of a day or a week's occurrence may be left for the next one to be meant too: 周日
# (or "the weekend") asked at 21:00 on Sunday means next Sunday as much as the hours left (a
# make-run look, session 56, read the three hours left and listed Tuesday's rows as "no
# Sunday"). Said with a clock time, the time decides. A search reads both; a draft takes the
# next one alone (agent.extract.time_to_set); a deadline or one's own activities read the day
# alone (its audit found "organise a frisbee game on sunday" drafted for Monday when every
# reader took the two windows as one span).
ENDING_SHARE = 0.25


def _with_next_when_ending(windows, build, k: int, now: datetime):
    """Return ``windows`` with the next occurrence's after them when the chosen one is under way
    with less than ``ENDING_SHARE`` of it left."""
    start, end = _utc(windows[0][0]), _utc(windows[-1][1])
    if not start <= now < end or (end - now) >= ENDING_SHARE * (end - start):
        return windows
    try:
        following = build(k + 1)
    except (ValueError, OverflowError):
        return windows
    if following is None:
        return windows
    nxt = following[0]
    if _utc(nxt[0][0]) == _utc(windows[-1][1]):  # "tonight" then tomorrow night: one window
        return [*windows[:-1], (windows[-1][0], nxt[0][1]), *nxt[1:]]
    return [*windows, *nxt]


def _nearest(found, now: datetime) -> tuple[int, Candidate]:
    """Return the occurrence nearest ``now`` (the one containing it first); a tie goes to the
    later one."""

    def distance(item) -> timedelta:
        windows = item[1][0]
        start, end = _utc(windows[0][0]), _utc(windows[-1][1])
        if start <= now < end:
            return timedelta(0)
        return start - now if start > now else now - end

    # max over -k breaks ties towards larger k.
    return min(found, key=lambda item: (distance(item), -item[0]))


def _wrong(direction: str) -> str:
    return "past" if direction == "future" else "future"


def _clip(windows, point, now: datetime, direction: str, tz: tzinfo):
    """Drop the windows on the wrong side of now and cut the one containing it at now."""
    local_now = now.astimezone(tz)
    if direction == "future":
        windows = [(s, e) for s, e in windows if _utc(e) > now]
        s, e = windows[0]
        windows[0] = (max(s, local_now, key=_utc), e)
    elif direction == "past":
        windows = [(s, e) for s, e in windows if _utc(s) < now]
        s, e = windows[-1]
        windows[-1] = (s, min(e, local_now, key=_utc))
    return windows, point


def _fixed_rule(days: list[date] | None) -> DateRule:
    """Return a date rule naming ``days`` whatever the occurrence."""
    return lambda _k: days


def resolve(
    phrases: list[Phrase],
    now: datetime,
    tz: tzinfo,
    direction: str,
    *,
    next_when_ending: bool = False,
) -> list[tuple[Phrase, tuple[Window, ...] | str, datetime | None, str]]:
    """Return, per phrase, (phrase, windows or the reason it was ignored, point, kind).

    A phrase of only a part of the day and/or a clock time that follows a day phrase is read on
    that day ("明天去爬山，下午三点出发": tomorrow 15:00). ``next_when_ending``: a repeating
    day nearly over also means its next occurrence (:data:`ENDING_SHARE`; a search's reading).
    """
    ctx = Ctx(now.astimezone(tz), tz)
    now_utc = _utc(now)
    anchor: DateRule | None = None
    out = []
    for phrase in phrases:
        kind = _kind(phrase)
        if phrase.atoms[0].role == "alone":
            anchor = None  # a week or a month in between: a later 晚上 is no longer that day's
        cycle, build, dates = _candidates(phrase, ctx, anchor)
        if cycle == "rolling":
            span = build.get(direction)
            if span is None:
                out.append((phrase, _wrong(direction), None, kind))
                continue
            windows = ((span[0].astimezone(tz), span[1].astimezone(tz)),)
            out.append((phrase, tuple(Window(s, e) for s, e in windows), None, kind))
            continue
        chosen = _choose(cycle, build, now_utc, direction)
        if phrase.get("day") is not None and cycle is None and dates is not None:
            # A later part or clock refines this day even when the day itself does not apply.
            try:
                fixed = dates(0)
            except (ValueError, OverflowError):
                fixed = None
            anchor = _fixed_rule(fixed)
        if isinstance(chosen, str):
            out.append((phrase, chosen, None, kind))
            continue
        k, (windows, point) = chosen
        if any(abs(_utc(w) - now_utc) > MAX_DISTANCE for pair in windows for w in pair):
            out.append((phrase, "too_far", None, kind))
            continue
        if phrase.get("day") is not None and dates is not None:
            anchor = _fixed_rule(dates(k))
        if next_when_ending and cycle in ("day", "week") and point is None:
            windows = _with_next_when_ending(windows, build, k, now_utc)
        if _fits(windows, now_utc, direction):
            windows, point = _clip(windows, point, now_utc, direction, tz)
        out.append((phrase, tuple(Window(s, e) for s, e in windows), point, kind))
    return out
