"""Refused times and negated words (rag/understand/negation_refused.py)."""

from __future__ import annotations

import pytest

from rag.understand.negation import inside, negated_spans
from rag.understand.negation_refused import refused_time, refused_word


def _at(text, phrase):
    start = text.index(phrase)
    return start, start + len(phrase)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("除了周六都行", "周六"),
        ("不要周末的", "周末"),
        ("except saturday", "saturday"),
        ("apart from sunday, anything", "sunday"),
    ],
)
def test_one_marker_reads_alike_in_spans_and_times(text, phrase):
    span = _at(text, phrase)
    assert inside(span, negated_spans(text))
    assert refused_time(text, span)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("不想要周末的", "周末"),
        ("not on sunday", "on sunday"),
        ("想运动但晚上没空", "晚上"),
        ("周六要加班，周日呢", "周六"),
        ("周末就算了", "周末"),
        ("sunday is out", "sunday"),
        ("tonight i'm busy", "tonight"),
    ],
)
def test_a_time_refused_before_or_said_not_free_after(text, phrase):
    assert refused_time(text, _at(text, phrase))


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("no kids this weekend", "this weekend"),  # "no" refuses kids, not the weekend
        ("no weekend plans yet", "weekend"),  # "no" denies the plans, not the weekend
        ("特别周末想出去", "周末"),  # 特别: "especially"
        ("有没有周末的活动", "周末"),  # 有没有: "is there"
        ("哪怕周末也行", "周末"),  # 哪怕: "even if"
        ("周六要加班，周日呢", "周日"),  # the next clause is free
    ],
)
def test_a_time_after_an_unrelated_negation_is_not_refused(text, phrase):
    assert not refused_time(text, _at(text, phrase))


@pytest.mark.parametrize(
    ("text", "word", "negated"),
    [
        ("不用跟人聊天", "聊天", True),
        ("不辣的火锅", "辣", True),  # 不 right before
        ("除了火锅还有什么好吃的", "火锅", False),  # one thing of a kind still asked for
        ("想动一动，球类运动就算了", "运动", False),
        ("不吃辣的美食活动", "美食", False),  # the negation ends at 的
        ("今晚有没有什么聊天的局", "聊天", False),
        ("不错的音乐", "音乐", False),
        ("想找个特别安静的地方", "安静", False),  # 特别: 别 inside a word
    ],
)
def test_a_word_after_not_wanting_or_right_after_a_negator_names_nothing(text, word, negated):
    assert refused_word(text, _at(text, word)[0]) is negated


def test_a_time_before_an_allergy_is_not_refused():
    text = "周末花粉过敏"  # 过敏 says nothing of being free at the weekend
    assert not refused_time(text, _at(text, "周末"))
