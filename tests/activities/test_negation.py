"""What a search query refuses (activities/negation.py)."""

from __future__ import annotations

import pytest

from activities.negation import negated_spans, negated_terms


def _negated(text):
    return [text[start:end] for start, end in negated_spans(text)]


@pytest.mark.parametrize(
    ("query", "refused"),
    [
        ("不要户外的，室内玩点什么", ["不要户外"]),  # ends at 的
        ("不想跟人说话，但想出门", ["不想跟人说话"]),  # ends at the comma
        ("除了火锅还有什么好吃的", ["除了火锅"]),  # ends at 还
        ("exercise but no running", ["no running"]),
        ("something creative that doesn't involve drawing", ["doesn't involve drawing"]),
        ("no kids, adults only", ["no kids"]),
        ("a walk that doesnt involve hills", ["doesnt involve hills"]),  # no apostrophe
    ],
)
def test_a_negation_runs_to_the_end_of_its_clause(query, refused):
    assert _negated(query) == refused


@pytest.mark.parametrize(
    "query",
    [
        "不会游泳也能玩的水上项目",
        "I can't swim but want to try",
        "天气不错，想晒晒太阳",
        "有没有攀岩",
        "想找个特别安静的地方看书",  # 特别: 别 inside a word
        "有没有特别适合老人的",
        "不需要基础的画画课",  # no experience needed: for beginners
        "I have never tried climbing",
        "haven't done pottery before",
        "No experience needed, no charge",
    ],
)
def test_what_one_cannot_do_yet_and_set_phrases_are_not_refusals(query):
    assert negated_spans(query) == []


def test_a_term_is_refused_only_when_every_mention_of_it_is_negated():
    assert negated_terms("不要户外的，室内玩点什么", ["户外", "室内"]) == {"户外"}
    assert negated_terms("户外也行，但不要太远的户外", ["户外", "太远"]) == {"太远"}
    assert negated_terms("exercise but no Running", ["exercise", "running"]) == {"running"}
