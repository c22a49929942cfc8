"""What an activity search query asks for besides its meaning, and how the search applies it.

``rag.understand`` reads the query (time phrases forward in the user's time zone, place cues,
kind and mood cues from this app's vibe lexicon, the language); this module turns that into the
search's plan (docs/activities.md, "Query understanding"):

- **Time**: the phrase's window(s), cut to ``filters.timeRange``, *narrow* the hard filter
  (``applied: "filter"``) when at least one row passing the other filters starts inside; when
  none does, the filter is kept and rows are *ranked* by how close their start is to the window
  (``applied: "rank"``), so the answer is not empty and says it is outside the time asked for.
- **Place**: a nearby cue ("附近", "near me") with a location and no radius filters within
  :data:`NEARBY_RADIUS_KM`; without a location nothing is filtered and ``meta`` says so.
- **Kinds and moods**: the activity types and vibes the query names; the reasons name them when
  the activity has them (``activities.reasons``).

Pure functions except :func:`plan_time`, which counts rows of a queryset.
"""

from __future__ import annotations

import dataclasses
import re
import zoneinfo
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db.models import DurationField, ExpressionWrapper, F, Q, Value
from django.db.models.functions import Greatest, Least

from activities.cues_en import english_kinds, english_moods
from activities.vibes import (
    KEYWORD_VIBES,
    QUERY_ONLY_KEYWORDS,
    TYPE_VIBES,
    VIBES,
    ZH_ACTIVITY_NAMES,
)
from rag.cardinality import count_upto
from rag.understand import Cue, Lexicon, Understanding, Window, understand
from rag.understand.apply import NARROW, closeness, decide_time, intersect
from rag.understand.apply import RANK as DECIDED_RANK
from rag.understand.drinks import drink_out
from rag.understand.negation import asked_text

NEARBY_RADIUS_KM = 5.0  # "附近" with a location and no radius: the agent's default too
FILTER, RANK, NONE = "filter", "rank", "none"
# Embed the query without its applied time phrases and place cues (``rest``), not the whole
# query: measured in docs/BENCHMARKS.md ("Query understanding: what to embed").
EMBED_REST = True
# In "rank" mode a row starting in (or next to) the window gains up to this share of its score,
# like the personal boost: the closest in time moves up among rows of similar meaning, without
# burying the relevant ones (sorting by time alone lost most relevant rows: BENCHMARKS.md).
TIME_RANK_WEIGHT = 0.1

# Activity types the query may name (the types of the vibe table, each naming itself).
KIND_WORDS: dict[str, tuple[str, ...]] = {kind: (kind,) for kind in TYPE_VIBES}
# The vibe a query asks for: the words ``activities.vibes.query_vibes`` reads.
MOOD_WORDS: dict[str, tuple[str, ...]] = {
    vibe: KEYWORD_VIBES.get(vibe, ()) + QUERY_ONLY_KEYWORDS.get(vibe, ()) for vibe in VIBES
}
LEXICON = Lexicon(kinds=KIND_WORDS, moods=MOOD_WORDS)
# Going out for a drink (「喝点儿去」, 「整两口」: rag.understand.drinks) asks for what 喝一杯
# asks for in the vibe table (activities.vibes.QUERY_ONLY_KEYWORDS), the lively evening out,
# and names the kind of listing that serves one (the type 夜生活, whose vibe that is): the kind
# orders a bar or a beer-and-skewers night before a meet-up that is merely lively.
DRINK_MOOD, DRINK_KIND = "热闹", "夜生活"


