"""Build the text an activity is embedded from, and describe times in Chinese.

Format, one line each (lines with nothing to say are kept so the layout never shifts)::

    标题: ...
    描述: ...
    类型: ...
    标签: a, b
    时间: 周六 下午
    地点: ...
    氛围: 安静, 文艺
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.conf import settings

WEEKDAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")

# Only the beginning of a description is embedded: it says what the activity is, the model
# reads 512 tokens of it anyway, and a bounded text keeps indexing to seconds whatever the
# description's length (a stored 1 MB description included).
EMBEDDED_DESCRIPTION_CHARS = 2000

# Fields whose change alters the embedded text (and so may re-embed).
TEXT_FIELDS = (
    "title",
    "description",
    "type",
    "tags",
    "start_at",
    "time_zone",
    "location_name",
    "vibes",
)
# Fields the vibe is inferred from.
VIBE_SOURCE_FIELDS = ("title", "description", "type", "tags")


def part_of_day(hour: int) -> str:
    """Return 早上 (5-11), 下午 (12-17), 晚上 (18-22) or 深夜 (23-4)."""
    if 5 <= hour < 12:
        return "早上"
    if 12 <= hour < 18:
        return "下午"
    if 18 <= hour < 23:
        return "晚上"
    return "深夜"


def local_time(value: datetime, time_zone: str | None = None) -> datetime:
    """Return an aware datetime in the activity's time zone (settings default if unknown)."""
    try:
        tz = zoneinfo.ZoneInfo(time_zone or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    return value.astimezone(tz)


def time_phrase(value: datetime, time_zone: str | None = None) -> str:
    """Return e.g. "周六 下午" for a start time."""
    local = local_time(value, time_zone)
    return f"{WEEKDAYS[local.weekday()]} {part_of_day(local.hour)}"


def _tags_text(activity) -> str:
    return ", ".join(str(t) for t in (activity.tags or []))


def meta_text_for(activity) -> str:
    """Return the text of an activity's kind vector (``Activity.meta_embedding``): type, tags."""
    return f"{activity.type} {_tags_text(activity)}".strip()


def embedding_text_for(activity) -> str:
    """Return the embedded text of an activity (any object with the model's fields)."""
    tags = _tags_text(activity)
    vibes = ", ".join(str(v) for v in (activity.vibes or []))
    lines = [
        f"标题: {activity.title}",
        f"描述: {(activity.description or '')[:EMBEDDED_DESCRIPTION_CHARS]}",
        f"类型: {activity.type}",
        f"标签: {tags}",
        f"时间: {time_phrase(activity.start_at, activity.time_zone)}",
        f"地点: {activity.location_name}",
        f"氛围: {vibes}",
    ]
    return "\n".join(line.rstrip() for line in lines)
