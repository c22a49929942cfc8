"""Turn demo fixture items into activities (demo loader, tests and the benchmark).

Demo rows are the ones created by the ``demo`` user whose title and location name are those of
a fixture item: the loader creates them so, and both must match, so a row a person wrote is
never taken for one.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time, timedelta
from functools import lru_cache

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from activities.backfill import backfill
from activities.models import Activity, ActivityStatus, IndexState
from activities.services import activity_change
from activities.vibes import activity_vibes
from rag.understand import understand


def demo_start(
    day_offset: int, hour: float, *, now: datetime | None = None, days: frozenset[int] = frozenset()
) -> datetime:
    """Return today + ``day_offset`` days at ``hour`` in the settings time zone.

    With ``days`` (weekdays, Monday 0), the nearest such day to that date (at most 3 days
    either way, a tie going to the later) after the load day instead, so an item saying 周五
    falls on a Friday whatever the load day and the demo keeps its spread over the weeks.
    """
    tz = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    today = (now or timezone.now()).astimezone(tz).date()
    day = today + timedelta(days=int(day_offset))
    if days:
        shifts = [s for s in range(-3, 8) if (day.weekday() + s) % 7 in days]
        after = [s for s in shifts if day + timedelta(days=s) > today]
        day += timedelta(days=min(after, key=lambda s: (abs(s), -s)))
    minutes = int(round(float(hour) * 60))
    return datetime.combine(day, time(minutes // 60, minutes % 60), tzinfo=tz)


def item_text(item: dict) -> str:
    """Return the words of a fixture item that may name its day (title, tags, description)."""
    tags = " ".join(str(t) for t in item.get("tags") or ())
    return f"{item.get('title', '')}\n{tags}\n{item.get('description', '')}"


# Any Monday midnight works: a weekday or weekend phrase names the same weekdays every week,
# and 今晚/明天 name a day counted from it.
_MONDAY = datetime(2024, 1, 1)


def _phrases(text: str) -> tuple:
    return _phrases_in(text, settings.TIME_ZONE)


@lru_cache(maxsize=4096)
def _phrases_in(text: str, time_zone: str) -> tuple:
    now = _MONDAY.replace(tzinfo=zoneinfo.ZoneInfo(time_zone))
    return tuple(understand(text, now=now, direction="future").times)


def named_offset(text: str) -> int | None:
    """Return the day the words name counted from the load day (今晚/今天 0, 明天 1), or None."""
    for phrase in _phrases(text):
        if phrase.kind == "day":
            return (phrase.start.date() - _MONDAY.date()).days
    return None


def named_days(text: str) -> frozenset[int]:
    """Return the weekdays (Monday 0) the words name: 周五 -> {4}, 周末 -> {5, 6}, else none.

    Read by ``rag.understand`` (weekday and weekend phrases only). Several phrases must agree
    ("周末…周六早上" -> Saturday); when they do not, the most specific wins.
    """
    sets = []
    for phrase in _phrases(text):
        if phrase.kind not in ("weekday", "weekend"):
            continue
        found = set()
        for window in phrase.windows:
            day = window.start.date()
            while datetime.combine(day, time.min, tzinfo=window.start.tzinfo) < window.end:
                found.add(day.weekday())
                day += timedelta(days=1)
        sets.append(frozenset(found))
    if not sets:
        return frozenset()
    common = frozenset.intersection(*sets)
    return common or min(sets, key=len)


def build_activity(
    item: dict, *, creator, now: datetime | None = None, day_text: str | None = None
) -> Activity:
    """Return an unsaved Activity from one fixture item (vibes from the lexicon).

    Its date is the load day + ``day_offset``, moved to the first day its words name (周五: a
    Friday, 周末: a Saturday or Sunday), or the day 今晚/明天 names counted from the load day,
    so the words and the date agree whatever the load day. ``day_text``: the words read for
    that (default: the item's title, tags and description); a generator of many variants of
    one item passes the words they share, which are read once (the reading is cached).
    """
    text = item_text(item) if day_text is None else day_text
    offset = named_offset(text)
    if offset is None:
        start = demo_start(item["day_offset"], item["hour"], now=now, days=named_days(text))
    else:
        start = demo_start(offset, item["hour"], now=now)
    duration = item.get("duration_hours")
    activity = Activity(
        title=item["title"],
        description=item.get("description", ""),
        type=item["type"],
        tags=list(item.get("tags") or []),
        start_at=start,
        end_at=start + timedelta(hours=float(duration)) if duration else None,
        lat=float(item["lat"]),
        lng=float(item["lng"]),
        location_name=item.get("location_name", ""),
        status=item.get("status", ActivityStatus.ACTIVE),
        max_participants=int(item["max_participants"]),
        current_participants=int(item.get("current_participants", 0)),
        creator=creator,
        index_state=IndexState.PENDING,
    )
    activity.vibes = activity_vibes(activity)
    return activity


def load_demo_activities(
    items: list[dict], *, creator, embed: bool = True, now: datetime | None = None
):
    """Insert fixture items (bulk: no per-row task) and embed them synchronously in batches."""
    rows = [build_activity(item, creator=creator, now=now) for item in items]
    created = Activity.objects.bulk_create(rows, batch_size=500)
    totals = None
    if embed:
        totals = backfill(
            queryset=Activity.objects.filter(pk__in=[a.pk for a in created]), batch_size=64
        )
    return created, totals


def demo_rows(items: list[dict], *, creator) -> list[Activity]:
    """Return the saved demo activities of ``creator`` (title and location of a fixture item)."""
    keys = {(item["title"], item.get("location_name", "")) for item in items}
    candidates = Activity.objects.filter(
        creator=creator, title__in=sorted({title for title, _ in keys})
    ).order_by("pk")
    return [a for a in candidates if (a.title, a.location_name) in keys]


def _wall(moment: datetime, tz) -> datetime:
    """Return the naive local wall-clock time of ``moment`` in ``tz``."""
    return moment.astimezone(tz).replace(tzinfo=None)


def next_week_after(moment: datetime, *, tz_name: str, now: datetime) -> datetime:
    """Return ``moment`` moved forward by whole weeks to just after ``now``.

    Weeks are counted on the local wall clock of ``tz_name``, so the weekday and the time of
    day (what the embedded text says) stay the same across a daylight-saving change.
    """
    tz = zoneinfo.ZoneInfo(tz_name)
    local = _wall(moment, tz)
    weeks = max(1, (now - moment) // timedelta(weeks=1) + 1)
    moved = (local + timedelta(weeks=weeks)).replace(tzinfo=tz)
    while moved <= now:  # an hour lost to daylight saving can leave it just short
        weeks += 1
        moved = (local + timedelta(weeks=weeks)).replace(tzinfo=tz)
    return moved


def demo_activities_roll_forward(
    *, items: list[dict], creator, now: datetime | None = None
) -> list[Activity]:
    """Move demo activities that have started forward by whole weeks; return the moved rows.

    Demo start times are relative to the load date, so a database loaded weeks ago would
    otherwise have nothing left to find. Idempotent: a second run finds nothing in the past.
    Each row is changed by ``activity_change``, which re-indexes it if its embedded text changed
    (weekday and part of day are kept, so normally nothing is embedded again).
    """
    now = now or timezone.now()
    moved = []
    with transaction.atomic():
        for activity in demo_rows(items, creator=creator):
            if activity.start_at > now:
                continue
            tz = zoneinfo.ZoneInfo(activity.time_zone)
            start = next_week_after(activity.start_at, tz_name=activity.time_zone, now=now)
            end = activity.end_at
            if end is not None:
                # The same wall-clock shift as the start keeps the local end time too.
                shift = start.replace(tzinfo=None) - _wall(activity.start_at, tz)
                end = (_wall(end, tz) + shift).replace(tzinfo=tz)
            moved.append(activity_change(activity=activity, start_at=start, end_at=end))
    return moved
