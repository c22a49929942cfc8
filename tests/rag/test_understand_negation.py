"""The one reader of refusals (rag/understand/negation.py): spans, times and words."""

from __future__ import annotations

import pytest

from rag.understand.negation import (
    asked_text,
    negated_spans,
)
from rag.understand.negation_refused import refused_phrases


def _at(text, phrase):
    start = text.index(phrase)
    return start, start + len(phrase)


def test_refused_phrases_drop_the_negating_and_framing_words():
    assert refused_phrases("不想吃辣") == ["吃辣"]
    assert refused_phrases("something that doesn't involve drawing") == ["drawing"]
    assert refused_phrases("戏曲就不要了") == ["戏曲"]


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("on the water but i can't surf", ["surf"]),
        ("yoga is fine though i cannot do headstands", ["headstands"]),
        ("想去水上玩 但我不会游泳", ["游泳"]),
    ],
)
def test_what_one_cannot_do_after_a_contrast_is_refused(text, refused):
    # The inability limits the request before the contrast, which stands.
    assert refused_phrases(text) == refused


@pytest.mark.parametrize(
    "text",
    [
        "i can't swim, want to learn",  # alone: the beginners' class is wanted
        "on the water but i can't surf yet",  # "yet": learning to
        "想玩水 但是不会游泳 想学",
        "不会游泳",
        "不但不会累还很好玩",  # 不但 ("not only") is no contrast
    ],
)
def test_an_inability_alone_or_with_a_wish_to_learn_refuses_nothing(text):
    assert not any("surf" in p or "游泳" in p for p in refused_phrases(text))


def test_asked_text_blanks_only_what_is_refused():
    text = "food stuff with no booze, not drinking atm"
    asked = asked_text(text)
    assert len(asked) == len(text)
    assert asked.startswith("food stuff with ")
    assert "booze" not in asked and "atm" not in asked
    assert asked_text("where is the nearest atm") == "where is the nearest atm"


def test_a_paired_negation_refuses_both_of_its_verbs():
    # 不 X 也不 Y: the pairing makes each 不 a refusal; 不错 ("good") stays a plain word.
    assert refused_phrases("想运动 不跑步也不打球") == ["跑步", "打球"]
    assert refused_phrases("既不喝酒也不抽烟的聚会") == ["酒", "抽烟"]
    assert refused_phrases("不错也不贵的馆子") == []


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("只要不要太贵就行", ["贵"]),  # 只要: "as long as", no A-not-A question
        ("只要不要太远都可以", ["远都可以"]),
        ("但是不是很远", ["很远"]),
        ("明天要不要穿羽绒服", []),  # A-not-A: "whether"
        ("周末想不想去爬山", []),
        ("还要不要带伞", []),
    ],
)
def test_an_a_not_a_question_refuses_nothing_unless_its_first_a_closes_a_word(text, refused):
    assert refused_phrases(text) == refused


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("我对海鲜不过敏想吃海鲜自助", []),  # not allergic
        ("我没有过敏", []),  # no allergy, nothing refused
        ("孩子花生过敏周末带他去哪玩", ["花生"]),  # the allergen, not the person
        ("宝宝海鲜过敏想吃日料", ["海鲜"]),
        ("想吃日料但是宝宝海鲜过敏", ["海鲜"]),
        ("我对猫狗过敏", ["猫狗"]),
        ("我有点花粉过敏", ["花粉"]),
        ("过敏体质，猫毛过敏想找室内活动", ["猫毛"]),  # every 过敏, from the first character
        ("他过敏", []),
        ("抗过敏的室内活动", []),  # anti-allergy
        ("吃的 海鲜过敏不吃海鲜", ["海鲜"]),
        ("想出去玩，不过我对芒果和花生过敏", ["芒果和花生"]),
    ],
)
def test_allergic_refuses_the_allergen_right_before_it(text, refused):
    assert refused_phrases(text) == refused


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("without having to talk to people", ["talk to people"]),
        ("beach things where i dont have to get into the freezing water", ["freezing water"]),
        ("pottery without glaze", ["glaze"]),
    ],
)
def test_need_not_is_read_whole(text, refused):
    assert refused_phrases(text) == refused
    assert refused[0] not in asked_text(text)  # nothing of it left in the asked part


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("anything but karaoke", ["karaoke"]),
        ("skip the pubs, something outdoors", ["pubs"]),
        ("steer clear of bars", ["bars"]),
        ("a night out minus the booze", ["booze"]),
        ("board games instead of drinking", ["drinking"]),
        ("music, not a fan of jazz", ["jazz"]),
        ("not keen on hiking", ["hiking"]),
    ],
)
def test_english_exclusions_and_dislikes_refuse_their_object(text, refused):
    assert refused_phrases(text) == refused