@dataclass(frozen=True)
class TimePlan:
    """What the search does with the query's time phrase.

    ``applied`` is ``"filter"`` (only rows starting in ``windows``), ``"rank"`` (the filter is
    kept, rows ordered by closeness to ``windows``) or ``"none"``. ``windows`` are already cut
    to the request's ``timeRange`` when they overlap it.
    """

    applied: str
    phrase: str | None = None
    windows: tuple[Window, ...] = ()
    reason: str = ""
    # The rows the plan leaves (the queryset after apply_time), counted up to plan_time's
    # ``count_upto``: the search reuses it instead of counting the same rows again.
    rows: int | None = field(default=None, compare=False)
    # Times the query refuses (晚上没空, "not on sunday": rag.understand's "negated" phrases):
    # rows starting in them are left out whatever ``applied`` says.
    refused: tuple[Window, ...] = ()

    @property
    def start(self) -> datetime | None:
        """Return the start of the first window."""
        return self.windows[0].start if self.windows else None

    @property
    def end(self) -> datetime | None:
        """Return the end of the last window."""
        return self.windows[-1].end if self.windows else None

    def contains(self, moment: datetime) -> bool:
        """Return whether ``moment`` lies in one of the windows."""
        at = moment.timestamp()
        return any(w.start.timestamp() <= at < w.end.timestamp() for w in self.windows)

    def closeness(self, moment: datetime) -> float:
        """Return 1.0 inside a window, less the farther ``moment`` is from the nearest one."""
        return max((closeness(moment, w) for w in self.windows), default=0.0)

    def as_meta(self) -> dict | None:
        """Return ``{phrase, start, end, applied, reason}`` or None without a time phrase."""
        if self.applied == NONE and self.phrase is None:
            return None
        return {
            "phrase": self.phrase,
            "start": None if self.start is None else self.start.isoformat(),
            "end": None if self.end is None else self.end.isoformat(),
            "applied": self.applied,
            "reason": self.reason,
        }


NO_TIME = TimePlan(NONE)


@dataclass(frozen=True)
class PlacePlan:
    """What the search does with a place cue: ``applied`` is ``"radius"`` (the search filters
    within ``radius_km``), ``"location"`` (the request's own radius or none: the location only
    orders), ``"unknown"`` (asked, but the request has no location) or ``"none"``."""

    applied: str
    phrase: str | None = None
    radius_km: float | None = None

    def as_meta(self) -> dict | None:
        """Return ``{phrase, applied, radiusKm}`` or None without a place cue."""
        if self.applied == NONE:
            return None
        return {"phrase": self.phrase, "applied": self.applied, "radiusKm": self.radius_km}


@dataclass(frozen=True)
class QueryUnderstanding:
    """What an activity search understood: the ``rag.understand`` reading and the app's cues."""

    found: Understanding
    kinds: tuple[Cue, ...] = ()
    moods: tuple[Cue, ...] = ()
    time: TimePlan = NO_TIME
    place: PlacePlan = field(default_factory=lambda: PlacePlan(NONE))

    @property
    def language(self) -> str:
        """Return "zh", "en", "mixed" or "und"."""
        return self.found.language

    @property
    def english(self) -> bool:
        """Return whether reasons should be written in English."""
        return self.found.language == "en"

    @property
    def rest(self) -> str:
        """Return the query without its applied time phrases and place cues."""
        return self.found.rest

    def mood_labels(self) -> list[str]:
        """Return the vibes the query asks for, in the order it names them."""
        return [c.label for c in self.moods]

    def as_meta(self) -> dict:
        """Return ``meta.understood``."""
        return {
            "language": self.language,
            "time": self.time.as_meta(),
            "place": self.place.as_meta(),
            "kinds": [c.label for c in self.kinds],
            "moods": self.mood_labels(),
            "rest": self.rest,
        }


def user_zone(name: str | None) -> zoneinfo.ZoneInfo:
    """Return the IANA zone ``name`` (the settings zone when empty); raise ValueError if unknown."""
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError, TypeError) as exc:
        raise ValueError(f"unknown time zone {name!r}") from exc


