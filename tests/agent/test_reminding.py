"""Asking to be reminded of an activity, read apart from the rest of a message."""

from __future__ import annotations

import pytest

from agent.reminding import (
    about_reminders,
    asks_reminder,
    asks_reminder_state,
    named_part,
    refuses_reminder,
    without_reminder,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "message",
    [
        "can you remind me the day before?",
        "到时候能提醒我吗？",
        "提前一天提醒我",
        "活动前一天提醒我一下",
    ],
)
def test_a_request_to_be_reminded_in_any_wording(message):
    assert asks_reminder(message)
    assert without_reminder(message) == ""


@pytest.mark.parametrize(
    "message",
    [
        "不用提醒我",
        "don't remind me",
        "明天下午三点开会，提醒我",
        "the essay is due friday, remind me",
    ],
)
def test_a_refusal_or_a_task_of_its_own_is_no_request_to_be_reminded(message):
    assert not asks_reminder(message)


@pytest.mark.parametrize(
    ("message", "rest"),
    [
        ("好的报名吧，记得提醒我", "好的报名吧"),
        ("sign me up and remind me the day before", "sign me up"),
    ],
)
def test_what_else_a_message_says_is_read_without_the_reminder(message, rest):
    assert without_reminder(message) == rest


def test_a_join_with_a_reminder_and_nothing_shown_asks_which_instead_of_joining(
    api_client, user, say, activities_loaded
):
    body = say(
        api_client, "sign me up and remind me the day before", chat_id="nothing-shown-remind"
    )

    assert "joinActivity" not in [c["name"] for c in body["tool_calls"]], body["reply"]


@pytest.mark.parametrize(
    "message",
    ["不用提醒我", "以后都别提醒我了", "don't remind me", "stop reminding me", "no reminders"],
)
def test_a_refusal_of_reminders_is_read(message):
    assert refuses_reminder(message)
    assert not asks_reminder(message)


@pytest.mark.parametrize(
    "message",
    ["明天下午三点开会，不用提醒我", "the essay is due friday, don't remind me", "提醒我"],
)
def test_a_time_or_task_of_its_own_or_a_request_is_no_refusal(message):
    assert not refuses_reminder(message)


@pytest.mark.parametrize("message", ["don't forget to remind me", "不要忘了提醒我哦"])
def test_not_forgetting_to_remind_asks_for_the_reminder(message):
    assert asks_reminder(message)


@pytest.mark.parametrize(
    "message",
    [
        "I got no reminder for the hike",
        "there was no reminder yesterday, why?",
        "don't remind me of my ex",
        "不用提醒我吃药",
        "我不需要提醒你",
    ],
)
def test_a_sentence_about_something_else_refuses_no_reminder(message):
    assert not refuses_reminder(message)


@pytest.mark.parametrize(
    "message",
    [
        "will I get a reminder?",
        "will you remind me?",
        "did you remind me about the climbing?",
        "I got no reminder for the hike",
        "I didn't get a reminder",
        "会提醒我吗",
        "怎么没提醒我",
        "攀岩那个没收到提醒",
        "what reminders do I have?",
        "show my reminders",
        "我有哪些提醒",
    ],
)
def test_a_question_whether_the_reminders_come_is_read(message):
    assert asks_reminder_state(message)
    assert about_reminders(message)


@pytest.mark.parametrize(
    "message",
    [
        "don't remind me",
        "remind me to call mom at 5pm",
        "提醒我",
        "remind me what I said",
        "what reminders do you think are useful for students",
    ],
)
def test_a_request_refusal_or_task_is_no_question_about_the_reminders(message):
    assert not asks_reminder_state(message)


@pytest.mark.parametrize(
    "message", ["remind me to buy milk tomorrow", "明天提醒我交房租", "提醒我一下周五买票"]
)
def test_a_task_to_be_reminded_of_is_no_request_about_the_activity(message):
    assert not asks_reminder(message)


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ("I got no reminder for the hike", "hike"),
        ("did you remind me about the climbing?", "climbing"),
        ("卡坦岛那个不用提醒我", "卡坦岛"),
        ("can you remind me the day before?", ""),
        ("会提醒我吗", ""),
    ],
)
def test_what_a_message_about_the_reminders_names_is_read_without_them(message, named):
    assert named_part(message) == named


