"""The persona pass (seed 002) and preferences that replace the ones they contradict."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.models import ChatMessage, Feedback, Kind, Preference
from memory.selectors import persona_for, preferences_list
from memory.services import preference_upsert
from memory.stance import contradicts, stance
from tests.memory.memory_helpers import BASE_TS


def _old_preferences(user, *pairs):
    """Store preferences stated at BASE_TS (months before the summaries)."""
    for category, value in pairs:
        pref, _ = preference_upsert(user=user, category=category, value=value)
        Preference.objects.filter(pk=pref.pk).update(updated_at=BASE_TS)


def _months_of_summaries(user, count: int):
    """Store ``count`` chat summaries, one a day after BASE_TS, all newer than the preferences."""
    rows = [
        ChatMessage(
            user=user,
            message_id=f"sum_{i:04d}",
            chat_id=f"chat_{i // 10}",
            ts=BASE_TS + timedelta(days=1 + i),
            role="system",
            kind=Kind.SUMMARY,
            content=f"第{i}段对话摘要：用户聊了工作、周末计划和最近看的电影。",
            search_text="对话 摘要 工作 周末 计划 电影",
        )
        for i in range(count)
    ]
    ChatMessage.objects.bulk_create(rows)
    for i, row in enumerate(rows):
        when = BASE_TS + timedelta(days=1 + i)
        ChatMessage.objects.filter(pk=row.pk).update(created_at=when)


def test_many_newer_summaries_never_push_preferences_out_of_the_persona(user):
    _old_preferences(user, ("food", "不吃辣"), ("vibe", "安静"))
    _months_of_summaries(user, 120)

    persona = persona_for(user=user, query="今晚吃什么？")

    assert {p["text"] for p in persona} == {"food: 不吃辣", "vibe: 安静"}
    assert {p["type"] for p in persona} == {"preference"}


def test_the_persona_unranked_holds_preferences_and_feedback_only(user):
    _old_preferences(user, ("food", "不吃辣"))
    _months_of_summaries(user, 60)
    Feedback.objects.create(user=user, target_message_id="m1", rating=1, comment="推荐得好")

    persona = persona_for(user=user)

    assert [p["type"] for p in persona] == ["feedback", "preference"]
    assert persona[1]["category"] == "food" and persona[1]["value"] == "不吃辣"


def test_the_agents_persona_pass_keeps_the_preference_after_months_of_summaries(user):
    from agent.context import persona_pass

    _old_preferences(user, ("food", "不吃辣"))
    _months_of_summaries(user, 80)

    chunks = persona_pass(user, "recommend a place for dinner")

    assert [c.text for c in chunks] == ["偏好 food: 不吃辣"]
    assert chunks[0].meta == {"category": "food", "value": "不吃辣"}


@pytest.mark.parametrize(
    ("category", "older", "newer"),
    [
        ("food", "不吃辣", "爱吃辣"),
        ("food", "I don't eat spicy food", "爱吃辣"),
        ("food", "川菜", "不吃川菜"),
        ("vibe", "安静", "热闹"),
        ("vibe", "I like quiet activities", "I like lively events"),
        ("drink", "不喝酒", "I drink alcohol"),
        ("tone", "humorous", "serious"),
        ("length", "concise", "detailed"),
        ("city", "上海", "杭州"),
        ("time", "周末", "晚上"),
        ("music", "喜欢爵士乐", "讨厌爵士乐"),
    ],
)
def test_a_contradicting_preference_replaces_the_older_one_in_every_category(
    user, category, older, newer
):
    old, _ = preference_upsert(user=user, category=category, value=older)
    new, _ = preference_upsert(user=user, category=category, value=newer)

    old.refresh_from_db()
    assert [p.value for p in preferences_list(user=user)] == [newer]
    assert old.superseded_by_id == new.pk and old.superseded_at is not None
    assert {p.value for p in preferences_list(user=user, history=True)} == {older, newer}


def test_liking_what_one_dislikes_replaces_it_across_the_two_categories(user):
    old, _ = preference_upsert(user=user, category="dislikes", value="爵士乐")
    new, _ = preference_upsert(user=user, category="likes", value="爵士乐")

    old.refresh_from_db()
    assert [(p.category, p.value) for p in preferences_list(user=user)] == [("likes", "爵士乐")]
    assert old.superseded_by_id == new.pk


@pytest.mark.parametrize(
    ("category", "first", "second"),
    [
        ("food", "不吃辣", "不吃香菜"),
        ("food", "喜欢火锅", "爱吃辣"),
        ("vibe", "安静", "户外"),
        ("vibe", "不喜欢热闹", "安静"),
        ("allergy", "海鲜", "花生"),
    ],
)
def test_preferences_that_do_not_contradict_stay_together(user, category, first, second):
    preference_upsert(user=user, category=category, value=first)
    preference_upsert(user=user, category=category, value=second)

    assert {p.value for p in preferences_list(user=user)} == {first, second}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("我不吃辣", ("辣", -1)),
        ("I don't eat spicy food", ("辣", -1)),
        ("I don’t eat spicy food", ("辣", -1)),
        ("我喜欢安静的活动", ("安静", 1)),
        ("I like quiet activities", ("安静", 1)),
        ("热闹", ("安静", -1)),
        ("不吃香菜", ("香菜", -1)),
    ],
)
def test_a_value_is_read_as_a_stance_on_one_object_in_both_languages(value, expected):
    assert stance(value) == expected


def test_a_plain_value_in_a_category_of_dislikes_is_against_its_object():
    assert stance("爵士乐", "dislikes") == ("爵士乐", -1)
    assert contradicts("爵士乐", "爵士乐", "dislikes", "likes")
    assert not contradicts("nothing", "something", "notes")
