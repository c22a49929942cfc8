"""Cancelling the reminder of a time the user told, by what it is about."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from activities.services import activity_join
from agent.models import SystemEvent, TaskReminderMute
from agent.services import task_reminders_cancel
from agent.task_reminders import cancels_task_reminder, named_task, task_digest, task_matches
from agent.triggers import REMIND_TASK_RE, deadline_reminder_key, run_deadline_reminders
from memory.services import messages_write

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ("cancel the reminder about my pills", ["pills"]),
        ("delete my pill reminder", ["pill"]),
        ("don't remind me to call mom", ["call", "mom"]),
        ("I don't need the dentist reminder anymore", ["dentist"]),
        ("取消吃药的提醒", ["吃药"]),
        ("把今晚吃药的提醒删了", ["吃药"]),
        ("不用提醒我交房租了", ["交", "房租"]),
        ("明天开会那个提醒取消吧", ["开会"]),
        ("取消提醒我吃药", ["吃药"]),
    ],
)
def test_a_reminder_cancelled_by_what_it_is_about_is_read_with_its_words(message, named):
    assert cancels_task_reminder(message)
    assert named_task(message) == named


@pytest.mark.parametrize(
    "message",
    [
        "不用提醒我了",
        "turn off reminders",
        "don't remind me about it",
        "不用提醒我明天的活动",
        "remind me to take my pills at 9",
        "取消飞盘局，不用提醒我了",
        "我想取消周六徒步的报名，提醒我一下退款",
    ],
)
def test_a_message_naming_no_reminder_to_cancel_is_not_read_as_one(message):
    assert not cancels_task_reminder(message)


def test_cancelling_a_reminder_asks_for_no_new_one():
    assert not REMIND_TASK_RE.search("取消提醒我吃药")


def test_a_word_matches_what_was_said_in_the_singular_or_the_plural():
    tasks = [{"said": "remind me to take my pills at 9"}, {"said": "remind me to call mom"}]
    assert task_matches("cancel my pill reminder", tasks) == tasks[:1]
    assert task_matches("cancel the reminder to call mom", tasks) == tasks[1:]
    assert task_matches("cancel the dentist reminder", tasks) == []


def test_cancelling_the_reminder_about_my_pills_leaves_the_other_reminders(api_client, say):
    say(api_client, "remind me to take my pills tomorrow at 9pm", chat_id="pills")
    say(api_client, "remind me to call mom tomorrow at 5pm", chat_id="pills")
    body = say(api_client, "cancel the reminder about my pills", chat_id="pills")

    assert [c["name"] for c in body["tool_calls"]] == [
        "getActivityReminders",
        "cancelTaskReminder",
    ], body["reply"]
    assert body["reply"].startswith(
        'OK, I won\'t remind you of "remind me to take my pills tomorrow at 9pm"'
    ), body["reply"]
    listed = say(api_client, "what reminders do I have?", chat_id="pills")["reply"]
    assert "call mom" in listed and "pills" not in listed, listed


def test_cancelling_in_chinese_answers_in_chinese(api_client, say):
    say(api_client, "明天下午三点提醒我交房租", chat_id="rent")
    body = say(api_client, "取消交房租的提醒", chat_id="rent")

    assert body["reply"].startswith("好的，「明天下午三点提醒我交房租」"), body["reply"]
    assert "不再提醒你" in body["reply"], body["reply"]


def test_cancelling_a_reminder_nobody_asked_for_says_so_and_lists_the_reminders(api_client, say):
    say(api_client, "remind me to call mom tomorrow at 5pm", chat_id="none")
    body = say(api_client, "cancel the reminder about the dentist", chat_id="none")

    assert [c["name"] for c in body["tool_calls"]] == ["getActivityReminders"], body["reply"]
    assert body["reply"].startswith('No reminder of yours is about "dentist".'), body["reply"]
    assert "call mom" in body["reply"], body["reply"]
    assert not TaskReminderMute.objects.exists()


def test_turning_off_the_reminder_for_a_named_activity_mutes_that_activity(
    api_client, user, other_user, say, make_activity_for
):
    hike = make_activity_for(other_user, title="Sunday hike")
    activity_join(activity_id=hike.pk, user=user)
    body = say(api_client, "turn off the reminder for the hike", chat_id="hike")

    assert body["tool_calls"][-1]["name"] == "setActivityReminder", body["reply"]
    assert body["tool_calls"][-1]["arguments"] == {"activityId": hike.pk, "remind": False}


def _told(user, content, ts):
    """Save one user message ``content`` sent at ``ts``."""
    item = {"ts": ts.isoformat(), "role": "user", "content": content, "chat_id": "t"}
    messages_write(user=user, items=[item])


def test_a_cancelled_reminder_is_not_sent_and_told_again_it_is(user):
    said = timezone.localtime(timezone.now())  # the fixed clock: Wednesday 10:00
    _told(user, "remind me to call mom at 5pm", said)
    key = deadline_reminder_key(said.replace(hour=17), asked=True, task="call mom")
    task_reminders_cancel(user=user, tasks=[(key, "call mom")])
    assert run_deadline_reminders(said.replace(hour=17, minute=10)) == 0

    _told(user, "remind me to call mom at 5pm please", said + timedelta(minutes=5))
    assert run_deadline_reminders(said.replace(hour=17, minute=20)) == 1
    assert SystemEvent.objects.filter(period_key=key).count() == 1


def test_two_reminders_asked_for_one_time_are_both_sent_and_cancelled_apart(user):
    said = timezone.localtime(timezone.now())  # the fixed clock: Wednesday 10:00
    _told(user, "remind me to take my pills at 11pm", said - timedelta(minutes=2))
    _told(user, "remind me to water the plants at 11pm", said - timedelta(minutes=1))
    plants = deadline_reminder_key(said.replace(hour=23), asked=True, task="water the plants")
    task_reminders_cancel(user=user, tasks=[(plants, "water the plants")])

    assert run_deadline_reminders(said.replace(hour=23, minute=10)) == 1
    event = SystemEvent.objects.get(kind="deadline_reminder")
    assert "pills" in event.payload["text"], event.payload


def test_cancelling_a_reminder_naming_none_of_two_asks_which_and_lists_both(api_client, say):
    say(api_client, "remind me to take my pills tomorrow at 9pm", chat_id="which")
    say(api_client, "remind me to call mom tomorrow at 5pm", chat_id="which")
    body = say(api_client, "cancel my reminder", chat_id="which")

    assert [c["name"] for c in body["tool_calls"]] == ["getActivityReminders"], body["reply"]
    assert body["reply"].startswith("Which reminder?"), body["reply"]
    assert "pills" in body["reply"] and "call mom" in body["reply"], body["reply"]
    assert not TaskReminderMute.objects.exists()


def test_cancelling_the_one_reminder_there_is_cancels_it(api_client, say):
    say(api_client, "明天下午三点提醒我交房租", chat_id="one")
    body = say(api_client, "取消提醒", chat_id="one")

    assert body["tool_calls"][-1]["name"] == "cancelTaskReminder", body["reply"]
    assert "交房租" in body["reply"] and "不再提醒你" in body["reply"], body["reply"]


def test_cancelling_a_reminder_never_leaves_the_activity_it_is_for(
    api_client, user, other_user, say, make_activity_for
):
    hike = make_activity_for(other_user, title="Sunday hike")
    lake = make_activity_for(other_user, title="Lake walk")
    activity_join(activity_id=hike.pk, user=user)
    activity_join(activity_id=lake.pk, user=user)
    asked = say(api_client, "cancel my reminder", chat_id="stay")
    said = say(api_client, "the first one", chat_id="stay")

    assert asked["reply"].startswith("Which reminder?"), asked["reply"]
    names = [c["name"] for c in said["tool_calls"]]
    assert not {"leaveActivity", "cancelActivity", "joinActivity"} & set(names), said


def test_the_first_one_after_which_reminder_acts_on_no_older_listing(
    api_client, user, other_user, say, make_activity_for
):
    for title in ("周六徒步", "周日飞盘"):
        activity_join(activity_id=make_activity_for(other_user, title=title).pk, user=user)
    say(api_client, "明天下午五点提醒我给妈妈打电话", chat_id="older")
    listed = say(api_client, "我去不了了", chat_id="older")  # which one to cancel
    asked = say(api_client, "取消提醒", chat_id="older")
    said = say(api_client, "第一个", chat_id="older")

    assert listed["reply"].startswith("你想取消哪一个"), listed["reply"]
    assert asked["reply"].startswith("要取消哪个提醒"), asked["reply"]
    names = [c["name"] for c in said["tool_calls"]]
    assert not {"leaveActivity", "cancelActivity", "joinActivity"} & set(names), said


def test_one_reminder_asked_for_twice_in_other_words_is_one():
    assert task_digest("remind me at 11:30pm to feed the cat") == task_digest(
        "can you also remind me at 23:30 to feed the cat please"
    )
    assert task_digest("晚上11点45提醒我收衣服") == task_digest("今晚11点45记得提醒我收衣服")


def test_cancelling_all_reminders_cancels_the_told_ones_and_the_activities(
    api_client, user, other_user, say, make_activity_for
):
    activity_join(activity_id=make_activity_for(other_user, title="Sunday hike").pk, user=user)
    say(api_client, "remind me to take my pills tomorrow at 9pm", chat_id="all")
    say(api_client, "remind me to call mom tomorrow at 5pm", chat_id="all")
    body = say(api_client, "cancel all my reminders", chat_id="all")

    assert [c["name"] for c in body["tool_calls"]] == [
        "getActivityReminders",
        "cancelTaskReminder",
        "setActivityReminder",
    ], body["reply"]
    assert TaskReminderMute.objects.filter(user=user).count() == 2
    assert "pills" in body["reply"] and "Sunday hike" in body["reply"], body["reply"]


def test_a_reminder_asked_for_a_weekday_at_a_time_is_a_task():
    assert REMIND_TASK_RE.search("remind me sunday at 3pm to call dad")