def test_asked_whether_a_reminder_comes_the_answer_says_when(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join

    game = make_activity_for(other_user, title="Board games")
    activity_join(activity_id=game.pk, user=user)
    body = say(api_client, "will I get a reminder?", chat_id="reminder-state")

    assert [c["name"] for c in body["tool_calls"]] == ["getActivityReminders"], body["reply"]
    assert body["reply"].startswith("Reminders of your activities ahead:"), body["reply"]
    assert '"Board games"' in body["reply"] and "a reminder the day before, from" in body["reply"]


def test_asked_which_reminders_there_are_the_answer_lists_the_ones_asked_for(api_client, say):
    say(api_client, "remind me to call mom tomorrow at 5pm", chat_id="tasks")
    body = say(api_client, "what reminders do I have?", chat_id="tasks")

    assert [c["name"] for c in body["tool_calls"]] == ["getActivityReminders"], body["reply"]
    assert body["reply"].startswith('Your reminders:\n1. "remind me to call mom'), body["reply"]
    assert "I'll remind you" in body["reply"] and "17:00" in body["reply"], body["reply"]


def test_asked_in_chinese_which_reminders_there_are_the_answer_lists_them(api_client, say):
    say(api_client, "今晚提醒我吃药", chat_id="tasks-zh")
    say(api_client, "remind me to call mom tomorrow at 5pm", chat_id="tasks-zh")
    body = say(api_client, "我有哪些提醒", chat_id="tasks-zh")

    assert [c["name"] for c in body["tool_calls"]] == ["getActivityReminders"], body["reply"]
    assert body["reply"].startswith("你的提醒："), body["reply"]
    assert "「remind me to call mom tomorrow at 5pm」" in body["reply"], body["reply"]


def test_asked_why_no_reminder_came_of_one_turned_off_the_answer_says_so(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join
    from agent.services import reminders_set

    game = make_activity_for(other_user, title="周六下午桌游局")
    activity_join(activity_id=game.pk, user=user)
    reminders_set(user=user, activity_ids=[game.pk], remind=False)
    body = say(api_client, "怎么没提醒我桌游局", chat_id="reminder-off")

    assert "「周六下午桌游局」" in body["reply"], body["reply"]
    assert "不提醒：你关掉了" in body["reply"], body["reply"]


def test_remind_me_the_day_before_with_nothing_in_focus_turns_on_every_one_ahead(
    api_client, user, other_user, say, make_activity_for
):
    from activities.services import activity_join
    from agent.models import ReminderMute
    from agent.services import reminders_set

    game = make_activity_for(other_user, title="Board games")
    activity_join(activity_id=game.pk, user=user)
    reminders_set(user=user, activity_ids=[game.pk], remind=False)
    body = say(api_client, "can you remind me the day before?", chat_id="remind-all")

    assert body["tool_calls"][-1]["name"] == "setActivityReminder", body["reply"]
    assert body["reply"].startswith("I will: the day before each"), body["reply"]
    assert not ReminderMute.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("remind me to call mom tomorrow at 5pm", "Noted: I'll remind you "),
        ("remind me to buy milk", "When should I remind you?"),
        ("明天提醒我交房租", "记下了，"),
    ],
)
def test_a_task_to_be_reminded_of_is_acknowledged_or_asked_when(
    api_client, user, say, message, reply
):
    body = say(api_client, message, chat_id="remind-task")

    assert body["intent"] == "MANAGE"
    assert body["reply"].startswith(reply), body["reply"]


@pytest.mark.parametrize(
    "message",
    [
        "I never get reminders from my bank",
        "我妈会不会提醒我吃药",
        "老婆怎么没提醒我带钥匙",
        "will you remind me to water the plants tomorrow at 9am?",
    ],
)
def test_someone_elses_reminding_or_a_tasks_is_no_question_about_the_reminders(message):
    assert not asks_reminder_state(message)


@pytest.mark.parametrize(
    "message", ["haha you remind me of my brother", "remind me again what we're doing on Saturday?"]
)
def test_remind_me_in_passing_is_not_routed_to_the_reminders(message):
    from agent.reminding import REMIND_ME_EN_RE

    assert not REMIND_ME_EN_RE.search(message)


def test_a_question_whether_it_comes_leaves_a_muted_reminder_muted(
    api_client, user, other_user, say, shown_in_chat
):
    from agent.models import ReminderMute
    from agent.services import reminders_set

    shown = shown_in_chat("state-focus", "飞盘局")
    say(api_client, "报名第一个", chat_id="state-focus")
    reminders_set(user=user, activity_ids=[shown[0].pk], remind=False)
    body = say(api_client, "会提醒我吗", chat_id="state-focus")

    assert "setActivityReminder" not in [c["name"] for c in body["tool_calls"]], body["reply"]
    assert "不提醒：你关掉了" in body["reply"], body["reply"]
    assert ReminderMute.objects.filter(user=user, activity=shown[0]).exists()
