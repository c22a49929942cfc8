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
