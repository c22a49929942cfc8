"""Writes of the activities app: create, update, delete, join, feedback."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from activities.models import Activity, ActivityStatus, IndexState, Participation
from activities.selectors import is_current
from activities.tasks import enqueue_index, enqueue_index_many
from activities.text import TEXT_FIELDS, VIBE_SOURCE_FIELDS
from activities.vibes import activity_vibes
from activities.working_memory import working_memory_refresh
from config.errors import Conflict, InvalidArgument, NotFound, PermissionDenied
from config.permissions import acts_for_any_user
from config.queues import queue_for_rows

EDITABLE_FIELDS = (
    "title",
    "description",
    "type",
    "tags",
    "start_at",
    "end_at",
    "time_zone",
    "lat",
    "lng",
    "location_name",
    "status",
    "max_participants",
    "current_participants",
)


# Checked by the model's own validators on every write path (API, admin, agent tools, commands):
# lengths, the accepted date range (config.inputs), integers within their column.
CHECKED_FIELDS = (
    "title",
    "description",
    "type",
    "start_at",
    "end_at",
    "time_zone",
    "max_participants",
    "current_participants",
)


def validate_activity(activity: Activity) -> None:
    """Raise InvalidArgument unless the activity may be stored (whoever the caller is)."""
    try:
        activity.clean_fields(
            exclude=[f.name for f in Activity._meta.fields if f.name not in CHECKED_FIELDS]
        )
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise InvalidArgument(
            f"{field}: {' '.join(messages)}", details={"fields": exc.message_dict}
        ) from None
    if not (activity.title or "").strip():
        raise InvalidArgument(gettext("The title must not be empty."), details={"field": "title"})
    if not -90 <= activity.lat <= 90 or not -180 <= activity.lng <= 180:
        raise InvalidArgument(
            gettext("The location is out of range."), details={"field": "location"}
        )
    if activity.max_participants < 1:
        raise InvalidArgument(gettext("max_participants must be at least 1."))
    if activity.current_participants > activity.max_participants:
        raise InvalidArgument(gettext("current_participants must not exceed max_participants."))
    if activity.end_at is not None and activity.end_at <= activity.start_at:
        raise InvalidArgument(
            gettext("end_at must be after start_at."), details={"field": "end_at"}
        )
    if activity.status not in ActivityStatus.values:
        raise InvalidArgument(gettext("Unknown status %(status)r.") % {"status": activity.status})


# The status changes a creator may make: publish a draft, cancel a draft or an active activity.
# Anything else (reviving a cancelled or finished activity, hiding an active one as a draft,
# declaring it finished) is the server's.
STATUS_CHANGES = {
    (ActivityStatus.DRAFT, ActivityStatus.ACTIVE),
    (ActivityStatus.DRAFT, ActivityStatus.CANCELLED),
    (ActivityStatus.ACTIVE, ActivityStatus.CANCELLED),
}


def activity_create(*, creator, lat: float, lng: float, **fields) -> Activity:
    """Create an activity; its embedding is made asynchronously after the commit."""
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise InvalidArgument(
            gettext("Unknown fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )
    activity = Activity(creator=creator, lat=lat, lng=lng, **fields)
    activity.tags = [str(t).strip() for t in (activity.tags or []) if str(t).strip()]
    activity.vibes = activity_vibes(activity)
    activity.index_state = IndexState.PENDING
    validate_activity(activity)
    with transaction.atomic():
        activity.save()
        enqueue_index(activity.pk)  # after the commit
    return activity


def can_edit(user, activity: Activity) -> bool:
    return bool(user and (activity.creator_id == user.pk or acts_for_any_user(user)))


def activity_update(*, activity: Activity, user, **changes) -> Activity:
    """Change an activity (creator or staff only); re-embed only if the embedded text changed."""
    if not can_edit(user, activity):
        raise PermissionDenied(gettext("Only the creator or staff may change this activity."))
    new_status = changes.get("status", activity.status)
    if new_status != activity.status and (activity.status, new_status) not in STATUS_CHANGES:
        raise InvalidArgument(
            gettext("An activity cannot go from %(old)s to %(new)s.")
            % {"old": activity.status, "new": new_status},
            details={"field": "status"},
        )
    return activity_change(activity=activity, **changes)


def activity_change(*, activity: Activity, **changes) -> Activity:
    """Change an activity for a caller already allowed to (the admin, the demo, activity_update).

    Recomputes the vibes when their sources change, validates, and queues indexing after the
    commit when the embedded text changed: every write path keeps these rules.
    """
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise InvalidArgument(
            gettext("Unknown fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )
    changed = [k for k, v in changes.items() if getattr(activity, k) != v]
    for key in changed:
        setattr(activity, key, changes[key])
    if set(changed) & set(VIBE_SOURCE_FIELDS):
        activity.vibes = activity_vibes(activity)
        changed.append("vibes")
    validate_activity(activity)
    if not changed:
        return activity
    reindex = bool(set(changed) & set(TEXT_FIELDS)) and not is_current(activity)
    if reindex:
        # New text, fresh retry budget (config.work).
        activity.index_state = IndexState.PENDING
        activity.index_attempts = 0
        changed += ["index_state", "index_attempts"]
    with transaction.atomic():
        activity.save(update_fields=[*changed, "updated_at"])
        if reindex:
            enqueue_index(activity.pk)  # after the commit
    return activity


def activity_vibes_fill(*, dry_run: bool = False, batch_size: int = 500) -> int:
    """Give the lexicon's vibes to every activity stored without any; return how many got some.

    English listings saved before the English lexicon (issue 30, session 41,
    ``activities.vibes_en``) have none, so the search's mood cues never fire on them. Rows that
    have vibes (the lexicon's, the LLM's, or set by hand) are left as they are; a row the
    lexicon gives nothing stays empty. The vibes are part of the embedded text: each changed row
    is queued for indexing again (``activities_fill_vibes`` runs this; safe to run twice).
    """
    filled = []
    empty = Activity.objects.filter(vibes=[]).only("pk", *VIBE_SOURCE_FIELDS).order_by("pk")
    for activity in empty.iterator(chunk_size=batch_size):
        vibes = activity_vibes(activity)
        if vibes:
            filled.append((activity.pk, vibes))
    if dry_run or not filled:
        return len(filled)
    with transaction.atomic():
        for pk, vibes in filled:
            # Only a row still without vibes: an edit since the read recomputed them already.
            Activity.objects.filter(pk=pk, vibes=[]).update(
                vibes=vibes, index_state=IndexState.PENDING, index_attempts=0
            )
        enqueue_index_many([pk for pk, _ in filled])  # after the commit
    return len(filled)


def activity_reindex(*, activity_ids: list[int]) -> int:
    """Queue the embedding of these activities again, even when their text is unchanged."""
    with transaction.atomic():
        # Clearing the hash makes the task re-embed even when the text is unchanged.
        count = Activity.objects.filter(pk__in=activity_ids).update(
            embedding_hash="", index_state=IndexState.PENDING, index_attempts=0
        )
        queue = queue_for_rows(len(activity_ids))
        for pk in activity_ids:
            enqueue_index(pk, queue=queue)
    return count


def activity_delete(*, activity: Activity, user) -> None:
    """Delete an activity (creator or staff only); its vector goes with the row."""
    if not can_edit(user, activity):
        raise PermissionDenied(gettext("Only the creator or staff may delete this activity."))
    liked_by = list(activity.participations.filter(feedback=1).values_list("user_id", flat=True))
    with transaction.atomic():
        activity.delete()
        for user_id in liked_by:
            working_memory_refresh(user_id=user_id)


def activity_join(*, activity_id: int, user) -> Participation:
    """Take a place in an activity; exactly one of two racing joins gets the last place."""
    with transaction.atomic():
        # The row lock serialises joins of one activity: the second waits, then sees it full.
        activity = Activity.objects.select_for_update().filter(pk=activity_id).first()
        if activity is None or (
            activity.status == ActivityStatus.DRAFT and activity.creator_id != user.pk
        ):
            raise NotFound(gettext("Activity not found."))
        if activity.status != ActivityStatus.ACTIVE:
            raise InvalidArgument(
                gettext("This activity is %(status)s; only active activities can be joined.")
                % {"status": ActivityStatus(activity.status).label},
                details={"status": activity.status},
            )
        if activity.start_at <= timezone.now():
            raise InvalidArgument(gettext("This activity has already started."))
        # Joined before full: a user who holds one of the places is told so, not "full".
        if Participation.objects.filter(user=user, activity=activity).exists():
            raise Conflict(
                gettext("You have already joined this activity."), details={"reason": "joined"}
            )
        if activity.current_participants >= activity.max_participants:
            raise InvalidArgument(gettext("This activity is full."), details={"reason": "full"})
        try:
            with transaction.atomic():
                participation = Participation.objects.create(user=user, activity=activity)
        except IntegrityError:
            raise Conflict(
                gettext("You have already joined this activity."), details={"reason": "joined"}
            )
        Activity.objects.filter(pk=activity.pk).update(
            current_participants=F("current_participants") + 1
        )
    return participation


def participation_cancel(*, activity_id: int, user) -> Activity:
    """Leave a joined activity before it starts; frees the place and forgets its rating."""
    with transaction.atomic():
        # Same row lock as activity_join: a leave and a join of the last place serialise.
        activity = Activity.objects.select_for_update().filter(pk=activity_id).first()
        participation = (
            Participation.objects.filter(user=user, activity_id=activity_id).first()
            if activity is not None
            else None
        )
        if participation is None:
            raise NotFound(gettext("You have not joined this activity."))
        if activity.start_at <= timezone.now():
            raise InvalidArgument(
                gettext("This activity has already started; it can no longer be left.")
            )
        liked = participation.feedback == 1
        participation.delete()
        Activity.objects.filter(pk=activity.pk, current_participants__gt=0).update(
            current_participants=F("current_participants") - 1
        )
        if liked:
            working_memory_refresh(user_id=user.pk)
    activity.refresh_from_db(fields=["current_participants"])
    return activity


def participation_feedback(*, activity_id: int, user, rating: int) -> Participation:
    """Record a rating (-1, 0, +1) and refresh the user's working memory."""
    if rating not in (-1, 0, 1):
        raise InvalidArgument(gettext("rating must be -1, 0 or 1."), details={"field": "rating"})
    with transaction.atomic():
        participation = (
            Participation.objects.select_for_update()
            .filter(user=user, activity_id=activity_id)
            .first()
        )
        if participation is None:
            if not Activity.objects.filter(pk=activity_id).exists():
                raise NotFound(gettext("Activity not found."))
            raise InvalidArgument(gettext("Join the activity before rating it."))
        participation.feedback = rating
        participation.feedback_at = timezone.now()
        participation.save(update_fields=["feedback", "feedback_at"])
        working_memory_refresh(user_id=user.pk)
    return participation
