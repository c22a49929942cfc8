"""Cantonese yes/no questions (A-not-A modals, no closing 吗) and information requests."""

from __future__ import annotations

import pytest

from rag.understand.cues import information_request, yes_no_question


@pytest.mark.parametrize("text", ["孕妇可唔可以饮咖啡", "使唔使预约先", "系唔系要带身份证"])
def test_a_cantonese_modal_asked_a_not_a_is_a_yes_no_question(text):
    assert yes_no_question(text)


@pytest.mark.parametrize("text", ["有冇人约打篮球", "醒狮 有冇得体验", "今晚有咩搞"])
def test_a_cantonese_request_is_not_a_yes_no_question(text):
    assert not yes_no_question(text)


@pytest.mark.parametrize("text", ["张卡唔见咗点算", "签证点样续", "呢道题点解", "睇牙几多钱"])
def test_a_cantonese_information_request_is_read(text):
    assert information_request(text)


@pytest.mark.parametrize("text", ["一个人喺广州好闷", "想感受下老广州嘅味道", "边度可以睇雀仔"])
def test_a_cantonese_request_for_something_to_do_is_not_an_information_request(text):
    assert not information_request(text)


@pytest.mark.parametrize("text", ["有景点解说的博物馆", "晚上八点算晚吗", "甜点搞起来"])
def test_a_clock_hour_or_a_word_ending_in_dian_asks_no_question(text):
    assert not information_request(text)
