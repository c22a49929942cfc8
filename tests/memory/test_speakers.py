"""The speaker rule of hybrid ranking: the turns of the speaker a question names come first."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory import bm25, ranking, speakers
from memory.models import ChatMessage
from tests.memory.memory_helpers import BASE_TS


@pytest.mark.parametrize(
    ("query", "speaker", "named"),
    [
        ("What did Caroline research?", "Caroline", True),
        ("what did caroline research?", "Caroline", True),  # case-insensitive
        ("When did Jon's shop open?", "Jon", True),  # a possessive is still the name
        ("What did Jonathan say?", "Jon", False),  # a whole word, not inside another
        ("小雨周末做了什么？", "小雨", True),  # Chinese: no spaces between words
        ("周末做了什么？", "小雨", False),
        ("What did Caroline research?", "", False),
        ("What is a good restaurant?", "A", False),  # one letter is a word of the question
        ("what did I say about the trip", "I", False),
        ("妈妈说了什么", "妈", False),  # one character is in ordinary words
    ],
)
def test_names_finds_a_speaker_as_a_whole_word_in_any_case(query, speaker, named):
    assert speakers.names(query, speaker) is named


def test_a_named_speaker_keeps_its_score_and_the_others_are_weighed_down():
    scores = {1: 1.0, 2: 0.8, 3: 0.6}
    speaker_of = {1: "Melanie", 2: "Caroline", 3: ""}
    weighed = speakers.speaker_weighed(scores, speaker_of, "What did Caroline research?")
    assert weighed == {1: pytest.approx(1.0 * speakers.SPEAKER_WEIGHT), 2: 0.8, 3: 0.6}


@pytest.mark.parametrize(
    ("speaker_of", "query"),
    [
        ({1: "Melanie", 2: "Caroline"}, "What did they research?"),  # no speaker named
        ({1: "", 2: ""}, "What did Caroline research?"),  # no turn has a speaker
        ({1: "Melanie", 2: "Caroline"}, ""),
    ],
)
def test_without_a_named_speaker_the_scores_are_unchanged(speaker_of, query):
    scores = {1: 1.0, 2: 0.8}
    assert speakers.speaker_weighed(scores, speaker_of, query) == scores


@pytest.mark.django_db
def test_rerank_top_puts_the_named_speakers_turn_first_in_its_one_query(
    user, django_assert_num_queries
):
    rows = [
        ChatMessage.objects.create(
            user=user,
            message_id=f"t{i}",
            chat_id="c",
            ts=BASE_TS + timedelta(minutes=i),
            role=role,
            speaker=speaker,
            content=f"{speaker}: I went to a pottery class",
        )
        for i, (role, speaker) in enumerate([("user", "Melanie"), ("assistant", "Caroline")])
    ]
    melanie, caroline = (r.pk for r in rows)
    scores = {melanie: 0.9, caroline: 0.6}
    plain = ranking.rerank_top(scores, {}, 2, user=user, query_text="Who took a class?")
    with django_assert_num_queries(1):
        named = ranking.rerank_top(
            scores, {}, 2, user=user, query_text="What class did Caroline take?"
        )
    assert [pk for pk, _ in plain] == [melanie, caroline]
    assert [pk for pk, _ in named] == [caroline, melanie]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("What did Caroline research?", "What did they research?"),
        ("When did Caroline's shop open?", "When did their shop open?"),  # possessive
        ("What do Caroline and Melanie share?", "What do they and they share?"),
        ("What did Jonathan say?", None),  # not a speaker of the chat
        ("Who took a pottery class?", None),
        ("小雨周末做了什么？", None),  # a Chinese name is left alone (unmeasured)
    ],
)
def test_unnamed_query_says_the_named_speakers_as_they(query, said):
    assert speakers.unnamed_query(query, {"Caroline", "Melanie", "Jon", "小雨", ""}) == said


def test_unnamed_query_says_a_typographic_possessive_as_their():
    assert speakers.unnamed_query("When did Caroline’s shop open?", {"Caroline"}) == (
        "When did their shop open?"
    )


def test_unnamed_query_is_none_when_nothing_would_change():
    # Named (case-insensitively) but written in another case than the stored name.
    assert speakers.unnamed_query("what did CAROLINE research?", {"Caroline"}) is None


def test_unnamed_query_replaces_a_capitalised_name_only_where_it_is_capitalised():
    assert speakers.unnamed_query("What will Will do in May?", {"Will", "May"}) == (
        "What will they do in they?"
    )


def test_unnamed_query_replaces_a_lower_case_name_in_any_case():
    assert speakers.unnamed_query("What did Bob say?", {"bob"}) == "What did they say?"


def test_the_sample_scan_reads_the_speakers_a_question_can_name(user):
    for i, speaker in enumerate(["Melanie", "", "Caroline", "Melanie"]):
        ChatMessage.objects.create(
            user=user,
            message_id=f"t{i}",
            chat_id="c",
            ts=BASE_TS + timedelta(minutes=i),
            role="user",
            speaker=speaker,
            content="I went to a pottery class",
        )

    stats = bm25.term_stats(user=user, lexemes=["pottery"])

    assert stats.speakers == {"Melanie", "Caroline"}