def read_query(query: str, *, now: datetime, tz) -> QueryUnderstanding:
    """Return what ``query`` asks for, read forward from ``now`` in the zone ``tz``."""
    # A day nearly over also means its next occurrence: a search may show both.
    found = understand(
        query, now=now, tz=tz, direction="future", lexicon=LEXICON, next_when_ending=True
    )
    # The English cue readers read what the query asks for, its refused words blanked, as the
    # lexicon's readers do: "outdoor stuff but not hiking" asks for no hike (session 53).
    asked = asked_text(found.text)
    moods = list(found.moods)
    seen = {c.label for c in moods}
    for cue in english_moods(asked):
        if cue.label not in seen:
            moods.append(cue)
            seen.add(cue.label)
    drink = drink_out(found.text)
    if drink is not None and DRINK_MOOD not in seen:
        moods.append(Cue(DRINK_MOOD, found.text[drink[0] : drink[1]], drink))
    moods.sort(key=lambda c: c.span)
    kinds = list(found.kinds)
    known = {c.label for c in kinds}
    kinds += [c for c in english_kinds(asked) if c.label not in known]
    if drink is not None and DRINK_KIND not in known:
        kinds.append(Cue(DRINK_KIND, found.text[drink[0] : drink[1]], drink))
    kinds.sort(key=lambda c: c.span)
    return QueryUnderstanding(found=found, kinds=tuple(kinds), moods=tuple(moods))


def vouching_moods(understood: QueryUnderstanding) -> QueryUnderstanding:
    """Return ``understood`` without the moods read from the name of one activity
    (:data:`activities.vibes.ZH_ACTIVITY_NAMES`): those that vouch for a row past the gate."""
    moods = tuple(c for c in understood.moods if c.text.lower() not in ZH_ACTIVITY_NAMES)
    if len(moods) == len(understood.moods):
        return understood
    return dataclasses.replace(understood, moods=moods)


def plan_place(understood: QueryUnderstanding, location) -> PlacePlan:
    """Return what to do with a place cue given the request's ``(lat, lng, radius)`` or None."""
    cues = understood.found.places
    if not cues:
        return PlacePlan(NONE)
    phrase = cues[0].text
    if location is None:
        return PlacePlan("unknown", phrase)
    radius = location[2]
    if radius is not None:
        return PlacePlan("location", phrase, radius)
    return PlacePlan("radius", phrase, understood.found.radius_km or NEARBY_RADIUS_KM)


# The reader's phrase keeps the preposition it removes from the query ("gigs on friday" leaves
# "gigs"); the phrase a person is shown does not: as asked ("tonight"), not ("on tonight").
LEADING_PREPOSITION = re.compile(r"^(?:on|at|in|for|by|during|over)\s+", re.I)


def _windows(understood: QueryUnderstanding, start, end) -> tuple[tuple[Window, ...], str | None]:
    """Return the windows of the narrowest phrase cut to ``[start, end]``, and the phrase."""
    phrase = understood.found.time
    if phrase is None:
        return (), None
    cut = tuple(w for w in (intersect(w, start, end) for w in phrase.windows) if w is not None)
    return cut, LEADING_PREPOSITION.sub("", phrase.text)


def in_windows(windows) -> Q:
    """Return the filter "starts in one of ``windows``" (half-open)."""
    query = Q(pk__in=[])
    for window in windows:
        query |= Q(start_at__gte=window.start, start_at__lt=window.end)
    return query


def plan_time(
    understood: QueryUnderstanding, qs, *, start=None, end=None, count_upto_rows: int = 1
) -> TimePlan:
    """Return the time plan for the rows of ``qs`` (every other hard filter applied).

    ``rag.understand.apply.decide_time`` decides from counts: narrow when a row starts in the
    phrase's window(s) cut to ``[start, end]``; rank by closeness when none does but rows pass;
    with no row at all, narrow (an honest empty answer). A window wholly outside the request's
    ``timeRange`` ranks by the phrase's own window(s) when rows pass.

    Counting stops at ``count_upto_rows``: one row decides, and a caller that needs to know
    whether the plan leaves more than a few rows asks for that many, reads ``plan.rows`` and
    saves the query it would run on the same rows.
    """
    refused = tuple(w for i in understood.found.ignored if i.reason == "negated" for w in i.windows)
    if refused:
        plan = _plan_time(
            understood,
            qs.exclude(in_windows(refused)),
            start=start,
            end=end,
            count_upto_rows=count_upto_rows,
        )
        return dataclasses.replace(plan, refused=refused)
    return _plan_time(understood, qs, start=start, end=end, count_upto_rows=count_upto_rows)


