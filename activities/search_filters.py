"""The hard filters of the activity search: read the request's filters, build the queryset.

:func:`parse_filters` checks the filters through ``SearchFiltersSerializer`` (the one statement
of their rules) and :func:`hard_filter` keeps the rows every search starts from: active,
starting in the future, not full, within the radius, inside the time range, of the type.
:func:`query_filtered` reads the query and narrows that queryset by its time and place.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from activities.geo import bounding_box, distance_expression
from activities.models import INDEX_BOOKKEEPING_FIELDS, Activity, ActivityStatus
from activities.search_relevance import SMALL_RESULT
from activities.serializers import SearchFiltersSerializer
from activities.understanding import (
    QueryUnderstanding,
    apply_time,
    plan_place,
    plan_time,
    read_query,
    user_zone,
)
from config.errors import InvalidArgument, field_path, first_error

# Columns a search never reads (indexing bookkeeping, the full-text column): not loaded, so each
# of the 40-60 rows it reads carries less, four timestamps fewer to parse.
UNREAD_FIELDS = (*INDEX_BOOKKEEPING_FIELDS, "index_task", "search_text", "created_at", "updated_at")

# A bare date as the end of a range means the whole of that day.
_BARE_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_filters(filters: dict | None) -> dict:
    """Validate a search's ``filters`` into plain values (raise InvalidArgument).

    The rules are the API's (``SearchFiltersSerializer``), for every caller: the API, the agent's
    tools, the staff page.
    """
    out: dict = {"location": None, "start": None, "end": None, "type": None}
    if not filters:
        return out
    if not isinstance(filters, dict):
        raise InvalidArgument(gettext("filters must be an object."), details={"field": "filters"})
    time_range = filters.get("timeRange")
    if isinstance(time_range, dict) and _BARE_DATE_RE.match(str(time_range.get("end") or "")):
        filters = {**filters, "timeRange": {**time_range, "end": f"{time_range['end']}T23:59:59"}}
    serializer = SearchFiltersSerializer(data=filters)
    if not serializer.is_valid():
        path, message = first_error(serializer.errors)
        field = field_path(("filters", *path))
        raise InvalidArgument(f"{field}: {message}", details={"field": field})
    data = serializer.validated_data
    location = data.get("location")
    if location:
        out["location"] = (location["lat"], location["lng"], location.get("radiusInKm"))
    time_range = data.get("timeRange") or {}
    out["start"], out["end"] = time_range.get("start"), time_range.get("end")
    if (data.get("type") or "").strip():
        out["type"] = data["type"].strip()
    return out


def hard_filter(parsed: dict, *, now: datetime | None = None):
    """Return the queryset of joinable rows passing every hard filter (distance annotated)."""
    now = now or timezone.now()
    qs = Activity.objects.filter(
        status=ActivityStatus.ACTIVE,
        start_at__gt=now,
        current_participants__lt=F("max_participants"),
    ).defer(*UNREAD_FIELDS)
    if parsed["type"]:
        qs = qs.filter(type=parsed["type"])
    if parsed["start"]:
        qs = qs.filter(start_at__gte=parsed["start"])
    if parsed["end"]:
        qs = qs.filter(start_at__lte=parsed["end"])
    if parsed["location"]:
        lat, lng, radius = parsed["location"]
        qs = qs.annotate(distance_km=distance_expression(lat, lng))
        if radius is not None:
            qs = qs.filter(**bounding_box(lat, lng, radius)).filter(distance_km__lte=radius)
    return qs


def with_words(query: str) -> str:
    """Return ``query``, or "" when it holds no letter, digit or Chinese character (「🎉🎉」,
    "👍", "?!"): nothing in it can be matched, so it is answered as an empty query is (the
    model had embedded the emoji and listed rows as if they were a request; issue 30, session
    51)."""
    return query if any(ch.isalnum() for ch in query) else ""


def query_filtered(
    query: str, parsed: dict, *, time_zone, now, hidden=()
) -> tuple[QueryUnderstanding, object, object]:
    """Read the query; return it, the hard-filter queryset with its time and place applied, and
    the same queryset without the time window (to judge the query against every joinable row).

    Activities in ``hidden`` (the user rated them -1) are left out of both querysets.
    ``parsed`` gains the radius of a place cue (a location without a radius); the time phrase's
    window narrows the queryset, or is recorded to rank by (``understood.time``).
    """
    try:
        zone = user_zone(time_zone)
    except ValueError:
        raise InvalidArgument(
            gettext("timeZone must be an IANA time zone name."), details={"field": "timeZone"}
        )
    understood = read_query(query, now=now, tz=zone)
    place = plan_place(understood, parsed["location"])
    if place.applied == "radius":
        lat, lng, _ = parsed["location"]
        parsed["location"] = (lat, lng, place.radius_km)
    qs = hard_filter(parsed, now=now)
    if hidden:
        qs = qs.exclude(pk__in=list(hidden))
    plan = plan_time(
        understood, qs, start=parsed["start"], end=parsed["end"], count_upto_rows=SMALL_RESULT + 1
    )
    understood = dataclasses.replace(understood, time=plan, place=place)
    return understood, apply_time(qs, plan), qs
