"""Turn demo fixture items into activities (demo loader, tests and the benchmark)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
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
