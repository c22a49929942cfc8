"""A message names an activity the last listing showed, by its place or by pointing at it, and
only a command joins or cancels it."""

from __future__ import annotations

import pytest

from agent import references
from agent.intent_rules import EXPLORE, MANAGE
from agent.references import action_of, asks_for_more, intent_of, pointed_at

SHOWN = [41, 42, 43]


def _action(message: str, focus: int | None = None, for_cancel: bool = False):
    """Return (id, action) the message names among SHOWN, or None."""
    pointed = pointed_at(message, SHOWN, focus)
    if pointed is None:
        return None
    target, alone = pointed
    return target, action_of(message, alone=alone, for_cancel=for_cancel)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("报名第一个", (41, "join")),
        ("第二个几点开始？", (42, "details")),
        ("第2个在哪", (42, "details")),
        ("第一个具体在哪里", (41, "details")),
        ("第三个收费吗", (43, "details")),
        ("就第三个吧", (43, "join")),
        ("第二个", (42, "join")),
        ("最后一个还有名额吗", (43, "details")),
        ("sign me up for the second one", (42, "join")),
        ("where's the 3rd one?", (43, "details")),
        ("option 1 please", (41, "join")),
        ("取消第二个", (42, "cancel")),
        ("cancel the 2nd one", (42, "cancel")),
        ("第二个取消了吗", (42, "details")),
        ("what time does the first one leave?", (41, "details")),
    ],
)
def test_a_place_in_the_list_names_that_activity_and_what_to_do(message, expected):
    assert _action(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "第一个算了",
        "第一个太远了",
        "不要第一个",
        "not the first one",
        "skip the first one",
        "我不太想报名第二个",
        "别取消第一个",
        "the first one sucks",
        "publish the first one",
    ],
)
def test_refusing_or_other_requests_about_a_place_do_nothing_to_it(message):
    found = _action(message)
    assert found is None or found[1] in (None, "refused")


@pytest.mark.parametrize("message", ["第二个太远了", "第一个算了", "not the first one"])
def test_a_refused_place_is_read_as_refused(message):
    assert _action(message)[1] == "refused"


def test_the_place_said_with_a_choosing_phrase_joins():
    assert _action("I'll take the 2nd one please") == (42, "join")


@pytest.mark.parametrize(
    "message", ["ok book the second one", "reserve the 2nd one", "put me down for the second one"]
)
def test_booking_a_place_in_the_list_joins_it(message):
    assert _action(message) == (42, "join")


@pytest.mark.parametrize(
    "message",
    ["I'll book it later", "let me check with my wife before I book it", "I couldn't book it"],
)
def test_booking_said_of_later_or_of_others_joins_nothing(message):
    assert action_of(message, alone=False) != "join"


@pytest.mark.parametrize(
    "message",
    ["第二个不用提醒我", "don't remind me about the second one", "the 2nd one, don't remind me"],
)
def test_a_refused_reminder_naming_a_place_mutes_that_one(message):
    assert _action(message) == (42, "unremind")


@pytest.mark.parametrize(
    "message", ["报名第二个，不用提醒我", "sign me up for the second one but don't remind me"]
)
def test_a_join_beside_a_refused_reminder_joins(message):
    assert _action(message) == (42, "join")


@pytest.mark.parametrize(
    "message",
    [
        "我第一次去攀岩",
        "第二天还有吗",
        "下个月第二个周末有什么活动",
        "这是我第一个周末没加班",
        "第一场雪的时候去滑雪",
        "帮我组织第二场读书会",
        "the first time I went climbing",
        "the second half of the month",
        "what did I say last week",
        "第五个",  # the list has three
        "周末有什么活动",
    ],
)
def test_words_that_name_no_place_in_the_list_name_nothing(message):
    assert pointed_at(message, SHOWN) is None


def test_nothing_is_named_when_no_listing_was_shown():
    assert pointed_at("报名第一个", []) is None


