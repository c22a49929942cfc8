"""Turn demo fixture items into activities (demo loader, tests and the benchmark).

Demo rows are the ones created by the ``demo`` user whose title and location name are those of
a fixture item: the loader creates them so, and both must match, so a row a person wrote is
never taken for one.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from activities.backfill import backfill
from activities.models import Activity, ActivityStatus, IndexState
from activities.vibes import lexicon_vibes


def demo_start(day_offset: int, hour: float, *, now: datetime | None = None) -> datetime:
    """Return today + ``day_offset`` days at ``hour`` in the settings time zone."""
    tz = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    today = (
        (now or timezone.now()).astimezone(tz).replace(hour=0, minute=0, second=0, microsecond=0)
    )
    return today + timedelta(days=int(day_offset), minutes=int(round(float(hour) * 60)))


def build_activity(item: dict, *, creator, now: datetime | None = None) -> Activity:
    """Return an unsaved Activity from one fixture item (vibes from the lexicon)."""
    start = demo_start(item["day_offset"], item["hour"], now=now)
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
    activity.vibes = lexicon_vibes(
        type=activity.type,
        title=activity.title,
        description=activity.description,
        tags=activity.tags,
    )
    return activity


def load_demo_activities(items: list[dict], *, creator, embed: bool = True):
    """Insert fixture items (bulk: no per-row task) and embed them synchronously in batches."""
    rows = [build_activity(item, creator=creator) for item in items]
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
    Each row is saved normally, so the post_save receiver re-indexes it if its embedded text
    changed (weekday and part of day are kept, so normally nothing is embedded again).
    """
    now = now or timezone.now()
    moved = []
    with transaction.atomic():
        for activity in demo_rows(items, creator=creator):
            if activity.start_at > now:
                continue
            tz = zoneinfo.ZoneInfo(activity.time_zone)
            start = next_week_after(activity.start_at, tz_name=activity.time_zone, now=now)
            if activity.end_at is not None:
                # The same wall-clock shift as the start keeps the local end time too.
                shift = start.replace(tzinfo=None) - _wall(activity.start_at, tz)
                activity.end_at = (_wall(activity.end_at, tz) + shift).replace(tzinfo=tz)
            activity.start_at = start
            activity.save(update_fields=["start_at", "end_at", "updated_at"])
            moved.append(activity)
    return moved
