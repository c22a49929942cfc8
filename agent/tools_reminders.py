"""The agent's tools over the day-before reminders of activities: "don't remind me", 不用提醒我,
and "remind me" again; and whether, and when, they come ("will I get a reminder?"); and the
reminders of times the user told, listed and cancelled ("cancel the reminder about my pills").

Like those of agent/tools.py, it is ``func(user, **arguments)`` registered with its JSON schema
(agent/tool_registry.py). Every activity a user is on is reminded the day before it starts
(``agent.activity_reminders``); this turns that off or back on for the user alone.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from activities.models import ActivityStatus
from activities.selectors import activities_of_user, activity_get_visible, activity_has_user
from agent import activity_reminders, triggers
from agent.models import EventKind
from agent.selectors import events_recorded, reminders_muted
from agent.services import reminders_set, task_reminders_cancel
from agent.task_reminders import task_matches
from agent.tool_registry import tool
from agent.tools import activity_shape

# How many of one's activities "don't remind me of anything" reaches: every one ahead a user
# could hold (the listing of one's own activities shows at most this many too).
AHEAD_LIMIT = 50


@tool(
    "setActivityReminder",
    "Turn off (remind=false) or back on (remind=true) the reminder the user gets the day before "
    "an activity they joined or organise; without activityId, for every such activity ahead.",
    {"activityId": {"type": "integer"}, "remind": {"type": "boolean"}},
    ("remind",),
)
def set_activity_reminder(user, *, remind, activityId=None):
    """Mute or unmute the reminders; return the activities it applies to and whether the user
    is on the one named (one they are not on has no reminder to turn on)."""

    remind = bool(remind)
    if activityId is not None:
        activity = activity_get_visible(user=user, activity_id=int(activityId))
        reminders_set(user=user, activity_ids=[activity.pk], remind=remind)
        on_it = activity_has_user(user=user, activity_id=activity.pk)
        return {"activities": [activity_shape(activity)], "remind": remind, "onIt": on_it}
    rows = _ahead(user)
    reminders_set(user=user, activity_ids=[a.pk for a in rows], remind=remind)
    return {"activities": [activity_shape(a) for a in rows], "remind": remind, "onIt": bool(rows)}


def _ahead(user) -> list:
    """Return the activities ahead the user is on that a reminder is for: drafts and cancelled
    ones are reminded of nothing (an audit, session 53: drafts were listed as "your activities
    ahead")."""
    rows, _joined = activities_of_user(user=user, start=timezone.now(), limit=AHEAD_LIMIT)
    return [a for a in rows if a.status == ActivityStatus.ACTIVE]


def _told_ahead(user) -> list[dict]:
    """Return the reminders ahead of the times the user's messages told (asked for at a time, or
    a deadline's the day before), soonest first, each with what was said first, when it goes
    out and its period ``key``; none the user cancelled since last telling it."""
    now = timezone.now()
    since = now - timedelta(days=triggers.DEADLINE_LOOKBACK_DAYS)
    ahead = []
    for key, told in triggers.told_reminders(user=user, since=since, until=now).items():
        opens, closes = triggers.reminder_window(told["due"], asked=told["asked"])
        if closes > now:
            ahead.append(
                {
                    "said": told["messages"][0].content,
                    "dueAt": told["due"].isoformat(),
                    "remindAt": timezone.localtime(opens).isoformat(),
                    "asked": told["asked"],
                    "key": key,
                }
            )
    return sorted(ahead, key=lambda t: t["dueAt"])


def _public(task: dict) -> dict:
    """Return a told reminder as the tools give it: without its key."""
    return {k: v for k, v in task.items() if k != "key"}


def _tasks_ahead(user) -> list[dict]:
    """Return the reminders ahead of the times the user told, each with whether it was sent."""
    tasks = _told_ahead(user)
    sent = events_recorded(
        user=user, kind=EventKind.DEADLINE_REMINDER, period_keys=[t["key"] for t in tasks]
    )
    return [{**_public(t), "reminded": t["key"] in sent} for t in tasks]


@tool(
    "cancelTaskReminder",
    'Cancel the reminders of times the user told ("remind me to take my pills at 9", a '
    'deadline) whose words hold every word `about` names ("pills", 吃药), or every one '
    "(`all`); return the ones cancelled. Telling the time again brings a reminder back.",
    {"about": {"type": "string"}, "all": {"type": "boolean"}},
)
def cancel_task_reminder(user, *, about="", all=False):  # noqa: A002 (the tool's argument name)
    """Cancel the told reminders ahead that ``about`` names (every one with ``all``); return
    them (none: nothing named)."""
    ahead = _told_ahead(user)
    matching = ahead if all else task_matches(str(about), ahead)
    task_reminders_cancel(user=user, tasks=[(t["key"], t["said"]) for t in matching])
    return {"tasks": [_public(t) for t in matching]}


@tool(
    "getActivityReminders",
    "Tell whether the user gets the day-before reminder of an activity they joined or organise "
    "(or of every one ahead, without activityId), from when, and whether it was sent; without "
    'activityId, also the reminders of the times the user told ("remind me to call mom at 5").',
    {"activityId": {"type": "integer"}},
)
def get_activity_reminders(user, *, activityId=None):
    """Return the activities (the one named, else every one ahead the user is on), each with
    ``remind`` (the user is on it and did not turn its reminder off), ``remindFrom`` (the
    reminder goes out during the day before the start) and ``reminded`` (it was sent); without
    one named, ``tasks`` too: the reminders of the times the user's messages told."""
    if activityId is not None:
        rows = [activity_get_visible(user=user, activity_id=int(activityId))]
        on = {a.pk for a in rows if activity_has_user(user=user, activity_id=a.pk)}
    else:
        rows = _ahead(user)
        on = {a.pk for a in rows}
    muted = {a for u, a in reminders_muted(activity_ids=[a.pk for a in rows]) if u == user.pk}
    keys = {a.pk: activity_reminders.activity_reminder_key(a) for a in rows}
    sent = events_recorded(user=user, kind=EventKind.ACTIVITY_REMINDER, period_keys=keys.values())
    shapes = []
    for activity in rows:
        opens = activity.start_at - activity_reminders.ACTIVITY_REMINDER_AHEAD
        shapes.append(
            {
                **activity_shape(activity),
                "remind": activity.pk in on and activity.pk not in muted,
                "remindFrom": timezone.localtime(opens).isoformat(),
                "reminded": keys[activity.pk] in sent,
            }
        )
    if activityId is not None:
        return {"activities": shapes}
    return {"activities": shapes, "tasks": _tasks_ahead(user)}
