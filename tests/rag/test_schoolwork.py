"""Schoolwork: help with homework, an essay or an exam question (rag.understand.schoolwork)."""

from __future__ import annotations

import pytest

from activities.search_relevance import asks_elsewhere
from rag.understand.schoolwork import schoolwork_request


@pytest.mark.parametrize(
    "query",
    [
        "四级作文有没有万能模板",
        "这道题怎么做",
        "第三题谁会",
        "高数作业求极限",
        "help with my essay on the scottish enlightenment",
        "can u help me with my chem homework",
        "past papers for the maths exam",
    ],
)
def test_a_piece_of_school_work_asked_about_is_schoolwork(query):
    assert schoolwork_request(query)


@pytest.mark.parametrize(
    "query",
    [
        "少儿作文课",
        "作文比赛报名",
        "essay writing workshop",
        "homework club for kids",
        "周末读书会",
    ],
)
def test_a_class_club_or_contest_about_it_is_not(query):
    assert not schoolwork_request(query)


def test_schoolwork_asks_for_something_else_unless_an_activity_word_names_an_outing():
    assert asks_elsewhere("四级作文有没有万能模板")
    # 学 / 一起 ask for something to do (activities.search_relevance.ACTIVITY_WORDS).
    assert not asks_elsewhere("周末一起写作业的自习局")


@pytest.mark.parametrize("query", ["英语完形填空有甚技巧", "阅读理解老是丢分", "数学压轴题怎么练"])
def test_a_kind_of_exam_question_asked_about_is_schoolwork(query):
    assert schoolwork_request(query)
