"""The tool turning the day-before reminders of activities off and on (agent.tools_reminders)."""

from __future__ import annotations

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
