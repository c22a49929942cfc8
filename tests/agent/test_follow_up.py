"""A short message right after a search changes that search (agent.follow_up)."""

from __future__ import annotations

import pytest

from agent.follow_up import (
    changed_search,
    follows_search,
    someone_said_before,
    visit_said_before,
)

LAST = {"query": "周末 户外活动", "limit": 5}


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("那明天的呢", "明天 户外活动"),
        ("周日呢", "周日 户外活动"),
        ("what about tomorrow?", "tomorrow 户外活动"),
        ("and on saturday?", "on saturday 户外活动"),
    ],
)
def test_another_time_keeps_the_last_searchs_topic(message, query):
    assert changed_search(message, LAST) == {"query": query, "limit": 5}


@pytest.mark.parametrize(
    ("message", "query"),
    [("what about food?", "周末 food"), ("那美食呢", "周末 美食")],
)
def test_another_thing_keeps_the_last_searchs_time(message, query):
    assert changed_search(message, LAST) == {"query": query, "limit": 5}


def test_another_thing_at_another_time_takes_both_from_the_message():
    assert changed_search("what about music tomorrow?", LAST) == {
        "query": "tomorrow music",
        "limit": 5,
    }


def test_a_narrowing_adds_to_the_last_query():
    assert changed_search("有没有免费的", LAST) == {"query": "周末 户外活动 免费", "limit": 5}


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("are any of them free?", "周末 户外活动 free"),
        ("any of those indoors?", "周末 户外活动 indoors"),
        ("这些里面有免费的吗", "周末 户外活动 免费"),
        ("其中有适合小孩的吗", "周末 户外活动 小孩"),
    ],
)
def test_a_question_of_the_results_narrows_them(message, query):
    assert changed_search(message, LAST) == {"query": query, "limit": 5}


def test_a_question_of_the_results_at_another_time_asks_for_that_time():
    assert changed_search("is one of them on Sunday?", LAST) == {
        "query": "on Sunday 户外活动",
        "limit": 5,
    }


@pytest.mark.parametrize("message", ["some of those look boring", "其中有我朋友的吗"])
def test_an_opinion_of_the_results_or_a_person_among_them_is_no_narrowing(message):
    assert changed_search(message, LAST) is None


@pytest.mark.parametrize(
    "message", ["那你呢", "what about you?", "那第一个呢", "我想学做饭", "谢谢", "what about it?"]
)
def test_a_message_of_its_own_does_not_follow_the_search(message):
    assert not follows_search(message)
    assert changed_search(message, LAST) is None


def test_a_visit_pointed_back_at_takes_its_time_and_liking_from_earlier():
    earlier = ["my sister Lucy is visiting next Friday, she loves jazz"]
    message = "find something we could do together when she's here"
    assert visit_said_before(message, "find we could do together when she's here", earlier) == (
        "next Friday jazz find we could do together"
    )


def test_a_visit_pointed_back_at_takes_what_the_visitor_likes_beyond_the_known_kinds():
    earlier = ["下周六我妈来上海玩，她喜欢听戏"]
    assert visit_said_before("她来的时候带她去哪玩", "带她 玩", earlier) == "下周六 听戏 带她 玩"


def test_a_visit_with_its_own_time_or_without_one_said_before_borrows_nothing():
    earlier = ["my sister Lucy is visiting next Friday, she loves jazz"]
    assert visit_said_before("what can we do when she's here on sunday", "x", earlier) == ""
    assert visit_said_before("她来的时候去哪玩", "去哪玩", ["我妹妹喜欢爵士"]) == ""


@pytest.mark.parametrize(
    "message",
    [
        "what about the price?",
        "那几点呢",
        "what about my sister?",
        "那我妹妹呢",
        "how about we go?",
        "what about the location",
    ],
)
def test_a_question_about_the_results_or_a_person_is_not_another_thing(message):
    assert not follows_search(message)


def test_another_time_said_with_instead_keeps_the_topic():
    assert changed_search("what about next week instead?", LAST) == {
        "query": "next week 户外活动",
        "limit": 5,
    }


