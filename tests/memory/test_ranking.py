"""Hybrid re-ranking by conversation context: neighbour turns and whole chats."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory import bm25, ranking
from memory.models import ChatMessage
from tests.memory.memory_helpers import BASE_TS, STATS

# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = pytest.mark.real_model


@pytest.fixture
def turns(user):
    """Store turns of ``user``: chat ``a`` (a0-a3, alternating roles) and chat ``b`` (b0-b2)."""

    def make(chat, i):
        return ChatMessage.objects.create(
            user=user,
            message_id=f"{chat}{i}",
            chat_id=chat,
            ts=BASE_TS + timedelta(minutes=i),
            role="user" if i % 2 == 0 else "assistant",
            content=f"turn {chat}{i}",
            search_text=f"turn {chat}{i}",
        )

    rows = [make("a", i) for i in range(4)] + [make("b", i) for i in range(3)]
    return {r.message_id: r.pk for r in rows}


def test_neighbours_are_the_turns_before_and_after_in_the_same_chat(turns):
    found = ranking.neighbours([turns["a1"]], {})
    assert sorted(found[turns["a1"]]) == sorted([turns["a0"], turns["a2"]])


def test_neighbours_pass_the_filter(turns):
    # a2's neighbours a1 and a3 are assistant turns: among user turns, only a0 is before it.
    found = ranking.neighbours([turns["a2"]], {"role": "user"})
    assert found[turns["a2"]] == [turns["a0"]]


def test_the_first_turn_has_only_a_next_neighbour(turns):
    assert ranking.neighbours([turns["b0"]], {})[turns["b0"]] == [turns["b1"]]


def test_add_neighbours_credits_a_share_of_the_anchor_score(turns):
    scores = ranking.add_neighbours({turns["a1"]: 1.0}, {})
    assert scores[turns["a2"]] == pytest.approx(ranking.NEIGHBOUR_WEIGHT)
    assert turns["b0"] not in scores


def test_boost_chats_raises_a_turn_of_the_chat_whose_best_turns_score_high(turns):
    scores = {
        turns["a0"]: 0.9,
        turns["a2"]: 0.8,
        turns["a1"]: 0.5,
        turns["b0"]: 0.5,
        turns["b1"]: 0.1,
    }
    boosted = ranking.boost_chats(scores)
    assert boosted[turns["a1"]] > boosted[turns["b0"]] == 0.5


def test_boost_chats_with_one_chat_changes_nothing(turns):
    scores = {turns["a1"]: 0.5, turns["a2"]: 0.4}
    assert ranking.boost_chats(scores) == scores


def test_boost_chats_of_nothing_is_nothing():
    assert ranking.boost_chats({}) == {}


def test_chat_context_gives_every_chat_and_only_the_anchors_neighbours(turns):
    chat_of, near = ranking.chat_context([turns["b1"]], [turns["a1"]], {})
    assert chat_of == {turns[k]: k[0] for k in ("a0", "a1", "a2", "b1")}
    assert set(near) == {turns["a1"]}
    assert sorted(near[turns["a1"]]) == sorted([turns["a0"], turns["a2"]])


@pytest.mark.parametrize("flt", [{}, {"role": "user", "since": BASE_TS}])
def test_rerank_top_equals_neighbours_then_chat_boost_in_one_query(
    turns, flt, django_assert_num_queries
):
    scores = {turns["a1"]: 0.9, turns["b1"]: 0.5, turns["a3"]: 0.3}
    expected = ranking.boost_chats(ranking.add_neighbours(scores, flt))
    with django_assert_num_queries(1):
        reranked = dict(ranking.rerank_top(scores, flt, len(expected)))
    assert reranked == pytest.approx(expected)


@pytest.fixture
def english(user):
    """Store English turns of ``user`` in one chat (segmented like real rows, no vectors)."""
    from rag.text import segment_for_index

    texts = [
        "Melanie: I researched adoption agencies last week",
        "Melanie: the weather was nice",
        "Melanie: we went to the beach",
        "Melanie: my pottery class starts soon",
    ]
    rows = [
        ChatMessage.objects.create(
            user=user,
            message_id=f"e{i}",
            chat_id="en",
            ts=BASE_TS + timedelta(minutes=i),
            role="user",
            content=text,
            search_text=segment_for_index(text),
        )
        for i, text in enumerate(texts)
    ]
    return {r.message_id: r.pk for r in rows}


def test_bm25_matches_an_english_word_by_its_stem(user, english):
    ids = bm25.bm25_ids(user=user, lexemes=["researching"], flt={"kind": "message"}, limit=5)
    assert ids == [english["e0"]]


def test_bm25_puts_the_rare_word_above_the_common_one(user, english):
    ids = bm25.bm25_ids(user=user, lexemes=["melanie", "pottery"], flt={"kind": "message"}, limit=5)
    assert ids[0] == english["e3"]
    assert len(ids) == 4


def test_a_word_whose_stem_drops_an_e_matches_its_stem_not_every_word_sharing_less(user, english):
    from rag.text import segment_for_index

    for i, text in enumerate(["Melanie: her sister will come over", "Melanie: the company party"]):
        ChatMessage.objects.create(
            user=user,
            message_id=f"c{i}",
            chat_id="en",
            ts=BASE_TS + timedelta(hours=1, minutes=i),
            role="user",
            content=text,
            search_text=segment_for_index(text),
        )
    stats = bm25.term_stats(user=user, lexemes=["coming"])
    # "coming" stems to "come": "com" alone would find "company".
    assert stats.terms["coming"] == "('come':* | 'coming')"
    ids = bm25.bm25_ids(user=user, lexemes=["coming"], flt={"kind": "message"}, limit=5)
    found = set(ChatMessage.objects.filter(pk__in=ids).values_list("message_id", flat=True))
    assert found == {"c0"}


def test_bm25_without_words_is_empty(user, english):
    assert bm25.bm25_ids(user=user, lexemes=[], flt={}, limit=5) == []


def test_term_stats_count_each_word_exactly_and_its_term_by_stem(user, english):
    stats = bm25.term_stats(user=user, lexemes=["researching", "melanie", "beach"])
    assert stats.total == 4
    # "researching" itself is in no turn; its stem "research:*" matches "researched".
    assert stats.lexeme_rows == {"researching": 0, "melanie": 4, "beach": 1}
    assert stats.terms["researching"] == "'research':*"
    assert stats.term_rows["'research':*"] == 1


def test_term_stats_are_one_statement_with_the_stems_of_new_words(
    user, english, django_assert_num_queries
):
    with django_assert_num_queries(1):  # the stems and the sample's counts together
        stats = bm25.term_stats(user=user, lexemes=["pottery", "beach", "the", "melanie"])
    # "pottery" stems to "potteri": the part both share; a stopword stems to nothing.
    assert stats.terms == {
        "pottery": "'potter':*",
        "beach": "'beach':*",
        "the": "'the'",
        "melanie": "'melani':*",
    }
    assert stats.term_rows["'potter':*"] == 1
    assert stats.lexeme_rows == {"pottery": 1, "beach": 1, "the": 2, "melanie": 4}


def test_term_stats_without_words_count_the_sample(user, english):
    stats = bm25.term_stats(user=user, lexemes=[])
    assert (stats.total, stats.terms, stats.lexeme_rows) == (4, {}, {})
    assert stats.mean_length > 0


def test_term_stats_ask_no_stem_of_a_chinese_word(user, english, django_assert_num_queries):
    with django_assert_num_queries(1):  # the sample's counts only
        stats = bm25.term_stats(user=user, lexemes=["搬家"])
    assert stats.terms == {"搬家": "'搬家'"}


def test_bm25_reads_its_weights_from_given_stats_without_counting_again(
    user, english, django_assert_num_queries
):
    lexemes = ["melanie", "pottery"]
    stats = bm25.term_stats(user=user, lexemes=lexemes)
    with django_assert_num_queries(1):  # the page only
        ids = bm25.bm25_ids(
            user=user, lexemes=lexemes, flt={"kind": "message"}, limit=5, stats=stats
        )
    assert ids == bm25.bm25_ids(user=user, lexemes=lexemes, flt={"kind": "message"}, limit=5)


def test_coverage_weighs_a_rare_word_above_a_common_one():
    weights = bm25.word_weights(["搬家", "冰箱"], STATS)
    rare = bm25.coverage("他们把冰箱磕了个坑", weights, STATS.terms)
    common = bm25.coverage("周末搬家，这两天在打包", weights, STATS.terms)
    assert rare > 0.5 > common > 0


def test_coverage_finds_a_single_character_inside_a_longer_word():
    stats = bm25.TermStats(1, 1.0, {"猫": 0}, {"猫": "'猫'"}, {"'猫'": 0})
    weights = bm25.word_weights(["猫"], stats)
    assert bm25.coverage("今天捡到一只小橘猫", weights, stats.terms) == 1.0


def test_coverage_matches_an_english_word_by_its_stem():
    stats = bm25.TermStats(10, 5.0, {"researching": 0}, {"researching": "'research':*"}, {})
    weights = bm25.word_weights(["researching"], stats)
    assert bm25.coverage("I researched adoption agencies", weights, stats.terms) == 1.0


# Turns of a candidate pool: acknowledgements (demoted) and content turns, with tied scores.
DEMOTION_POOL = {
    1: ("好的", 0.9),
    2: ("我给它起名叫年糕", 0.9),
    3: ("ok thanks", 0.8),
    4: ("We adopted a kitten last week", 0.5),
    5: ("哈哈哈", 0.5),
    6: ("The pottery class starts on Monday", 0.27),
    7: ("嗯嗯", 0.26),
    8: ("I researched adoption agencies", 0.15),
    9: ("收到", 0.1),
}


@pytest.mark.parametrize("top_k", [0, 1, 2, 3, 5, 9, 20])
def test_top_demoted_is_the_top_of_every_demoted_score(top_k):
    scores = {pk: score for pk, (_, score) in DEMOTION_POOL.items()}
    content_of = {pk: text for pk, (text, _) in DEMOTION_POOL.items()}
    demoted = {pk: ranking.demoted_score(score, content_of[pk]) for pk, score in scores.items()}
    expected = [(pk, demoted[pk]) for pk in sorted(demoted, key=lambda pk: -demoted[pk])]
    assert ranking.top_demoted(scores, content_of, top_k) == expected[:top_k]


def test_top_demoted_reads_no_turn_that_cannot_reach_the_top(monkeypatch):
    scores = {pk: score for pk, (_, score) in DEMOTION_POOL.items()}
    content_of = {pk: text for pk, (text, _) in DEMOTION_POOL.items()}
    read = []

    def low_content(text):
        read.append(text)
        return text in ("好的", "ok thanks", "哈哈哈", "嗯嗯", "收到")

    monkeypatch.setattr(ranking, "low_content", low_content)
    # Top 2: 0.9 (content) and 0.8 x 0.3 = 0.24 after 1 and 3 are demoted; 4 (0.5) enters, then
    # nothing below 0.5 can beat 0.5: 6-9 are never read.
    assert [pk for pk, _ in ranking.top_demoted(scores, content_of, 2)] == [2, 4]
    assert read == [content_of[pk] for pk in (1, 2, 3, 4, 5)]
