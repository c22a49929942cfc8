"""A message names an activity the last listing showed, by its place or by pointing at it."""

from __future__ import annotations

import pytest

from agent.references import asks_for_more, intent_of, pointed_at, wants_to_join
from agent.router import EXPLORE, MANAGE

SHOWN = [41, 42, 43]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("报名第一个", 41),
        ("第二个几点开始？", 42),
        ("第2个在哪", 42),
        ("就第三个吧", 43),
        ("最后一个还有名额吗", 43),
        ("sign me up for the second one", 42),
        ("where's the 3rd one?", 43),
        ("what about the last one", 43),
        ("option 1 please", 41),
        ("#2", 42),
    ],
)
def test_a_place_in_the_list_names_that_activity(message, expected):
    assert pointed_at(message, SHOWN) == expected


@pytest.mark.parametrize(
    "message",
    [
        "我第一次去攀岩",
        "第二天还有吗",
        "the first time I went climbing",
        "what did I say last week",
        "第五个",  # the list has three
        "周末有什么活动",
    ],
)
def test_words_that_name_no_place_in_the_list_name_nothing(message):
    assert pointed_at(message, SHOWN) is None


def test_nothing_is_named_when_no_listing_was_shown():
    assert pointed_at("报名第一个", []) is None


def test_pointing_names_the_activity_the_last_reply_was_about():
    assert pointed_at("报名这个", SHOWN, focus=42) == 42
    assert pointed_at("cancel that one", SHOWN, focus=43) == 43
    assert pointed_at("ok sign me up for that one", SHOWN, focus=41) == 41


def test_pointing_names_the_only_activity_shown():
    assert pointed_at("这个几点开始", [41]) == 41


def test_pointing_at_one_of_several_without_a_focus_names_nothing():
    assert pointed_at("报名这个", SHOWN) is None


@pytest.mark.parametrize(
    "message",
    [
        "那个，我想问一下明天天气怎么样呀我好安排出门",
        "这个真不错",
        "那个吧我再想想看",
        "that one reminds me, what did my sister say about her trip to the coast",
    ],
)
def test_pointing_counts_only_in_a_short_message_that_joins_cancels_or_asks(message):
    assert pointed_at(message, [41], focus=41) is None


@pytest.mark.parametrize(
    ("message", "joins"),
    [
        ("报名第一个", True),
        ("就第二个吧", True),
        ("the 2nd one please", True),
        ("第一个几点开始？", False),
        ("where's the last one?", False),
        ("第二个怎么样", False),
        ("别报第二个", False),
        ("don't sign me up for the first one", False),
        ("取消第二个", False),
    ],
)
def test_naming_a_listed_activity_joins_it_only_when_it_chooses_it(message, joins):
    assert wants_to_join(message) is joins


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("取消第一个", MANAGE),
        ("第二个我去不了了", MANAGE),
        ("cancel the 2nd one", MANAGE),
        ("别取消第一个", EXPLORE),
        ("报名第一个", EXPLORE),
        ("第一个在哪", EXPLORE),
    ],
)
def test_stopping_going_is_managed_and_anything_else_explored(message, intent):
    assert intent_of(message) == intent


@pytest.mark.parametrize("message", ["帮我报名", "好，报名吧", "ok sign me up", "count me in!"])
def test_a_bare_join_names_the_activity_in_focus(message):
    assert pointed_at(message, SHOWN, focus=42) == 42


def test_a_bare_join_without_a_focus_among_several_names_nothing():
    assert pointed_at("帮我报名", SHOWN) is None


@pytest.mark.parametrize(
    "message", ["换一批", "还有别的吗", "别的呢", "再推荐几个", "show me others", "more"]
)
def test_asking_for_other_results_is_more(message):
    assert asks_for_more(message)


@pytest.mark.parametrize("message", ["还有别的户外活动吗", "more yoga classes", "换个时间"])
def test_a_new_ask_is_not_more(message):
    assert not asks_for_more(message)