@pytest.mark.parametrize(
    ("last", "message", "query"),
    [
        (
            "outdoor activities this weekend",
            "what about indoor ones?",
            "activities this weekend indoor",
        ),
        (
            "outdoor activities this weekend",
            "not outdoor ones",
            "activities this weekend not outdoor",
        ),
        ("周末户外活动", "有没有室内的", "周末 活动 室内"),
        ("周末户外活动", "不要户外的", "周末 活动 不要户外"),
    ],
)
def test_a_narrowing_drops_the_kind_it_contradicts(last, message, query):
    assert changed_search(message, {"query": last, "limit": 5}) == {"query": query, "limit": 5}


@pytest.mark.parametrize(
    "message", ["有没有别的", "有没有其他的", "no other options?", "not that one"]
)
def test_asking_for_others_is_no_narrowing(message):
    assert not follows_search(message)


def test_a_refusal_drops_only_a_kind_the_last_query_names():
    assert changed_search("有没有特别的", LAST) == {"query": "周末 户外活动 特别", "limit": 5}


@pytest.mark.parametrize(
    ("message", "topic", "earlier", "query"),
    [
        ("这周末有适合她的活动吗", "她", ["我女儿6岁，喜欢画画"], "6岁女儿 画画"),
        (
            "what can I do with them",
            "what can I do with them",
            ["my kids are 5 and 8"],
            "5 and 8 year old kids what can I do with",
        ),
        (
            "anything he would enjoy?",
            "he would enjoy",
            ["my dad is 70 and likes fishing", "ok"],
            "70 year old dad fishing",
        ),
        # The liking said of the pronoun leaves the search with it (session 55).
        (
            "anything she'd like?",
            "she'd like",
            ["my daughter is 6 and loves drawing"],
            "6 year old daughter drawing",
        ),
        ("有她会喜欢的吗", "她会喜欢", ["我女儿6岁，喜欢画画"], "6岁女儿 画画"),
    ],
)
def test_a_pronoun_asked_for_is_the_person_told_of_earlier(message, topic, earlier, query):
    assert someone_said_before(message, topic, earlier) == query


@pytest.mark.parametrize(
    ("message", "earlier"),
    [
        ("周末去哪玩", ["我女儿6岁"]),  # no one asked for
        ("有适合我女儿的吗", ["我女儿6岁"]),  # named, not pointed at
        ("这周末有适合她的活动吗", ["周末好无聊"]),  # nobody told of
        ("她来的时候带她去哪玩", ["下周六我妈来上海玩，她喜欢听戏"]),  # the visit's reading
    ],
)
def test_no_pronoun_for_someone_told_of_reads_nobody(message, earlier):
    assert someone_said_before(message, "x", earlier) == ""


@pytest.mark.parametrize(
    ("message", "earlier"),
    [
        ("周末想学吉他去哪", ["我女儿6岁，喜欢画画"]),  # 他 inside 吉他
        ("还有其他能玩的吗", ["我女儿6岁，喜欢画画"]),  # 他 inside 其他
        ("anything for her this weekend?", ["my son is 7 and loves trains"]),  # not him
        ("有适合她的吗", ["我儿子5岁"]),
    ],
)
def test_a_pronoun_that_cannot_be_the_person_told_of_reads_nobody(message, earlier):
    assert someone_said_before(message, "x", earlier) == ""


@pytest.mark.real_model  # the router reads them by meaning too
@pytest.mark.parametrize(
    "message", ["有没有她会喜欢的", "anything she'd like?", "这周末有适合她的活动吗"]
)
def test_asked_for_someone_by_a_pronoun_with_nobody_told_the_answer_asks_who(
    api_client, say, message
):
    body = say(api_client, message, chat_id="who")

    assert body["tool_calls"] == [], body["reply"]
    assert body["reply"].startswith(("Who do you mean?", "你说的是谁呀？")), body["reply"]


@pytest.mark.real_model
def test_asked_for_someone_told_of_the_search_is_for_them(api_client, say):
    say(api_client, "我女儿6岁，喜欢画画", chat_id="told")
    body = say(api_client, "有没有她会喜欢的", chat_id="told")

    assert body["tool_calls"][0]["name"] == "exploreNearby", body["reply"]
    assert "画画" in body["tool_calls"][0]["arguments"]["query"], body["tool_calls"]
