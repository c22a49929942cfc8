"""Reads of the activities app: its live settings, what a user may see."""

from __future__ import annotations

import re

from django.db.models import F, Q, Value
from django.db.models.functions import Length
from django.utils import timezone
from django.utils.translation import gettext

from activities.models import Activity, ActivitySettings, ActivityStatus
from activities.named_kinds import split_form
from config import live
from config.errors import InvalidArgument, NotFound
from config.permissions import acts_for_any_user
from rag.embeddings import content_hash, current_model
from rag.rating_targets import RatedTarget


def activity_settings_get() -> ActivitySettings:
    """Return the live settings of activity search (config.live: cached, dropped on save)."""
    return live.read(ActivitySettings)


def activities_visible_to(user):
    """Return the activities a user may see: all but other users' drafts (all: act for any)."""
    qs = Activity.objects.defer("embedding", "meta_embedding", "search_text")
    if acts_for_any_user(user):
        return qs
    return qs.filter(~Q(status=ActivityStatus.DRAFT) | Q(creator=user))


def activity_get_visible(*, user, activity_id: int) -> Activity:
    """Return one visible activity or raise NotFound (someone else's draft is not found)."""
    activity = activities_visible_to(user).filter(pk=activity_id).first()
    if activity is None:
        raise NotFound(gettext("Activity not found."))
    return activity


def activity_rating_target(*, user, target_id: str) -> RatedTarget:
    """Return the activity ``target_id`` names as a rating target, or raise NotFound."""
    if not target_id.isdigit() or len(target_id) > 18:
        raise NotFound(gettext("No such activity."), details={"field": "target_id"})
    activity = activity_get_visible(user=user, activity_id=int(target_id))
    return RatedTarget(pk=activity.pk, label=activity.title)


def activity_list(*, user, type: str | None = None, status: str | None = None):
    """Return the list view: active activities plus the user's own drafts, by start time."""
    qs = Activity.objects.defer("embedding", "meta_embedding", "search_text").filter(
        Q(status=ActivityStatus.ACTIVE) | Q(status=ActivityStatus.DRAFT, creator=user)
    )
    if type:
        qs = qs.filter(type=type)
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("start_at", "pk")


def activity_named_in(*, user, text: str) -> Activity | None:
    """Return the joinable-or-full upcoming activity whose whole title the text contains (the
    longest such title), or None. Full ones too: "报名<title>" for a listing that filled up must
    be refused as full, not taken for another activity."""
    if not text:
        return None
    # The database finds the titles the text contains (one query, whatever the number of
    # activities), not Python over every upcoming row.
    return (
        activities_visible_to(user)
        .filter(status=ActivityStatus.ACTIVE, start_at__gt=timezone.now())
        .annotate(title_length=Length("title"), message=Value(text))
        .filter(title_length__gte=4, message__contains=F("title"))
        .only("pk", "title")
        .order_by("-title_length", "pk")
        .first()
    )


# A listing's text fields, the ones activities.named_kinds.row_text reads.
_KIND_FIELDS = ("title", "description", "type", "location_name", "tags", "vibes")


def activities_naming_kinds(*, kinds) -> list[Activity]:
    """Return every activity, whatever its day or state, whose text may name one of ``kinds``
    (activities.named_kinds.NamedKind, with their ``held`` words): a superset the caller reads
    with ``named_kinds.names``. Whether the city lists a kind at all, not whether a search's
    candidates hold it."""
    # The database narrows by substring (one query, whatever the number of activities); an
    # English word is matched by its longest part, as the kind's pattern may join its parts by
    # a hyphen or a space ("water-skiing"), so nothing the pattern would match is left out.
    parts = {
        max(re.split(r"[\s-]+", word), key=len)
        for kind in kinds
        for word in (*kind.words, *kind.held)
    }
    parts.discard("")
    # A verb-headed naming word also reads written apart (「钓黑鱼」 for 钓鱼): the pattern
    # named_kinds.split_form gives, which PostgreSQL's regex reads as Python's does.
    apart = {pattern for kind in kinds for word in kind.words if (pattern := split_form(word))}
    if not parts:
        return []
    match = Q()
    for part in sorted(parts):
        for field in _KIND_FIELDS:
            match |= Q(**{f"{field}__icontains": part})
    for pattern in sorted(apart):
        for field in _KIND_FIELDS:
            match |= Q(**{f"{field}__regex": pattern})
    return list(Activity.objects.filter(match).only("pk", *_KIND_FIELDS))