def test_the_only_answer_to_which_to_cancel_cancels():
    assert _action("第一个", for_cancel=True) == (41, "cancel")


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("报名这个", (42, "join")),
        ("这个几点开始", (42, "details")),
        ("cancel that one", (42, "cancel")),
        ("ok sign me up for that one", (42, "join")),
        ("帮我报名", (42, "join")),
        ("can my friend join that one?", (42, "details")),
        ("I don't want to join that one", (42, "refused")),
        ("add it to my calendar", (42, "join")),
        ("把它加到我的日程里", (42, "join")),
    ],
)
def test_pointing_names_the_activity_the_last_reply_was_about(message, expected):
    assert _action(message, focus=42) == expected


@pytest.mark.parametrize(
    "message",
    [
        "帮我报名这个周末的飞盘",
        "这个周末的徒步我去不了了",
        "那个周日的活动取消吧",
        "这个app怎么用？",
        "那个，我想问一下明天天气怎么样呀我好安排出门",
        "that one reminds me, what did my sister say about her trip to the coast",
    ],
)
def test_this_before_a_time_or_a_thing_or_in_a_long_message_points_at_nothing(message):
    assert pointed_at(message, SHOWN, focus=42) is None


def test_pointing_at_one_of_several_without_a_focus_names_nothing():
    assert pointed_at("报名这个", SHOWN) is None


def test_stopping_going_is_managed_and_anything_else_explored():
    assert intent_of("cancel") == MANAGE
    assert intent_of("join") == intent_of("details") == EXPLORE


@pytest.mark.parametrize(
    "message",
    [
        "换一批",
        "好，换一批",
        "还有别的吗",
        "别的呢",
        "好的，再推荐几个",
        "show me others",
        "see others",
    ],
)
def test_asking_for_other_results_is_more(message):
    assert asks_for_more(message)


@pytest.mark.parametrize("message", ["还有别的户外活动吗", "more yoga classes", "换个时间"])
def test_a_new_ask_is_not_more(message):
    assert not asks_for_more(message)


@pytest.mark.parametrize(
    "message",
    [
        "保留第一个，取消第二个",
        "keep the first one and cancel the 2nd one",
        "sign me up for the first event of next month",
        "cancel the last event I organised",
    ],
)
def test_two_places_or_an_event_by_its_order_in_time_name_nothing(message):
    assert pointed_at(message, SHOWN) is None


@pytest.mark.parametrize("message", ["那个，帮我报名周六的桌游", "帮我取消那个，周六的徒步"])
def test_a_filler_that_opens_a_request_points_at_nothing(message):
    assert pointed_at(message, SHOWN, focus=42) is None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("报名吧", (42, "join")),
        ("就这个吧", (42, "join")),
        ("算我一个", (42, "join")),
    ],
)
def test_a_bare_choice_joins_the_activity_in_focus(message, expected):
    assert _action(message, focus=42) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("第二个报名吧", (42, "join")),
        ("第二个加到我的日程里", (42, "join")),
        ("我想去第一个", (41, "join")),
        ("第二个帮我取消一下", (42, "cancel")),
        ("I can't make the first one", (41, "cancel")),
        ("第二个是不是要收费", (42, "details")),
    ],
)
def test_a_place_with_a_plain_verb_or_question(message, expected):
    assert _action(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "算了我去不了了",
        "临时有事去不了了",
        "不想去了，帮我退掉",
        "sorry, can't make it",
        "actually I can't go anymore",
        "can't come after all, sorry",
    ],
)
def test_stopping_going_without_naming_one_is_read_as_unnamed(message):
    assert references.stops_going_unnamed(message)


@pytest.mark.parametrize(
    "message",
    [
        "周六去不了了",
        "取消徒步",
        "这个我去不了",
        "别取消",
        "去不了了吗？",
        "I can't make it tomorrow",
        "I can't go to the potluck",
        "why can't I go?",
        "I cannot go wrong with this one, thanks!",
    ],
)
def test_stopping_going_that_names_a_time_a_kind_or_a_pointer_is_not_unnamed(message):
    assert not references.stops_going_unnamed(message)
