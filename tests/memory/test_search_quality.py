"""Chinese chat search quality: content words, words inside words, acknowledgements, day
questions read as a range, and summaries standing in for turns retention deleted (in the
lexical, semantic and hybrid searches alike)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory import ranking, search, search_hybrid, stand_ins, understanding
from memory.models import ChatMessage
from rag.embeddings import embed_texts
from rag.search import rrf
from rag.text import segment_for_index
from tests.memory.memory_helpers import STATS

HYB = "/v1/messages/hybrid_search"
LEX = "/v1/messages/lexical_search"
SEM = "/v1/messages/semantic_search"
NOW = datetime(2025, 5, 8, 13, 0, tzinfo=UTC)  # a Thursday, 21:00 in Shanghai
SHANGHAI = understanding.time_zone("Asia/Shanghai")


# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = pytest.mark.real_model


def _row(user, mid, content, ts, *, chat="c1", role="user", **extra):
    return ChatMessage.objects.create(
        user=user,
        message_id=mid,
        chat_id=chat,
        ts=ts,
        role=role,
        content=content,
        search_text=segment_for_index(content),
        **extra,
    )


@pytest.fixture
def days(user):
    """Turns of ``user`` on 1, 2 and 3 May 2025 (Shanghai evenings), no vectors."""
    day = lambda d, h, m: datetime(2025, 5, d, h, m, tzinfo=UTC)  # noqa: E731
    _row(user, "d1", "今天捡到一只小橘猫", day(1, 12, 0), chat="c1")
    _row(user, "d2b", "领导又让我改方案", day(2, 11, 5), chat="c2")
    _row(user, "d2a", "今天在公司加班到很晚", day(2, 11, 0), chat="c2")
    _row(user, "d2c", "辛苦了，早点休息", day(2, 11, 10), chat="c2", role="assistant")
    _row(user, "d3", "五一想去云南旅行", day(3, 12, 0), chat="c3")


def test_content_query_drops_the_words_that_ask_and_the_time_phrase():
    assert search.content_tsquery("上周说的猫") == "'猫'"


def test_a_closing_laizhe_asks_to_be_reminded_and_is_no_content_word():
    assert search.content_tsquery("我对什么过敏来着") == "'过敏'"


def test_content_query_keeps_explicit_syntax_as_parsed():
    assert search.content_tsquery('"不吃辣" AND 火锅') == "('不吃' <-> '辣') & '火锅'"


def test_a_single_character_finds_it_inside_a_longer_word(user, days):
    hits = search_hybrid.hybrid_search(user=user, query_text="猫", flt={}, top_k=5, vector=None)
    assert [h.row.message_id for h in hits] == ["d1"]


def test_an_acknowledgement_does_not_outrank_the_turn_it_answers(user):
    start = datetime(2025, 3, 1, 8, 0, tzinfo=UTC)
    content = _row(user, "t1", "五一想去大理住几天，在洱海边骑车", start)
    ack = _row(user, "t2", "好的好的", start + timedelta(minutes=1))
    # The ack fused first (its vector holds the turn before it); the content turn second.
    scores = dict(ranking.rerank_top({ack.pk: 0.4, content.pk: 0.3}, {}, 2))
    assert scores[content.pk] > scores[ack.pk]


@pytest.mark.parametrize("text", ["好的", "嗯嗯", "哈哈哈哈", "ok!"])
def test_acknowledgements_are_low_content(text):
    assert ranking.low_content(text)


def test_a_turn_with_a_word_of_its_own_is_not_low_content():
    assert not ranking.low_content("我给它起名叫年糕，哈哈")


def test_a_day_question_returns_that_days_messages_in_time_order(api_client, user, days):
    body = {
        "user_id": user.username,
        "query_text": "5月2日我们聊了什么",
        "time_zone": "Asia/Shanghai",
        "now": NOW.isoformat(),
    }
    out = api_client.post(HYB, body, format="json").json()
    assert [i["message_id"] for i in out["items"]] == ["d2a", "d2b", "d2c"]
    assert out["read_as"] == "range"
    assert out["understood"]["applied"] == "range"
    assert out["items"][0]["provenance"]["retrieved_by"] == "range"


def test_a_relative_day_counts_back_from_the_given_now(user, days):
    asked = understanding.day_asked(
        "what did we talk about yesterday?", tz=SHANGHAI, now=datetime(2025, 5, 3, 4, tzinfo=UTC)
    )
    hits = understanding.read_range(user=user, flt={}, window=asked.window, limit=10)
    assert [h.row.message_id for h in hits] == ["d2a", "d2b", "d2c"]


@pytest.mark.parametrize("question", ["5月2日那天我们聊了什么", "5月2日当天说了啥"])
def test_a_day_pointed_at_again_is_still_a_question_about_the_day(question):
    asked = understanding.day_asked(question, tz=SHANGHAI, now=NOW)
    plain = understanding.day_asked("5月2日我们聊了什么", tz=SHANGHAI, now=NOW)
    assert asked is not None
    assert asked.window == plain.window


def test_a_day_with_a_topic_is_a_search_not_a_range():
    assert understanding.day_asked("5月2日说的方案", tz=SHANGHAI, now=NOW) is None


@pytest.fixture
def summarised_away(user):
    """A summary of chat ``old`` whose three turns retention deleted."""
    return _row(
        user,
        "s_old",
        "用户想去大理洱海边骑行，预算两千元。",
        datetime(2025, 1, 10, 12, 0, tzinfo=UTC),
        chat="old",
        role="system",
        kind="summary",
        summarised=True,
        covers_until_ts=datetime(2025, 1, 10, 12, 0, tzinfo=UTC),
        covered_count=3,
    )


def test_a_period_only_a_summary_holds_is_found_with_provenance(api_client, user, summarised_away):
    body = {"user_id": user.username, "query_text": "洱海骑行"}
    out = api_client.post(HYB, body, format="json").json()
    assert [i["message_id"] for i in out["items"]] == ["s_old"]
    source = out["items"][0]["provenance"]["source"]
    assert source["type"] == "summary" and source["covers"]["count"] == 3


def test_a_summary_whose_turns_are_all_kept_stays_out(user, summarised_away):
    start = datetime(2025, 1, 10, 11, 0, tzinfo=UTC)
    for i, text in enumerate(["想去大理", "洱海边骑行很舒服", "预算两千元"]):
        _row(user, f"o{i}", text, start + timedelta(minutes=i), chat="old", summarised=True)
    assert stand_ins.stand_in_summaries(user=user, flt={}) == []


@pytest.fixture
def embedded_summary(summarised_away):
    """The stand-in summary of ``summarised_away`` with its vector (the real local model)."""
    [vector] = embed_texts([summarised_away.embedding_text()], role="passage")
    summarised_away.embedding = vector
    summarised_away.save(update_fields=["embedding"])
    return summarised_away


def test_a_lexical_search_finds_what_only_a_summary_holds(api_client, user, summarised_away):
    body = {"user_id": user.username, "query_text": "洱海骑行"}
    out = api_client.post(LEX, body, format="json").json()
    assert [i["message_id"] for i in out["items"]] == ["s_old"]
    provenance = out["items"][0]["provenance"]
    assert provenance["source"]["type"] == "summary" and provenance["retrieved_by"] == "lexical"


def test_a_semantic_search_finds_what_only_a_summary_holds(api_client, user, embedded_summary):
    body = {"user_id": user.username, "query_text": "去大理洱海边骑车"}
    out = api_client.post(SEM, body, format="json").json()
    assert [i["message_id"] for i in out["items"]] == ["s_old"]
    provenance = out["items"][0]["provenance"]
    assert provenance["source"]["type"] == "summary" and provenance["retrieved_by"] == "semantic"


@pytest.mark.parametrize("path", [LEX, SEM])
def test_a_search_for_messages_only_leaves_the_summary_out(
    api_client, user, embedded_summary, path
):
    body = {"user_id": user.username, "query_text": "洱海骑行", "filter": {"kind": "message"}}
    out = api_client.post(path, body, format="json").json()
    assert out["items"] == []


@pytest.mark.parametrize("path", [LEX, SEM, HYB])
def test_a_stand_in_summary_is_found_by_its_owner_only(
    other_client, other_user, embedded_summary, path
):
    body = {"user_id": other_user.username, "query_text": "洱海骑行"}
    out = other_client.post(path, body, format="json").json()
    assert out["items"] == []


def test_a_day_with_more_turns_than_asked_keeps_what_the_user_raised(user):
    day = lambda h, m: datetime(2025, 5, 2, h, m, tzinfo=UTC)  # noqa: E731
    _row(user, "m1", "今天在公司加班到很晚", day(11, 0))
    _row(user, "m2", "辛苦了，早点休息", day(11, 5), role="assistant")
    _row(user, "m3", "哈哈", day(11, 10))
    _row(user, "m4", "晚上想去吃火锅", day(12, 0))
    asked = understanding.day_asked("5月2日我们聊了什么", tz=SHANGHAI, now=NOW)
    hits = understanding.read_range(user=user, flt={}, window=asked.window, limit=2)
    assert [h.row.message_id for h in hits] == ["m1", "m4"]


def test_a_made_up_word_of_the_question_is_matched_by_its_pieces(user):
    # "办卡花了多少钱": jieba's "办卡花" is in no turn; its "卡" is inside the turn's "张卡".
    start = datetime(2025, 9, 11, 12, 0, tzinfo=UTC)
    _row(user, "card", "今天去健身房办了张卡，年卡三千二", start)
    _row(user, "other", "周末搬家，这两天在打包", start + timedelta(minutes=2))
    query = "办卡花了多少钱"
    hits = search_hybrid.hybrid_search(user=user, query_text=query, flt={}, top_k=5, vector=None)
    assert [h.row.message_id for h in hits] == ["card"]


def test_a_turn_holding_only_a_common_word_does_not_bury_the_dense_best_turn():
    # Turn 1 is the dense list's best; turn 2 tops both lexical lists on the common word alone.
    fused = rrf([[2, 3], [1, 2], [2, 3]], k=ranking.FUSION_K)
    texts = {2: "周末搬家，这两天在打包", 3: "他们把冰箱磕了个坑"}
    scores = search_hybrid.held_scores(fused, texts, ["搬家", "冰箱"], STATS, lexical=(0, 2))
    assert scores[1] > scores[2]


def test_a_chinese_question_weighs_lexical_hits_by_coverage_an_english_one_does_not():
    assert search_hybrid.weighs_coverage("最后决定用哪个搬家公司")
    assert not search_hybrid.weighs_coverage("What did Caroline research?")