MY_SCOPES = ("all", "joined", "created", "drafts")


def activities_of_user(*, user, scope: str = "all", start=None, end=None, limit: int = 20):
    """Return ``(activities, joined_ids)``: what the user joined and/or created, by start time.

    ``scope``: ``joined``, ``created`` (published, not drafts), ``drafts`` or ``all``;
    ``start``/``end`` bound the start time.
    """
    if scope not in MY_SCOPES:
        raise InvalidArgument(
            gettext("scope must be one of %(choices)s.") % {"choices": ", ".join(MY_SCOPES)}
        )
    qs = Activity.objects.defer("embedding", "meta_embedding", "search_text")
    joined = qs.filter(participations__user=user)
    created = qs.filter(creator=user)
    if scope == "joined":
        rows = joined
    elif scope == "created":
        rows = created.exclude(status=ActivityStatus.DRAFT)
    elif scope == "drafts":
        rows = created.filter(status=ActivityStatus.DRAFT)
    else:
        rows = qs.filter(Q(participations__user=user) | Q(creator=user)).distinct()
    if start is not None:
        rows = rows.filter(start_at__gte=start)
    if end is not None:
        rows = rows.filter(start_at__lte=end)
    joined_ids = set(joined.values_list("pk", flat=True))
    return list(rows.order_by("start_at", "pk")[:limit]), joined_ids


def activity_ids_of_kind(*, ids, kind: str) -> set[int]:
    """Return those of ``ids`` whose type, vibe or tag is ``kind`` (a frisbee game of type 运动
    is 户外 by its vibes)."""
    return set(
        Activity.objects.filter(pk__in=list(ids))
        .filter(Q(type=kind) | Q(vibes__contains=[kind]) | Q(tags__contains=[kind]))
        .values_list("pk", flat=True)
    )


def activities_starting_between(*, start, end) -> list[tuple]:
    """Return ``(user, activity)`` for every active activity starting in ``[start, end)`` and
    every user on it (its participants and its organiser), by start time."""
    rows = (
        Activity.objects.defer("embedding", "meta_embedding", "search_text")
        .filter(status=ActivityStatus.ACTIVE, start_at__gte=start, start_at__lt=end)
        .select_related("creator")
        .prefetch_related("participations__user")
        .order_by("start_at", "pk")
    )
    pairs = []
    for activity in rows:
        users = {activity.creator.pk: activity.creator}
        users.update((p.user.pk, p.user) for p in activity.participations.all())
        pairs.extend((users[pk], activity) for pk in sorted(users))
    return pairs


def activity_has_user(*, user, activity_id: int) -> bool:
    """Return whether the user is on the activity: holds a place in it or organises it."""
    return Activity.objects.filter(
        Q(participations__user=user) | Q(creator=user), pk=activity_id
    ).exists()


def activity_joined_by(*, user, activity_id: int) -> bool:
    """Return whether the user holds a place in the activity (one the user can leave)."""
    return Activity.objects.filter(participations__user=user, pk=activity_id).exists()


def is_current(activity: Activity, model: str | None = None) -> bool:
    """Return whether the row's vector was made by the active model from its present text."""
    return (
        activity.embedding is not None
        and all(getattr(activity, f) is not None for f in activity.EXTRA_VECTOR_FIELDS)
        and activity.embedding_model == (model or current_model())
        and activity.embedding_hash == content_hash(activity.embedding_text())
    )
