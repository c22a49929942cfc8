"""The agent's errand tools: explore, create, find a partner, manage activities.

Plain functions with a JSON schema (registered in agent/tool_registry.py), each calling the
owning app's services.

Every tool is ``func(user, **arguments)``. The caller binds ``user`` from ``request.user``; the
schemas never contain a user id. A chat-scoped tool (the draft tools) also gets ``chat_id`` from
the turn, never from the model: the draft a chat creates is the one that chat refines and
publishes. The tools over memory (shared contexts, recall) are in agent/tools_memory.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from activities import services
from activities.models import ActivityStatus
from activities.search import activities_search
from activities.selectors import activities_of_user, activity_get_visible, activity_list
from agent.extract import DEFAULT_RADIUS_KM, extract_time_range, start_of_today
from agent.models import AgentSession
from agent.selectors import others_looking, partner_intents_open
from agent.services import partner_intent_close, partner_intent_open
from agent.tool_registry import tool
from config.errors import Conflict, InvalidArgument, NotFound
from config.permissions import acts_for_any_user
from memory.selectors import preferences_list

# Used for a draft when the client never sent a location: People's Square, Shanghai.
DEFAULT_LOCATION = (31.2304, 121.4737)

TIME_RANGE_SCHEMA = {
    "type": "object",
    "description": "ISO 8601 start and end (Asia/Shanghai when no offset is given).",
    "properties": {"start": {"type": "string"}, "end": {"type": "string"}},
}


# --- helpers ---------------------------------------------------------------------------------


def last_location(user) -> tuple[float, float] | None:
    """Return the user's last known (lat, lng), as sent with a chat request."""

    row = (
        AgentSession.objects.filter(user=user, lat__isnull=False, lng__isnull=False)
        .order_by("-updated_at")
        .values_list("lat", "lng")
        .first()
    )
    return (row[0], row[1]) if row else None


def _when(value) -> datetime | None:
    """Parse an ISO time or a Chinese expression ("周五晚上七点") into an aware datetime."""
    if value in (None, ""):
        return None
    if isinstance(value, datetime):
        return value
    parsed = parse_datetime(str(value))
    if parsed is None:
        found = extract_time_range(str(value))
        if found is None:
            raise InvalidArgument(gettext("Cannot read the time %(value)r.") % {"value": value})
        parsed = found.point or found.start.replace(hour=max(found.start.hour, 19), minute=0)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, timezone.get_default_timezone())
    return parsed


def activity_shape(activity) -> dict:
    """Return the fields of an activity a tool result shows."""
    return {
        "id": activity.pk,
        "title": activity.title,
        "type": activity.type,
        "status": activity.status,
        "startAt": timezone.localtime(activity.start_at).isoformat(),
        "locationName": activity.location_name,
        "maxParticipants": activity.max_participants,
        "currentParticipants": activity.current_participants,
    }


def partner_intent_shape(intent) -> dict:
    """Return the fields of a search for company a tool result shows."""
    return {
        "id": intent.pk,
        "activityType": intent.activity_type,
        "description": intent.description,
        "timeRange": intent.time_range,
    }


def _own_activity(user, activity_id):

    activity = activity_get_visible(user=user, activity_id=int(activity_id))
    if activity.creator_id != user.pk and not acts_for_any_user(user):
        raise NotFound(gettext("Activity not found."))
    return activity


def _remember_draft(user, chat_id: str | None, activity_id: int) -> None:
    """Make ``activity_id`` the draft chat ``chat_id`` is editing."""

    if chat_id:
        AgentSession.objects.update_or_create(
            user=user, chat_id=chat_id, defaults={"draft_activity_id": activity_id}
        )


