"""A liking of an activity named in the answer's language, and kept once in either language."""

from __future__ import annotations

import pytest

from agent.forgetting import preferences_to_forget
from agent.preferences_said import extract_preferences, stated_all, stated_in, told_already
from memory.models import Preference
from memory.services import preference_upsert

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("value", "english", "phrase"),
    [
        ("拍照", True, "photography"),
        ("爬山", True, "hiking"),
        ("photography", False, "摄影"),
        ("board games", False, "桌游"),
        ("拍照", False, "拍照"),  # said in the answer's language: the user's own words
        ("jazz", False, "jazz"),  # no activity of that name: as said
    ],
)
def test_a_liked_activity_is_named_in_the_answers_language(value, english, phrase):
    assert stated_in("likes", value, english=english) == phrase


def test_a_disliked_activity_said_in_chinese_is_named_in_english():
    assert stated_in("dislikes", "爬山", english=True) == "not into hiking"


def test_one_liking_said_in_two_languages_is_one_phrase():
    told = [("likes", "photography"), ("likes", "拍照"), ("vibe", "户外")]
    assert stated_all(told, english=True) == ["photography", "the outdoors"]


def test_a_liking_of_an_activity_told_in_the_other_language_is_told_already():
    assert told_already(("likes", "拍照"), [("likes", "photography")])
    assert not told_already(("likes", "jazz"), [("likes", "photography")])
    assert not told_already(("dislikes", "拍照"), [("likes", "photography")])


@pytest.mark.real_model  # the router reads 我喜欢拍照 by meaning too
def test_saying_a_liking_again_in_chinese_stores_no_second_one(api_client, user, say):
    say(api_client, "I love photography", chat_id="likes")
    body = say(api_client, "我喜欢拍照", chat_id="likes")

    assert body["reply"].startswith("记住啦：拍照"), body["reply"]
    values = Preference.objects.filter(user=user, category="likes").values_list("value", flat=True)
    assert list(values) == ["photography"]


@pytest.mark.real_model
def test_asked_in_english_what_i_like_the_chinese_liking_is_named_in_english(api_client, say):
    say(api_client, "我喜欢爬山", chat_id="tastes")
    reply = say(api_client, "what do I like?", chat_id="tastes")["reply"]

    assert reply.startswith("You told me:") and "hiking" in reply, reply
    assert "爬山" not in reply, reply


def test_likings_listed_in_chinese_are_stored_apart():
    assert extract_preferences("我喜欢拍照和桌游") == [("likes", "拍照"), ("likes", "桌游")]
    assert extract_preferences("我喜欢和平") == [("likes", "和平")]  # no list


def test_a_liking_kept_in_chinese_is_forgotten_when_named_in_english(user):
    board_games, _ = preference_upsert(user=user, category="likes", value="桌游")
    found = preferences_to_forget(user=user, message="forget that I like board games")

    assert [p.pk for p in found] == [board_games.pk]