def test_rope_skipping_and_a_temperature_below_zero_refuse_nothing():
    assert negated_spans("boxing fitness: skipping, pads and bag work") == []
    assert negated_spans("something indoors, it is minus 5 out there") == []


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("想去玩 但唔要爬山", ["爬山"]),
        ("唔想太嘈嗰种", ["嘈"]),
        ("覅排队", ["排队"]),
    ],
)
def test_cantonese_and_wu_words_of_not_wanting_refuse_what_follows(text, refused):
    assert refused_phrases(text) == refused


def test_an_exception_closing_its_clause_refuses_the_topic():
    assert refused_phrases("户外运动 骑车除外") == ["骑车"]


@pytest.mark.parametrize(
    ("text", "kept"),
    [("I'm up for anything but my kids must come", "kids"), ("甭管多远带孩子去", "孩子")],
)
def test_anything_but_a_clause_and_no_matter_refuse_nothing(text, kept):
    assert all(kept not in phrase for phrase in refused_phrases(text))


@pytest.mark.parametrize(
    "text",
    [
        "I don't mind a hike this weekend",
        "not sure if hiking or kayaking",
        "haven't gone hiking in ages",
        "I have no one to go hiking with",
        "no I meant hiking",
        "isn't there any live music tonight?",
        "is there no hiking this weekend?",
        "why not go hiking this weekend",
        "don't want to go hiking alone",
        "non-profit volunteering",
        "kids free entry museum",
    ],
)
def test_a_wish_a_question_or_a_fixed_phrase_said_with_a_negation_refuses_nothing(text):
    assert asked_text(text) == text


def test_being_alone_refused_is_still_refused():
    assert "alone" not in asked_text("homesick, dont wanna be alone")


def test_a_degree_refused_leaves_the_thing_after_it():
    assert asked_text("not too expensive yoga class").endswith("yoga class")


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("想学做福州菜 海鲜一口都碰不了", ["海鲜一口"]),
        ("早上起不来了", ["早上"]),
        ("一点辣都吃不了", ["辣"]),
    ],
)
def test_a_potential_complement_in_le_closing_its_clause_refuses_the_topic(text, refused):
    # 碰不了 closes its clause: its 了 is the complement's, not a particle after it.
    assert refused_phrases(text) == refused


@pytest.mark.parametrize(
    "text",
    [
        "出去玩 美食少不了",
        "周末聚会 火锅少不了",
        "那次徒步真是忘不了",
        "这家烧烤好吃到停不了",
        "这家火锅错不了",
    ],
)
def test_v_bu_liao_meaning_bound_to_refuses_nothing(text):
    assert refused_phrases(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "clay class, never touched a wheel",
        "never climbed before, want to try bouldering",
        "haven't surfed, lessons?",
        "i've never skied, lessons?",
    ],
)
def test_never_and_a_past_form_is_what_one_has_not_done_yet(text):
    # The beginners' listing of the thing named is wanted: nothing is refused.
    assert negated_spans(text) == []


@pytest.mark.parametrize("text", ["never liked crowds, a quiet museum", "not interested in golf"])
def test_a_verb_of_liking_after_the_negation_still_refuses(text):
    assert negated_spans(text) != []


@pytest.mark.parametrize("text", ["a park that's never crowded", "somewhere never crowded"])
def test_a_past_form_describing_the_place_wanted_still_refuses(text):
    assert negated_spans(text) != []