def _chat_draft(user, chat_id: str | None, activity_id=None):
    """Return the draft to act on: the one named, else this chat's, else (no chat) the newest."""

    if activity_id is not None:
        return _own_activity(user, activity_id)
    if chat_id:
        # Only this chat's draft: "发布" in one chat must not publish a draft made in another.
        draft_id = (
            AgentSession.objects.filter(user=user, chat_id=chat_id)
            .values_list("draft_activity_id", flat=True)
            .first()
        )
        if draft_id is None:
            raise NotFound(gettext("This chat has no draft yet; create one first."))
        draft = _own_activity(user, draft_id)
        if draft.status != ActivityStatus.DRAFT:
            raise Conflict(
                gettext("This chat's draft is already %(status)s; create a new one.")
                % {"status": ActivityStatus(draft.status).label}
            )
        return draft
    draft = (
        activity_list(user=user, status=ActivityStatus.DRAFT)
        .filter(creator=user)
        .order_by("-updated_at", "-pk")
        .first()
    )
    if draft is None:
        raise NotFound(gettext("You have no draft yet; create one first."))
    return draft


# --- EXPLORE ---------------------------------------------------------------------------------


@tool(
    "exploreNearby",
    "Search joinable activities by meaning, optionally near the user, in a time range, of a type.",
    {
        "query": {"type": "string", "description": "What the user wants, in their words."},
        "timeRange": TIME_RANGE_SCHEMA,
        "type": {"type": "string", "description": "Activity type, e.g. 美食, 户外, 音乐."},
        "nearby": {"type": "boolean", "description": "Only near the user's last location."},
        "radiusInKm": {"type": "number"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 10},
        "excludeIds": {
            "type": "array",
            "items": {"type": "integer"},
            "maxItems": 30,
            "description": "Activities already shown, left out (the user asked for others).",
        },
    },
)
def explore_nearby(
    user,
    *,
    query="",
    timeRange=None,
    type=None,
    nearby=False,
    radiusInKm=None,
    limit=5,
    excludeIds=(),
):
    """Call the activities search with the user bound from the request; leave out
    ``excludeIds`` (searched that many deeper, so "换一批" still gets ``limit`` others)."""

    filters: dict = {}
    known = last_location(user)
    location = known if nearby else None
    if location:
        filters["location"] = {
            "lat": location[0],
            "lng": location[1],
            "radiusInKm": float(radiusInKm or DEFAULT_RADIUS_KM),
        }
    elif known:
        # Not asked to stay near, but where the user is is known: no radius, only the distance
        # of each result, which every recommendation line states.
        filters["location"] = {"lat": known[0], "lng": known[1]}
    if isinstance(timeRange, dict) and (timeRange.get("start") or timeRange.get("end")):
        filters["timeRange"] = {k: timeRange[k] for k in ("start", "end") if timeRange.get(k)}
    if type:
        filters["type"] = type
    limit = max(1, min(int(limit or 5), 10))
    exclude = {int(pk) for pk in (excludeIds or ())[:30]}
    found = activities_search(
        user=user, semantic_query=query, filters=filters, limit=limit + len(exclude)
    )
    return {
        "results": [r for r in found["results"] if r["id"] not in exclude][:limit],
        "meta": {
            "path": found["meta"].get("path"),
            "candidates": found["meta"].get("candidates"),
            "degraded": found["meta"].get("degraded"),
            "degradedReason": found["meta"].get("degradedReason"),
            "nearby": bool(location),
            "nearbyUnknown": bool(nearby and not location),
        },
    }


# --- CREATE ----------------------------------------------------------------------------------

DRAFT_PROPERTIES = {
    "title": {"type": "string"},
    "type": {"type": "string", "description": "Activity type, e.g. 桌游, 户外."},
    "description": {"type": "string"},
    "startAt": {"type": "string", "description": "ISO 8601 or a Chinese time like 周六下午三点."},
    "locationName": {"type": "string"},
    "maxParticipants": {"type": "integer", "minimum": 1},
    "tags": {"type": "array", "items": {"type": "string"}},
}
# The activities service's names of the draft properties named otherwise.
DRAFT_FIELDS = {"locationName": "location_name", "maxParticipants": "max_participants"}


