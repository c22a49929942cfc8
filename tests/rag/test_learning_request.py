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
        "anyone up for a game of badminton",
        "looking for people to play tennis with",
        "grab lunch with a friend",
        "找个饭搭子",
        "环岛路骑车 有人组队吗",
        "想找人一起唱歌",
        "和女朋友约会 想浪漫一点",
        "who wants to join me this saturday",
        "anyone free for dinner tonight",
    ],
)
def test_asking_for_company_is_read(query):
    assert company_request(query)


def test_company_for_a_thing_the_surface_names_is_read():
    # "badminton" is no general word of meeting up; the surface (activities: a named kind)
    # says it is something it offers.
    assert company_request("anyone up for badminton", names_activity=lambda t: "badminton" in t)
    assert not company_request("anyone up for a loan", names_activity=lambda t: "badminton" in t)


@pytest.mark.parametrize(
    "query",
    [
        # 约个 books an appointment or a service (session 42 audit).
        "约个牙医",
        "约个医生看病",
        "约个律师咨询",
        "约个体检",
        "约个搬家师傅",
        "约个保洁阿姨",
        # Someone to share a ride or a flat with, or to see a doctor with.
        "找人陪诊",
        "有没有人一起拼车去机场",
        "有人一起合租吗",
        "找个室友搭子",
        "anyone up for carpooling to the airport",
        "anyone free for a loan",
        "people free for a survey",
        "looking for someone to clean my house",
        "looking for a partner to start a business",
    ],
)
def test_company_for_an_appointment_a_service_or_a_share_is_not_a_meet_up(query):
    assert not company_request(query)


@pytest.mark.parametrize(
    "query",
    ["帮我预约周末的理发", "大约几点开始", "节约用水", "签约仪式", "约定俗成", "lunch menu", ""],
)
def test_appointments_and_other_words_holding_yue_are_not(query):
    assert not company_request(query)
