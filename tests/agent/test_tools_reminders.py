"""The tool turning the day-before reminders of activities off and on (agent.tools_reminders)."""

from __future__ import annotations

from datetime import datetime, timedelta

from agent.models import ReminderMute
from agent.tool_registry import REGISTRY


def run(user, **arguments):
    return REGISTRY["setActivityReminder"].run(user, arguments)


def test_a_reminder_turned_off_then_on_leaves_no_mute(user, other_user, make_activity_for):
    game = make_activity_for(other_user)
    assert run(user, activityId=game.pk, remind=False)["remind"] is False
    assert ReminderMute.objects.filter(user=user, activity=game).count() == 1
    result = run(user, activityId=game.pk, remind=True)
    assert result["onIt"] is False  # not joined: nothing to remind, and the answer says so
    assert not ReminderMute.objects.filter(user=user).exists()


def test_without_an_activity_every_one_ahead_of_the_user_is_muted(
    user, other_user, make_activity_for
):
    mine = make_activity_for(user, title="我的桌游局")
    theirs = make_activity_for(other_user, title="别人的飞盘局")
    result = run(user, remind=False)
    assert [a["id"] for a in result["activities"]] == [mine.pk]
    assert list(ReminderMute.objects.values_list("activity_id", flat=True)) == [mine.pk]
    assert not ReminderMute.objects.filter(activity=theirs).exists()


def test_an_activity_the_user_cannot_see_is_not_found_and_nothing_is_written(
    user, other_user, make_activity_for
):
    from activities.models import ActivityStatus

    draft = make_activity_for(other_user, status=ActivityStatus.DRAFT)
    result = run(user, activityId=draft.pk, remind=False)
    assert result["error"]["code"] == "NOT_FOUND"
    assert not ReminderMute.objects.exists()


def state(user, **arguments):
    return REGISTRY["getActivityReminders"].run(user, arguments)


def test_the_state_of_a_reminder_says_from_when_it_comes_and_whether_it_is_off(
    user, other_user, make_activity_for
):
    from datetime import timedelta

    from activities.services import activity_join
    from agent.services import reminders_set

    game = make_activity_for(other_user)
    activity_join(activity_id=game.pk, user=user)
    [shown] = state(user)["activities"]
    assert shown["remind"] is True and shown["reminded"] is False
    opens = datetime.fromisoformat(shown["remindFrom"])
    assert opens == game.start_at - timedelta(days=1)
    reminders_set(user=user, activity_ids=[game.pk], remind=False)
    assert state(user)["activities"][0]["remind"] is False


def test_a_reminder_sent_is_said_to_be_sent(user, other_user, make_activity_for):
    from datetime import timedelta

    from activities.services import activity_join
    from agent.activity_reminders import run_activity_reminders

    game = make_activity_for(other_user)
    activity_join(activity_id=game.pk, user=user)
    assert state(user)["activities"][0]["reminded"] is False
    run_activity_reminders(game.start_at - timedelta(hours=12))  # the organiser's too
    assert state(user)["activities"][0]["reminded"] is True


def test_the_state_of_one_the_user_is_not_on_is_no_reminder(user, other_user, make_activity_for):
    game = make_activity_for(other_user)
    [shown] = state(user, activityId=game.pk)["activities"]
    assert shown["remind"] is False
    assert state(user)["activities"] == []  # nothing ahead of the user's own


def test_the_state_shows_only_the_users_own_mute_and_sent_reminder(
    user, other_user, make_activity_for
):
    from datetime import timedelta

    from activities.services import activity_join
    from agent.activity_reminders import run_activity_reminders
    from agent.services import reminders_set

    game = make_activity_for(other_user)
    activity_join(activity_id=game.pk, user=user)
    reminders_set(user=other_user, activity_ids=[game.pk], remind=False)  # the organiser's
    [shown] = state(user)["activities"]
    assert shown["remind"] is True  # another's mute is not the user's
    reminders_set(user=user, activity_ids=[game.pk], remind=False)
    run_activity_reminders(game.start_at - timedelta(hours=12))  # sends no one's
    assert state(other_user, activityId=game.pk)["activities"][0]["reminded"] is False


def test_the_state_of_someone_elses_draft_is_not_found(user, other_user, make_activity_for):
    from activities.models import ActivityStatus

    draft = make_activity_for(other_user, status=ActivityStatus.DRAFT)
    assert state(user, activityId=draft.pk)["error"]["code"] == "NOT_FOUND"


def test_the_reminders_of_times_told_are_the_users_own(user, other_user):
    from django.utils import timezone

    from memory.services import messages_write

    said = (timezone.now() - timedelta(minutes=1)).isoformat()
    for who, text in (
        (user, "remind me to call mom tomorrow at 5pm"),
        (other_user, "明天提醒我交房租"),
    ):
        messages_write(user=who, items=[{"ts": said, "role": "user", "content": text}])

    [task] = state(user)["tasks"]
    assert task["said"] == "remind me to call mom tomorrow at 5pm"
    assert task["asked"] is True and task["reminded"] is False
    assert state(user, activityId=None).get("tasks") == [task]


def test_a_deadlines_reminder_says_when_its_window_opens_and_keeps_its_key_to_itself(user):
    from django.utils import timezone

    from memory.services import messages_write

    said = timezone.now() - timedelta(minutes=1)
    text = "the essay is due next friday"
    messages_write(user=user, items=[{"ts": said.isoformat(), "role": "user", "content": text}])

    [task] = state(user)["tasks"]
    assert "key" not in task
    due, opens = (datetime.fromisoformat(task[k]) for k in ("dueAt", "remindAt"))
    assert due - opens == timedelta(days=1)  # the day before, whenever it is asked


def test_cancelling_a_told_reminder_touches_no_one_elses(user, other_user):
    from django.utils import timezone

    from agent.models import TaskReminderMute
    from memory.services import messages_write

    said = timezone.now() - timedelta(minutes=1)
    for someone in (user, other_user):
        item = {"ts": said.isoformat(), "role": "user", "chat_id": "c"}
        messages_write(user=someone, items=[{**item, "content": "明天下午三点提醒我交房租"}])
    result = REGISTRY["cancelTaskReminder"].run(user, {"all": True})

    assert [t["said"] for t in result["tasks"]] == ["明天下午三点提醒我交房租"]
    assert not TaskReminderMute.objects.filter(user=other_user).exists()
    theirs = REGISTRY["getActivityReminders"].run(other_user, {})["tasks"]
    assert [t["said"] for t in theirs] == ["明天下午三点提醒我交房租"]
