"""Reads of the activities app."""

from __future__ import annotations

from django.db.models import Q

from activities.models import Activity, ActivityStatus
from config.errors import NotFound


def activities_visible_to(user):
    """Return the activities a user may see: all but other users' drafts (staff: all)."""
    qs = Activity.objects.defer("embedding", "search_text")
    if user.is_staff:
        return qs
    return qs.filter(~Q(status=ActivityStatus.DRAFT) | Q(creator=user))


def activity_get_visible(*, user, activity_id: int) -> Activity:
    """Return one visible activity or raise NotFound (someone else's draft is not found)."""
    activity = activities_visible_to(user).filter(pk=activity_id).first()
    if activity is None:
        raise NotFound("Activity not found.")
    return activity


def activity_list(*, user, type: str | None = None, status: str | None = None):
    """Return the list view: active activities plus the user's own drafts, by start time."""
    qs = Activity.objects.defer("embedding", "search_text").filter(
        Q(status=ActivityStatus.ACTIVE) | Q(status=ActivityStatus.DRAFT, creator=user)
    )
    if type:
        qs = qs.filter(type=type)
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("start_at", "pk")
