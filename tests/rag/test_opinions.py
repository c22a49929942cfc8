"""A question asking for a judgement of manners or custom asks for an answer."""

from __future__ import annotations

import pytest

from rag.understand.opinions import opinion_question


@pytest.mark.parametrize(
    "query",
    [
        "chope seat with tissue paper is rude or not ah",
        "is it rude to take a call on the train",
        "would it be weird if i went alone",
        "is that normal?",
        "should i tip the taxi driver",
        "how much to tip in a restaurant",
        "用纸巾占座算不算没礼貌",
        "在地铁上吃东西违法吗",
        "会不会很尴尬",
        "系咪好冇礼貌",
    ],
)
def test_a_judgement_of_conduct_asked_as_a_question_is_read(query):
    assert opinion_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "something ok for kids",
        "what's a normal thing to do on sunday",
        "any weird and wonderful events",
        "正常的瑜伽课",
        "合适的活动",
        "适合情侣约会的",
        "polite society book club",
        "",
    ],
)
def test_requests_naming_those_words_are_not(query):
    assert not opinion_question(query)


@pytest.mark.parametrize(
    "query",
    [
        # 你觉得 asking for something to find, not for a judgement (session 42 audit).
        "你觉得这周末有什么演出",
        "你觉得周末哪个展值得",
        "你觉得附近哪家咖啡馆好",
        # 算 inside 预算 (a budget), and "ok or not" of a plan.
        "预算合适的音乐节",
        "jazz tonight ok or not",
    ],
)
def test_asking_the_assistant_what_to_find_or_within_a_budget_is_no_judgement(query):
    assert not opinion_question(query)


@pytest.mark.parametrize(
    "query",
    [
        "你觉得在地铁上吃东西怎么样",
        "你认为该不该给小费",
        "你觉得穿拖鞋去餐厅合适吗",
        "这样算不算不礼貌",
        "eating durian on the mrt is illegal or not",
        "is it ok to bring my own wine",
    ],
)
def test_an_opinion_asked_of_the_assistant_and_conduct_or_not_are_still_read(query):
    assert opinion_question(query)
