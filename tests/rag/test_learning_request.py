"""Asking to learn or practise something is a request for something to do."""

from __future__ import annotations

import pytest

from rag.understand.requests import company_request, learning_request


@pytest.mark.parametrize(
    "query",
    [
        "want to brush up on my Portuguese",
        "I'd like to take up archery",
        "looking to get back into running",
        "learn to knit",
        "想学吉他",
        "想练练口语",
        "学跳舞",
    ],
)
def test_wanting_to_learn_or_practise_is_read(query):
    assert learning_request(query)


@pytest.mark.parametrize(
    "query",
    ["brunch on sunday", "live music tonight", "周末去哪玩", "learner driver insurance", ""],
)
def test_other_requests_are_not(query):
    assert not learning_request(query)


@pytest.mark.parametrize(
    "query",
    [
        "周二午饭约一个",
        "周末约个饭",
        "有没有打羽毛球的局，缺个搭子",
        "有人一起爬山吗",
        "anyone up for badminton",
        "looking for people to play tennis with",
        "grab lunch with a friend",
    ],
)
def test_asking_for_company_is_read(query):
    assert company_request(query)


@pytest.mark.parametrize(
    "query",
    ["帮我预约周末的理发", "大约几点开始", "节约用水", "签约仪式", "约定俗成", "lunch menu", ""],
)
def test_appointments_and_other_words_holding_yue_are_not(query):
    assert not company_request(query)
