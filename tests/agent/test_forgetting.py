"""Asking the assistant to forget a preference it keeps (agent.forgetting)."""

from __future__ import annotations

import pytest

from agent.forgetting import asks_to_forget, preferences_to_forget
from memory.models import ChatMessage, MemoryChange, Preference
from memory.services import preference_upsert

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "message",
    [
        "forget that I'm vegetarian",
        "please forget about my peanut allergy",
        "don't remember that I love hiking",
        "忘掉我吃素这件事",
        "别记我不吃辣了",
        "我花生过敏那条删掉吧",
    ],
)
def test_a_request_to_forget_something_of_oneself_is_read(message):
    assert asks_to_forget(message)


@pytest.mark.parametrize(
    "message",
    [
        "I forgot my keys",
        "我忘了带钥匙",
        "forget the tennis search",
        "forget about the hike",
        "I don't remember my login details",
        "delete my draft",
    ],
)
def test_forgetting_something_else_is_no_request_to_forget_a_preference(message):
    assert not asks_to_forget(message)


def test_the_preference_named_is_found_in_either_language(user):
    vegetarian, _ = preference_upsert(user=user, category="food", value="素食")
    preference_upsert(user=user, category="allergy", value="花生")

    assert preferences_to_forget(user=user, message="forget that I'm vegetarian") == [vegetarian]


def test_a_thing_named_in_the_singular_forgets_the_allergy_stored_in_the_plural(user):
    peanuts, _ = preference_upsert(user=user, category="allergy", value="peanuts")
    found = preferences_to_forget(user=user, message="forget my peanut allergy, I outgrew it")

    assert [p.pk for p in found] == [peanuts.pk]


def test_forgetting_deletes_the_preference_and_stores_nothing(api_client, user, say):
    preference_upsert(user=user, category="food", value="vegetarian")
    preference_upsert(user=user, category="allergy", value="peanuts")
    body = say(api_client, "forget that I'm vegetarian")

    assert body["intent"] == "CHAT"
    assert body["reply"] == "OK, I've forgotten: vegetarian.", body["reply"]
    assert list(Preference.active.filter(user=user).values_list("value", flat=True)) == ["peanuts"]
    assert MemoryChange.objects.filter(user=user, actor="agent", action="delete").count() == 1


def test_forgetting_deletes_the_users_messages_that_stated_it(api_client, user, say):
    say(api_client, "I'm vegetarian")
    say(api_client, "I love hiking")
    assert Preference.active.filter(user=user, value="vegetarian").exists()

    say(api_client, "forget that I'm vegetarian")

    said = set(ChatMessage.objects.filter(user=user, role="user").values_list("content", flat=True))
    assert said == {"I love hiking", "forget that I'm vegetarian"}


def test_forgetting_deletes_a_statement_in_other_words_than_the_value(api_client, user, say):
    say(api_client, "我吃素")
    assert Preference.active.filter(user=user, value="素食").exists()

    say(api_client, "忘掉我吃素这件事")

    said = set(ChatMessage.objects.filter(user=user, role="user").values_list("content", flat=True))
    assert said == {"忘掉我吃素这件事"}


@pytest.mark.parametrize(
    "kept",
    [
        "I'm allergic to peanuts and I'm vegetarian",  # another preference
        "我老婆吃素",  # someone else's
        "I'm vegetarian, remind me on May 1 to buy Lily a gift",  # a task and a time
        "帮我找个素食的活动",  # a request
    ],
)
def test_forgetting_keeps_a_message_that_says_more_than_what_is_forgotten(
    api_client, user, say, kept
):
    say(api_client, kept)
    preference_upsert(user=user, category="food", value="vegetarian")

    say(api_client, "forget that I'm vegetarian")

    assert ChatMessage.objects.filter(user=user, role="user", content=kept).exists()


def test_forgetting_what_was_never_kept_says_so(api_client, user, say):
    body = say(api_client, "忘掉我吃素这件事")

    assert body["reply"] == "我记着的偏好里没有这一条，不用删。", body["reply"]
    assert not Preference.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    "message",
    [
        "don't forget that I'm vegetarian",
        "please don't forget that I'm allergic to peanuts",
        "never forget that I'm allergic to peanuts, find me a food festival",
        "did you forget that I'm vegetarian?",
        "你忘记我吃素了吗？",
    ],
)
def test_asking_to_keep_or_whether_it_was_kept_is_no_request_to_forget(message):
    assert not asks_to_forget(message)


def test_forgetting_a_plan_forgets_no_liking(user):
    preference_upsert(user=user, category="likes", value="hiking")

    message = "forget that I'm going hiking on Saturday, plans changed"
    assert preferences_to_forget(user=user, message=message) == []


def test_a_preference_stated_beside_a_request_to_forget_is_kept(api_client, user, say):
    preference_upsert(user=user, category="food", value="不吃辣")
    say(api_client, "忘掉我不吃辣这件事，我对海鲜过敏")

    active = set(Preference.active.filter(user=user).values_list("category", "value"))
    assert active == {("allergy", "海鲜")}
