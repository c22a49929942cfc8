"""Questions about what the user told of their tastes: routed to CHAT, answered from the
persona (the stated preferences), in the question's language."""

from __future__ import annotations

import pytest

from agent.context import RuntimeContext
from agent.offline_recall import compose_chat
from agent.prompt import Chunk
from agent.told_preferences import asked_categories


def _ctx(message: str, persona=(), knowledge=()) -> RuntimeContext:
    return RuntimeContext(
        user=None, chat_id="c1", message=message, knowledge=list(knowledge), persona=list(persona)
    )


def _said(text: str, *, lexical: bool) -> Chunk:
    """A message the user wrote, as the knowledge pass returns it."""
    return Chunk(
        "knowledge:msg:1",
        f"用户曾说：{text}",
        0.9,
        body=text,
        key="msg:1",
        meta={
            "role": "user",
            "kind": "message",
            "ts": "2026-11-27T10:00:00+08:00",
            "lexical": lexical,
        },
    )


def _stated(category: str, value: str) -> Chunk:
    return Chunk(
        f"persona:preference:{value}",
        f"偏好 {category}: {value}",
        1.0,
        meta={"category": category, "value": value},
    )


NO_CHILLI = _stated("food", "不吃辣")
PEANUTS = _stated("allergy", "花生")
QUIET = _stated("vibe", "安静")


@pytest.mark.parametrize(
    "message",
    [
        "我吃辣吗",
        "我吃不吃辣？",
        "我有什么忌口",
        "我之前说过什么忌口？",
        "do I eat spicy food?",
    ],
)
def test_questions_about_eating_read_the_eating_preferences(message):
    assert asked_categories(message) == ("food", "allergy", "drink")


@pytest.mark.parametrize("message", ["我对什么过敏", "我有什么过敏", "what am I allergic to?"])
def test_questions_about_allergies_read_the_allergies_only(message):
    assert asked_categories(message) == ("allergy",)


@pytest.mark.parametrize(
    "message",
    [
        "我的偏好是什么",
        "我喜欢什么？",
        "你知道我喜欢什么吗",
        "what are my preferences?",
        "do I like jazz?",
    ],
)
def test_questions_about_tastes_at_large_read_every_preference(message):
    assert asked_categories(message) == ()


@pytest.mark.parametrize(
    "message",
    [
        "今晚吃点辣的",
        "我能吃辣的活动有吗",
        "我想吃火锅",
        "周末吃什么好",
        "what can I eat tonight?",
        "I like hiking",
        # A search minding one's tastes, someone else's taste, any food (an audit, session 48).
        "你知道我口味的，帮我找个周末吃饭的地方",
        "我朋友说过不吃辣，周末帮我找个清淡点的聚餐",
        "any restaurants that work with my dietary needs tonight?",
        "周末跟朋友吃饭，她问我有什么忌口，帮我找家店",
        "我能喝奶茶吗",
        "我吃不吃都行",
    ],
)
def test_requests_and_statements_ask_nothing_about_tastes(message):
    assert asked_categories(message) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("我吃辣吗", "CHAT"),
        ("我有什么忌口？", "CHAT"),
        ("what am I allergic to?", "CHAT"),
        ("今晚吃点辣的", "EXPLORE"),
    ],
)
def test_the_router_sends_questions_about_tastes_to_chat(message, intent):
    from agent.router import classify_offline

    assert classify_offline(message).intent == intent


def test_a_question_about_eating_is_answered_from_the_stated_preferences_only():
    reply = compose_chat(_ctx("我之前说过什么忌口？", persona=[QUIET, NO_CHILLI, PEANUTS]), [])
    assert reply.startswith("你跟我说过：不吃辣、花生过敏。")
    assert "安静" not in reply


def test_the_answer_follows_the_questions_language():
    reply = compose_chat(_ctx("what don't I eat?", persona=[NO_CHILLI, PEANUTS]), [])
    assert reply.startswith("You told me: no spicy food, allergic to peanuts.")


def test_a_question_about_tastes_at_large_names_every_preference():
    reply = compose_chat(_ctx("我的偏好是什么", persona=[QUIET, NO_CHILLI]), [])
    assert "不吃辣" in reply and "安静" in reply


def test_nothing_told_is_said_rather_than_an_unrelated_message_quoted():
    hello = _said("你好", lexical=False)
    reply = compose_chat(_ctx("我有什么忌口", knowledge=[hello]), [])
    assert reply.startswith("你还没跟我说过")
    assert "你好" not in reply


def test_a_message_sharing_the_questions_word_is_quoted_in_the_users_words():
    told = _said("帮我记一下：我对花生过敏", lexical=True)
    reply = compose_chat(_ctx("我对什么过敏来着", persona=[PEANUTS], knowledge=[told]), [])
    assert "「帮我记一下：我对花生过敏」" in reply


def test_a_message_sharing_the_questions_word_is_quoted_when_no_preference_bears_on_it():
    told = _said("我一吃芒果就过敏", lexical=True)
    reply = compose_chat(_ctx("我对什么过敏来着", knowledge=[told]), [])
    assert "「我一吃芒果就过敏」" in reply


def test_the_preferences_in_force_answer_before_a_message_that_told_them():
    # What "forget that …" left is the answer, not the message that told a forgotten one.
    told = _said("我对花生过敏，也不吃辣", lexical=True)
    reply = compose_chat(_ctx("我对什么过敏来着", persona=[PEANUTS], knowledge=[told]), [])
    assert reply.startswith("你跟我说过：花生过敏"), reply
    assert "不吃辣" not in reply


def test_a_request_sharing_the_questions_word_is_not_quoted_as_a_taste():
    asked = _said("周末有什么好吃的活动", lexical=True)
    reply = compose_chat(_ctx("我有什么忌口", knowledge=[asked]), [])
    assert "周末有什么好吃的活动" not in reply, reply


def test_a_statement_of_a_preference_since_forgotten_is_not_quoted():
    told = _said("I'm allergic to peanuts", lexical=True)
    reply = compose_chat(_ctx("what am I allergic to?", knowledge=[told]), [])
    assert "peanuts" not in reply, reply
