"""Asking to be reminded of an activity, read apart from the rest of a message."""

from __future__ import annotations

import pytest

from agent.reminding import asks_reminder, refuses_reminder, without_reminder

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