@tool(
    "createDraft",
    "Create a draft activity the user will organise.",
    DRAFT_PROPERTIES,
    ("title",),
    chat_scoped=True,
)
def create_draft(
    user,
    *,
    chat_id=None,
    title,
    type="社交",
    description="",
    startAt=None,
    locationName="",
    maxParticipants=6,
    tags=None,
):
    """Create a draft (status draft, invisible to others) at the user's last location.

    The draft becomes the one this chat edits (``AgentSession.draft_activity_id``).
    """

    lat, lng = last_location(user) or DEFAULT_LOCATION
    start = _when(startAt) or (timezone.localtime() + timedelta(days=3)).replace(
        hour=19, minute=0, second=0, microsecond=0
    )
    activity = services.activity_create(
        creator=user,
        lat=lat,
        lng=lng,
        title=str(title)[:200],
        type=str(type or "社交")[:50],
        description=str(description or ""),
        start_at=start,
        location_name=str(locationName or ""),
        max_participants=int(maxParticipants or 6),
        tags=list(tags or []),
        status=ActivityStatus.DRAFT,
    )
    _remember_draft(user, chat_id, activity.pk)
    return {"draft": activity_shape(activity)}


@tool(
    "refineDraft",
    "Change fields of the draft this chat created (or of the activity activityId names).",
    {"activityId": {"type": "integer"}, **DRAFT_PROPERTIES},
    chat_scoped=True,
)
def refine_draft(user, *, chat_id=None, activityId=None, **changes):
    """Update the draft through the activities service (creator only)."""

    draft = _chat_draft(user, chat_id, activityId)
    fields = {
        DRAFT_FIELDS.get(k, k): v
        for k, v in changes.items()
        if k in DRAFT_PROPERTIES and k != "startAt"
    }
    if "startAt" in changes:
        fields["start_at"] = _when(changes["startAt"])
    if "max_participants" in fields:
        fields["max_participants"] = int(fields["max_participants"])
    if not fields:
        raise InvalidArgument(
            gettext("Say what to change: title, time, place, size or description.")
        )
    activity = services.activity_update(activity=draft, user=user, **fields)
    return {"draft": activity_shape(activity), "changed": sorted(changes)}


@tool(
    "publishActivity",
    "Publish the draft this chat created (or the one activityId names) so others can join it.",
    {"activityId": {"type": "integer"}},
    chat_scoped=True,
)
def publish_activity(user, *, chat_id=None, activityId=None):
    """Set the draft's status to active."""

    draft = _chat_draft(user, chat_id, activityId)
    activity = services.activity_update(activity=draft, user=user, status=ActivityStatus.ACTIVE)
    return {"activity": activity_shape(activity)}


# --- PARTNER ---------------------------------------------------------------------------------


@tool(
    "createPartnerIntent",
    "Record that the user looks for company for an activity, and count open matches.",
    {
        "activityType": {"type": "string"},
        "description": {"type": "string"},
        "timeRange": TIME_RANGE_SCHEMA,
    },
)
def create_partner_intent(user, *, activityType="", description="", timeRange=None):
    """Open a partner intent (the same open one when asked again: ``agent.services``); return
    it with the number of others looking likewise."""

    if not (activityType or description):
        raise InvalidArgument(gettext("Say what you want company for."))
    intent = partner_intent_open(
        user=user,
        activity_type=str(activityType or "")[:50],
        description=str(description or ""),
        time_range=timeRange if isinstance(timeRange, dict) else None,
    )
    return {
        "partnerIntent": {**partner_intent_shape(intent), "status": intent.status},
        "openMatches": others_looking(user=user, activity_type=intent.activity_type),
    }


@tool(
    "getPartnerIntents",
    "List the user's open searches for company, each with how many others look likewise.",
    {},
)
def get_partner_intents(user):
    """Return the user's open partner intents (``agent.selectors.partner_intents_open``)."""

    return {
        "partnerIntents": [
            {**partner_intent_shape(intent), "openMatches": matches}
            for intent, matches in partner_intents_open(user=user)
        ]
    }


@tool(
    "closePartnerIntent",
    "Stop one of the user's open searches for company (the id from getPartnerIntents).",
    {"intentId": {"type": "integer"}},
    ("intentId",),
)
def close_partner_intent(user, *, intentId):
    """Close the user's open partner intent ``intentId`` (``agent.services``)."""

    intent = partner_intent_close(user=user, intent_id=int(intentId))
    return {"partnerIntent": {**partner_intent_shape(intent), "status": intent.status}}


