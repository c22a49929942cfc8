"""Asking the assistant to forget a preference it keeps (agent.forgetting)."""

from __future__ import annotations

import pytest

from agent.forgetting import asks_to_forget, preferences_to_forget
from memory.models import MemoryChange, Preference
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


def test_forgetting_deletes_the_preference_and_stores_nothing(api_client, user, say):
    preference_upsert(user=user, category="food", value="vegetarian")
    preference_upsert(user=user, category="allergy", value="peanuts")
    body = say(api_client, "forget that I'm vegetarian")

    assert body["intent"] == "CHAT"
    assert body["reply"] == "OK, I've forgotten: vegetarian.", body["reply"]
    assert list(Preference.active.filter(user=user).values_list("value", flat=True)) == ["peanuts"]
    assert MemoryChange.objects.filter(user=user, actor="agent", action="delete").count() == 1


def test_forgetting_what_was_never_kept_says_so(api_client, user, say):
    body = say(api_client, "忘掉我吃素这件事")

    assert body["reply"] == "我记着的偏好里没有这一条，不用删。", body["reply"]
    assert not Preference.objects.filter(user=user).exists()
