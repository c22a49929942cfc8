"""What a search query refuses (activities/negation.py)."""

from __future__ import annotations

import numpy as np
import pytest

from activities.negation import (
    asked_part,
    away_from_refused,
    negated_spans,
    negated_terms,
    refused_phrases,
)


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
        "旱鸭子也能参加的水上活动 不用会游泳",  # no need to be able to swim: beginners
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


@pytest.mark.parametrize(
    ("query", "refused"),
    [
        # A comment closing its clause refuses the topic before it (Chinese topic-comment).
        ("想去看电影，恐怖片就算了", ["恐怖片"]),
        ("想喝点东西，咖啡就不要了", ["咖啡"]),
        ("想去公园 但对花粉过敏", ["花粉"]),
        ("想吃火锅，可是一点酒都喝不了", ["酒"]),  # the potential complement V不了
        ("想锻炼，周末实在爬不动", ["周末"]),
        ("想出去玩但下午没空", ["下午"]),
        # English: "or" carries the negation on; "X-free"; not tolerating what follows.
        ("a class that's not knitting or sewing", ["not knitting or sewing"]),
        ("something alcohol-free tonight", ["alcohol"]),
        ("dinner out, allergic to nuts", ["allergic to nuts"]),
        # 过敏 refuses what stands before it even with more said after it (no comma typed).
        ("吃的 海鲜过敏不吃海鲜", ["海鲜", "不吃海鲜"]),
        # "don't have to": need not, a refusal; an article counts for no word of its reach.
        (
            "beach things where i dont have to get into the freezing water",
            ["dont have to get into the freezing water"],
        ),
        ("somewhere i don't need to talk to people", ["don't need to talk to people"]),
    ],
)
def test_a_refusal_may_close_its_clause_or_run_over_or(query, refused):
    assert _negated(query) == refused


@pytest.mark.parametrize(
    "query",
    [
        "有没有别的亲子活动",  # 别的: "other"
        "想认识别人",
        "I don't have any paint, can I still join",  # the asker's state, not a refusal
        "dont know anyone here yet",
        "feel free to suggest anything",
        "周末少不了火锅",  # 少不了: "bound to have"
        "不怕冷，想冬泳",
        "哪怕下雨也想出去",
        "明天冷不冷 要不要穿羽绒服",  # A-not-A: "whether", no refusal
        "周末想不想去爬山",
    ],
)
def test_states_other_and_idioms_are_not_refusals(query):
    assert negated_spans(query) == []


@pytest.mark.parametrize(
    ("query", "phrases"),
    [
        ("不想吃辣的美食活动", ["吃辣"]),
        ("exercise that doesn't involve being outdoors", ["outdoors"]),
        ("想看演出，戏曲就不要了", ["戏曲"]),
        ("live music but not jazz, no bars", ["jazz", "bars"]),
        ("周末去爬山", []),
    ],
)
def test_refused_phrases_keep_the_refused_thing_only(query, phrases):
    assert refused_phrases(query) == phrases


def test_what_is_refused_is_taken_out_of_the_query_vector():
    query, refused = np.array([0.8, 0.6, 0.0]), np.array([[1.0, 0.0, 0.0]])
    moved = np.asarray(away_from_refused(query.tolist(), refused, weight=1.0))
    assert abs(float(moved @ refused[0])) < 1e-9  # nothing of the refused direction is left
    assert abs(float(np.linalg.norm(moved)) - 1.0) < 1e-9
    half = np.asarray(away_from_refused(query.tolist(), refused, weight=0.5))
    assert 0 < float(half @ refused[0]) < 0.8  # part of it
    assert away_from_refused(query.tolist(), [], weight=1.0) == query.tolist()  # nothing refused
    assert away_from_refused(query.tolist(), refused, weight=0.0) == query.tolist()


def test_the_refused_direction_is_taken_out_apart_from_what_is_asked_besides():
    # "food but no meat": meat is near food; only what meat holds apart from food is taken out.
    food, meat = np.array([1.0, 0.0, 0.0]), np.array([0.6, 0.8, 0.0])
    query = np.array([0.8, 0.5, 0.33])
    moved = np.asarray(away_from_refused(query.tolist(), [meat], asked=food, weight=1.0))
    assert abs(float(moved[1])) < 1e-9  # nothing of meat apart from food is left
    assert float(moved[0]) > float(query[0])  # food kept (renormalised, it gains)
    plain = np.asarray(away_from_refused(query.tolist(), [meat], weight=1.0))
    assert float(plain[0]) < float(moved[0])  # without it, food goes with the meat


def test_the_asked_part_is_the_query_without_its_refusals():
    assert asked_part("food thing but no meat please") == ["food thing but"]
    assert asked_part("周末去爬山") == ["周末去爬山"]
    assert asked_part("不想去") == []


def test_nothing_moves_when_what_is_refused_is_what_is_asked():
    # "辣 不要辣": the refused direction is the asked one; what is left of it apart from the
    # asked text is rounding noise (~1e-16), not normalised into a direction (audit, session 41).
    rng = np.random.default_rng(0)
    spicy, query = rng.normal(size=384), rng.normal(size=384)
    query /= np.linalg.norm(query)
    moved = away_from_refused(query.tolist(), [3 * spicy], asked=spicy, weight=1.0)
    assert moved == query.tolist()