@tool(
    "askPreference",
    "Read what the user prefers (optionally one category) before asking a follow-up question.",
    {"category": {"type": "string"}, "question": {"type": "string"}},
)
def ask_preference(user, *, category=None, question=""):
    """Return the user's stored preferences and the question to put to them."""

    prefs = [p for p in preferences_list(user=user) if not category or p.category == category]
    return {
        "preferences": [{"category": p.category, "value": p.value} for p in prefs],
        "question": question or "你更喜欢热闹一点还是安静一点？什么时间方便？",
    }


# --- MANAGE ----------------------------------------------------------------------------------


@tool(
    "getMyActivities",
    "List the activities the user joined or created, by start time: from today on, or those "
    "starting in timeRange.",
    {
        "scope": {"type": "string", "enum": ["all", "joined", "created", "drafts"]},
        "timeRange": TIME_RANGE_SCHEMA,
    },
)
def get_my_activities(user, *, scope="all", timeRange=None):
    """Return the user's own activities (``activities.selectors.activities_of_user``); without
    a time range from today on (ended ones filled the list; a make-run look, session 50)."""

    start = end = None
    if isinstance(timeRange, dict):
        start = _when(timeRange["start"]) if timeRange.get("start") else None
        end = _when(timeRange["end"]) if timeRange.get("end") else None
    else:
        start = start_of_today()
    rows, joined_ids = activities_of_user(user=user, scope=scope, start=start, end=end)
    items = []
    for activity in rows:
        item = activity_shape(activity)
        item["role"] = "creator" if activity.creator_id == user.pk else "participant"
        item["joined"] = activity.pk in joined_ids
        items.append(item)
    return {"activities": items, "scope": scope}


@tool(
    "getActivity",
    "Show one activity the user can see: its time, place, places taken and description.",
    {"activityId": {"type": "integer"}},
    ("activityId",),
)
def get_activity(user, *, activityId):
    """Return one visible activity (``activities.selectors.activity_get_visible``) with its end
    (None when not set) and the start of its description."""

    activity = activity_get_visible(user=user, activity_id=int(activityId))
    end = timezone.localtime(activity.end_at).isoformat() if activity.end_at else None
    return {
        "activity": {
            **activity_shape(activity),
            "endAt": end,
            "description": activity.description[:300],
        }
    }


@tool(
    "cancelActivity",
    "Cancel an activity the user created, or leave one the user joined.",
    {"activityId": {"type": "integer"}},
    ("activityId",),
)
def cancel_activity(user, *, activityId):
    """Cancel the user's own activity (status cancelled) or leave a joined one."""

    activity = activity_get_visible(user=user, activity_id=int(activityId))
    if activity.creator_id == user.pk:
        updated = services.activity_update(
            activity=activity, user=user, status=ActivityStatus.CANCELLED
        )
        return {"activity": activity_shape(updated), "action": "cancelled"}
    activity = services.participation_cancel(activity_id=activity.pk, user=user)
    return {"activity": activity_shape(activity), "action": "left"}


@tool(
    "joinActivity",
    "Join an activity (take a place in it); refused when it is full, started or not active.",
    {"activityId": {"type": "integer"}},
    ("activityId",),
)
def join_activity(user, *, activityId):
    """Take a place through ``activities.services.activity_join``; count it as a positive.

    A join from the agent is the user choosing a recommendation, so it is recorded as a +1
    participation (``participation_feedback``), which refreshes the working memory: from the
    third positive on, the joined activities' embeddings personalise search by MaxSim. A rating
    given after the activity replaces it.
    """

    # One transaction: a place taken through the agent is always counted as the user's +1.
    with transaction.atomic():
        participation = services.activity_join(activity_id=int(activityId), user=user)
        services.participation_feedback(activity_id=participation.activity_id, user=user, rating=1)
    activity = participation.activity
    activity.refresh_from_db(fields=["current_participants"])
    return {"activity": activity_shape(activity), "action": "joined"}


@tool(
    "leaveActivity",
    "Leave an activity the user joined (frees the place); never cancels one the user organises.",
    {"activityId": {"type": "integer"}},
    ("activityId",),
)
def leave_activity(user, *, activityId):
    """Give the place back through ``activities.services.participation_cancel``."""

    activity = services.participation_cancel(activity_id=int(activityId), user=user)
    return {"activity": activity_shape(activity), "action": "left"}
