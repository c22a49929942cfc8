"""The activity reminder: the day before an activity a user joined or organises starts, its
title, time and place, once (a user asking "remind me the day before" after joining got "I don't
know": a make-run look, session 52). Key ``<activity id>@YYYY-MM-DDTHH:MM`` (its local start), so
an activity moved to another time is reminded again. Split from ``agent.triggers`` (session 56).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from activities.selectors import activities_starting_between
from agent.models import EventKind
from agent.selectors import reminders_muted
from agent.triggers import (
    DEADLINE_LOOKBACK_DAYS,
    deadline_period,
    mostly_english,
    polish,
    record_event,
)
from memory.selectors import messages_between

ACTIVITY_REMINDER_AHEAD = timedelta(days=1)


def activity_reminder_key(activity) -> str:
    """Return the period key of an activity's reminder: its id and local start, to the minute
    (moved to another time, it is reminded again)."""
    return f"{activity.pk}@{deadline_period(activity.start_at)}"


def activity_reminder_text(activity, english: bool, now: datetime) -> tuple[str, str]:
    """Return the title and text of the reminder of ``activity``, in one language: today's or
    tomorrow's, by its local day (one joined in the morning for the evening is today's)."""
    start = timezone.localtime(activity.start_at)
    today = start.date() == timezone.localtime(now).date()
    if english:
        where = f", {activity.location_name}" if activity.location_name else ""
        title = "Today's activity" if today else "Tomorrow's activity"
        return title, f'Reminder: "{activity.title}" starts {start:%a %d %b %H:%M}{where}.'
    where = f"，{activity.location_name}" if activity.location_name else ""
    when = f"{start.month}月{start.day}日 {start:%H:%M}"
    title = "今天的活动" if today else "明天的活动"
    return title, polish(f"提醒：「{activity.title}」{when} 开始{where}。")


def run_activity_reminders(now: datetime | None = None) -> int:
    """Remind every user on an activity (joined or organising) once, during the day before it
    starts, unless they asked not to be (``ReminderMute``); return events created. Written in the
    language the user writes in."""
    now = now or timezone.now()
    created = 0
    english_of: dict[int, bool] = {}

    def english(user) -> bool:
        # Read once per user per run, and only for a reminder not yet written.
        if user.pk not in english_of:
            since = now - timedelta(days=DEADLINE_LOOKBACK_DAYS)
            recent = messages_between(user=user, since=since, until=now, role="user")
            english_of[user.pk] = mostly_english(m.content for m in recent.order_by("-ts")[:50])
        return english_of[user.pk]

    pairs = activities_starting_between(start=now, end=now + ACTIVITY_REMINDER_AHEAD)
    muted = reminders_muted(activity_ids={activity.pk for _user, activity in pairs})
    for user, activity in pairs:
        if (user.pk, activity.pk) in muted:  # 不用提醒我 (agent.tools_reminders)
            continue

        def build(activity=activity, user=user):
            title, text = activity_reminder_text(activity, english(user), now)
            start = timezone.localtime(activity.start_at).isoformat()
            return {"title": title, "text": text, "activityId": activity.pk, "startAt": start}

        event = record_event(
            user=user,
            kind=EventKind.ACTIVITY_REMINDER,
            period_key=activity_reminder_key(activity),
            build=build,
        )
        created += event is not None
    return created