def _plan_time(understood, qs, *, start, end, count_upto_rows: int) -> TimePlan:
    phrase = understood.found.time
    if phrase is None:
        return NO_TIME
    limit = max(1, count_upto_rows)
    windows, text = _windows(understood, start, end)
    span = Window(windows[0].start, windows[-1].end) if windows else None
    # A soft phrase (the time of a feeling, a kind of outing: rag.understand.soft) only orders:
    # its plan's rows are every row, counted instead of those inside.
    soft = phrase.soft is not None
    inside = count_upto(qs.filter(in_windows(windows)), limit) if windows and not soft else 0
    # Not counted when rows are inside: the plan then narrows to them, and ``inside`` is its rows.
    total = inside or count_upto(qs, limit)
    decision = decide_time(window=span, inside=inside, total=total, soft=soft)
    # Counts stop at ``limit`` here (existence is all the decision needs): the reasons are ours.
    if decision.mode == NARROW:
        reason = "activities start in the window" if inside else "no row passes the filters"
        return TimePlan(FILTER, text, windows or tuple(phrase.windows), reason, rows=inside)
    if decision.mode == DECIDED_RANK:
        reason = "no activity starts in the window: ranked by closeness to it"
        if soft:
            reason = f"a time the request is not bound to ({phrase.soft}): ranked by closeness"
        return TimePlan(RANK, text, windows, reason, rows=total)
    # No overlap with timeRange: rank by the phrase's own window, or nothing passes at all.
    if total:
        reason = "the window is outside timeRange: ranked by closeness to it"
        return TimePlan(RANK, text, tuple(phrase.windows), reason, rows=total)
    return TimePlan(FILTER, text, tuple(phrase.windows), "no row passes the filters", rows=0)


def apply_time(qs, plan: TimePlan):
    """Return ``qs`` narrowed to the plan's windows (``"filter"``), else unchanged; without the
    rows starting in a time the query refuses."""
    if plan.refused:
        qs = qs.exclude(in_windows(plan.refused))
    if plan.applied == FILTER:
        return qs.filter(in_windows(plan.windows))
    return qs


def order_by_closeness(qs, plan: TimePlan):
    """Return ``qs`` ordered by the time between its start and the plan's nearest window.

    Used on the paths that do not rank by meaning when the plan ranks; the nearest window is
    the one the row is closest to (a row in none of them is outside all).
    """
    gaps = []
    for window in plan.windows:
        before = ExpressionWrapper(Value(window.start) - F("start_at"), DurationField())
        after = ExpressionWrapper(F("start_at") - Value(window.end), DurationField())
        gaps.append(Greatest(before, after))
    if len(gaps) == 1:
        gap = gaps[0]
    else:
        gap = Least(*gaps)
    return qs.annotate(time_gap=gap).order_by("time_gap", "start_at", "pk")


def time_boost(score: float | None, closeness_: float) -> float:
    """Return ``score * (1 + TIME_RANK_WEIGHT * closeness)``: time orders, meaning still leads."""
    return (score or 0.0) * (1.0 + TIME_RANK_WEIGHT * closeness_)


def rank_by_time(results: list[dict], plan: TimePlan) -> list[dict]:
    """Return ranked results re-ordered by score raised for closeness to the plan's window.

    Only in ``"rank"`` mode (no row starts in the window); ``score`` in each result becomes the
    raised score, so the order the client sees is the order of the scores.
    """
    if plan.applied != RANK:
        return results
    for result in results:
        if result["score"] is not None:
            raised = time_boost(result["score"], plan.closeness(result["_obj"].start_at))
            result["score"] = round(raised, 4)
    return sorted(results, key=lambda r: (-(r["score"] or 0.0), r["id"]))


__all__ = [
    "EMBED_REST",
    "FILTER",
    "LEXICON",
    "NEARBY_RADIUS_KM",
    "NONE",
    "RANK",
    "TIME_RANK_WEIGHT",
    "PlacePlan",
    "QueryUnderstanding",
    "TimePlan",
    "apply_time",
    "english_kinds",
    "english_moods",
    "order_by_closeness",
    "plan_place",
    "plan_time",
    "rank_by_time",
    "time_boost",
    "read_query",
    "vouching_moods",
    "user_zone",
]
