"""Lexical, semantic and hybrid search; match_conversations over SQL."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection

from tests.memory.memory_helpers import ts

LEX = "/v1/messages/lexical_search"
SEM = "/v1/messages/semantic_search"
HYB = "/v1/messages/hybrid_search"


# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = pytest.mark.real_model


def _ids(body):
    return [i["message_id"] for i in body["items"]]


def test_lexical_query_syntax(api_client, user, chat):
    body = api_client.post(
        LEX, {"user_id": user.username, "query_text": '"不吃辣" AND 火锅'}, format="json"
    ).json()
    assert _ids(body) == ["a1"]
    assert body["scores"][0]["message_id"] == "a1" and body["scores"][0]["score"] > 0
    assert "<mark>火锅</mark>" in body["highlights"][0]["snippets"][0]
    # Bare words are OR-ed and ranked; NOT excludes.
    body = api_client.post(
        LEX, {"user_id": user.username, "query_text": "火锅 西湖"}, format="json"
    ).json()
    assert set(_ids(body)) == {"a1", "a3", "a4", "a6"}
    body = api_client.post(
        LEX, {"user_id": user.username, "query_text": "火锅 AND NOT 清汤"}, format="json"
    ).json()
    assert _ids(body) == ["a1"]
    body = api_client.post(
        LEX,
        {"user_id": user.username, "query_text": "火锅", "filter": {"chat_id": "c2"}},
        format="json",
    ).json()
    assert _ids(body) == ["a6"]


def test_lexical_paging_and_return_fields(api_client, user, chat):
    seen, cursor = [], None
    while True:
        body = {
            "user_id": user.username,
            "query_text": "火锅 OR 西湖 OR 猫",
            "page_size": 2,
            "return_fields": ["message_id", "ts"],
        }
        if cursor:
            body["cursor"] = cursor
        out = api_client.post(LEX, body, format="json").json()
        assert all(set(i) == {"message_id", "ts", "provenance"} for i in out["items"])
        seen += _ids(out)
        cursor = out.get("next_cursor")
        if not cursor:
            break
    assert sorted(seen) == ["a1", "a3", "a4", "a5", "a6"]
    r = api_client.post(
        LEX, {"user_id": user.username, "query_text": "猫", "cursor": "x.y"}, format="json"
    )
    assert r.json()["error"]["code"] == "INVALID_ARGUMENT"


@pytest.mark.parametrize("path", [LEX, SEM, HYB])
def test_unknown_return_field_is_invalid(api_client, user, chat, path):
    body = {"user_id": user.username, "query_text": "火锅", "return_fields": ["content", "bogus"]}
    r = api_client.post(path, body, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "INVALID_ARGUMENT"
    assert "bogus" in r.json()["error"]["message"]


def test_semantic_exactly_one_query_and_dimensions(api_client, user, chat):
    base = {"user_id": user.username}
    for body in [base, {**base, "query_text": "火锅", "query_embedding": [0.1] * 384}]:
        r = api_client.post(SEM, body, format="json")
        assert r.status_code == 400 and r.json()["error"]["code"] == "INVALID_ARGUMENT"
    r = api_client.post(SEM, {**base, "query_embedding": [0.1] * 10}, format="json")
    assert r.status_code == 400 and "384" in r.json()["error"]["message"]
    r = api_client.post(SEM, {**base, "query_text": "x", "top_k": 201}, format="json")
    assert r.status_code == 400


def test_semantic_by_text_and_by_embedding(api_client, user, chat):
    from rag.embeddings import embed_query

    body = {"user_id": user.username, "query_text": "我对辣的食物有什么忌口", "min_score": 0}
    out = api_client.post(SEM, body, format="json").json()
    assert len(out["items"]) == 6
    scores = [i["semantic_score"] for i in out["items"]]
    assert scores == sorted(scores, reverse=True)
    assert out["items"][0]["message_id"] in {"a1", "a2", "a6"}
    vec = embed_query("我对辣的食物有什么忌口")
    out2 = api_client.post(
        SEM, {"user_id": user.username, "query_embedding": vec, "min_score": 0}, format="json"
    ).json()
    assert _ids(out2) == _ids(out)
    # No absolute default floor: the relevance cut decides (docs/RELEVANCE.md).
    default = api_client.post(SEM, {"user_id": user.username, "query_text": "猫"}, format="json")
    assert default.json()["floor"] is None


@pytest.mark.slow  # many rows and an HNSW index: 45 s under load
def test_semantic_narrow_filter_still_returns_top_k(user, api_client, fake_vectors):
    """~2% of 3,000 rows pass the filter; top_k of them come back on both paths."""
    vectors = fake_vectors(user, 3000, chat_of=lambda i: "rare" if i % 50 == 0 else "common")
    for path in ("exact", "hnsw"):
        with connection.cursor() as cursor:
            if path == "hnsw":
                cursor.execute("SET enable_seqscan = off")
            cursor.execute(
                "SELECT id, similarity, chat_id"
                " FROM match_conversations(%s::vector, %s, %s::jsonb)",
                [
                    str(vectors[7].tolist()),
                    20,
                    json.dumps({"user_id": user.pk, "chat_id": "rare", "path": path}),
                ],
            )
            rows = cursor.fetchall()
            cursor.execute("SET enable_seqscan = on")
        assert len(rows) == 20, path
        assert {r[2] for r in rows} == {"rare"}
        sims = [r[1] for r in rows]
        assert sims == sorted(sims, reverse=True)
    body = {
        "user_id": user.username,
        "query_embedding": vectors[0].tolist(),
        "top_k": 20,
        "min_score": -1,
        "filter": {"chat_id": "rare"},
    }
    out = api_client.post(SEM, body, format="json").json()
    assert len(out["items"]) == 20
    assert out["items"][0]["message_id"] == "f00000"
    assert out["items"][0]["semantic_score"] == pytest.approx(1.0, abs=1e-3)


def _match(cursor, vector, count: int, filt: dict) -> list[tuple]:
    cursor.execute(
        "SELECT id, similarity, chat_id FROM match_conversations(%s::vector, %s, %s::jsonb)",
        [str(vector.tolist()), count, json.dumps(filt)],
    )
    return cursor.fetchall()


@pytest.mark.slow  # many rows and an HNSW index: 33 s under load
def test_match_conversations_hnsw_stopped_early_still_returns_top_k(user, fake_vectors):
    # An iterative scan ends at hnsw.max_scan_tuples before 20 rows pass a 2% filter.
    vectors = fake_vectors(user, 3000, chat_of=lambda i: "rare" if i % 50 == 0 else "common")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL hnsw.max_scan_tuples = 5")
        rows = _match(
            cursor, vectors[7], 20, {"user_id": user.pk, "chat_id": "rare", "path": "hnsw"}
        )

    assert len(rows) == 20
    assert {r[2] for r in rows} == {"rare"}


def test_match_conversations_leaves_the_callers_hnsw_settings(user, fake_vectors):
    vectors = fake_vectors(user, 50)
    with connection.cursor() as cursor:
        _match(cursor, vectors[0], 5, {"user_id": user.pk, "path": "hnsw", "ef_search": 77})
        cursor.execute(
            "SELECT current_setting('hnsw.iterative_scan'), current_setting('hnsw.ef_search')"
        )
        assert cursor.fetchone() == ("off", "40")


def test_match_conversations_is_callable_over_sql(user, chat):
    from rag.embeddings import embed_query

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT * FROM match_conversations(%s::vector, 3, %s::jsonb)",
            [str(embed_query("猫")), json.dumps({"user_id": user.pk})],
        )
        columns = [c.name for c in cursor.description]
        rows = cursor.fetchall()
    assert columns[:6] == ["id", "message_id", "content", "similarity", "ts", "chat_id"]
    assert len(rows) == 3 and rows[0][1] == "a5"
    with pytest.raises(Exception, match="user_id is required"), connection.cursor() as cursor:
        cursor.execute(
            "SELECT * FROM match_conversations(%s::vector, 3, '{}'::jsonb)",
            [str(embed_query("猫"))],
        )


def test_hybrid_carries_both_scores_and_ranks(api_client, user, chat):
    out = api_client.post(
        HYB, {"user_id": user.username, "query_text": "不吃辣的火锅", "top_k": 6}, format="json"
    ).json()
    items = out["items"]
    assert len(items) == 6
    for item in items:
        assert {
            "hybrid_score",
            "lexical_score",
            "lexical_rank",
            "semantic_score",
            "semantic_rank",
        } <= set(item)
        assert item["semantic_score"] is not None
    both = [i for i in items if i["lexical_rank"] and i["semantic_rank"]]
    assert both and both[0]["message_id"] in {"a1", "a6"}
    scores = [i["hybrid_score"] for i in items]
    assert scores == sorted(scores, reverse=True)
    r = api_client.post(HYB, {"user_id": user.username}, format="json")
    assert r.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_a_hit_outside_the_semantic_list_gets_its_similarity_from_the_row_load(
    user, chat, monkeypatch
):
    import numpy as np

    from memory import search_hybrid
    from memory.models import ChatMessage
    from rag.embeddings import embed_query

    vector = embed_query("不吃辣的火锅")
    # No nearest neighbours at all: every similarity must come from the load of the rows.
    monkeypatch.setattr(search_hybrid, "nearest_messages", lambda *args, **kwargs: [])
    # Not the exact list read with the lexical ones either: through nearest_messages.
    monkeypatch.setattr(search_hybrid, "exact_by_bound", lambda *args, **kwargs: False)
    hits = search_hybrid.hybrid_search(
        user=user, query_text="不吃辣的火锅", flt={}, top_k=3, vector=vector
    )
    assert hits and all(h.extra["semantic_rank"] is None for h in hits)
    for hit in hits:
        stored = np.array(ChatMessage.objects.get(pk=hit.row.pk).embedding, dtype=float)
        expected = float(np.dot(vector, stored) / np.linalg.norm(vector) / np.linalg.norm(stored))
        assert hit.extra["semantic_score"] == pytest.approx(expected, abs=1e-6)


def test_the_row_load_gives_no_similarity_to_a_row_without_a_vector(user, chat):
    from memory import search_semantic
    from memory.models import ChatMessage
    from rag.embeddings import embed_query

    row = ChatMessage.objects.filter(user=user).first()
    ChatMessage.objects.filter(pk=row.pk).update(embedding=None)
    assert search_semantic.load_rows([row.pk], embed_query("火锅"))[row.pk].similarity is None


def test_the_row_load_of_a_user_gives_no_similarity_to_a_row_without_a_vector(user, chat):
    from memory import search_semantic
    from memory.models import ChatMessage
    from rag.embeddings import embed_query

    row = ChatMessage.objects.filter(user=user).first()
    ChatMessage.objects.filter(pk=row.pk).update(embedding=None)
    found = search_semantic.load_rows([row.pk], embed_query("火锅"), user=user)
    assert found[row.pk].similarity is None


def test_the_row_load_of_a_user_reads_what_the_row_load_of_any_rows_reads(user, chat):
    from django.forms.models import model_to_dict

    from memory import search_semantic
    from memory.models import ChatMessage
    from rag.embeddings import embed_query

    vector = embed_query("火锅")
    ids = list(ChatMessage.objects.filter(user=user).values_list("pk", flat=True))
    theirs = search_semantic.load_rows(ids, vector)
    owned = search_semantic.load_rows(ids, vector, user=user)
    assert set(owned) == set(ids)
    for pk, row in owned.items():
        expected = theirs[pk]
        assert model_to_dict(row, exclude=["embedding"]) == model_to_dict(
            expected, exclude=["embedding"]
        )
        assert row.similarity == expected.similarity
        assert row.get_deferred_fields() == expected.get_deferred_fields() == {"embedding"}


def test_the_row_load_of_a_user_reads_none_of_another_users_rows(user, chat, make_user):
    from memory import search_semantic
    from memory.models import ChatMessage

    ids = list(ChatMessage.objects.filter(user=user).values_list("pk", flat=True))
    assert ids
    assert search_semantic.load_rows(ids, None, user=make_user("someone-else")) == {}


def test_read_lists_gives_each_query_its_rows_in_its_own_order(user, chat):
    from memory import bm25, search
    from memory.stand_ins import stand_in_query

    flt = search.scoped({})
    lexical = search.lexical_query(user=user, flt=flt, tsquery="'火锅' | '西湖'", limit=50)
    bm25 = bm25.bm25_query(user=user, lexemes=["火锅", "西湖"], flt=flt, limit=50)
    queries = {"lexical": lexical, "bm25": bm25, "none": None}
    queries["stand_ins"] = stand_in_query(user=user, flt={})
    read = search.read_lists(queries)
    with connection.cursor() as cursor:
        for name in ("lexical", "bm25", "stand_ins"):
            cursor.execute(*queries[name])
            assert read[name] == [tuple(row[:4]) for row in cursor.fetchall()]  # READ_COLUMNS
    assert read["none"] == []
    assert len(read["lexical"]) == 4 and len(read["bm25"]) == 4


def test_hybrid_search_reads_in_a_fixed_number_of_queries(
    user, chat, django_assert_max_num_queries
):
    from memory import search_hybrid
    from rag.embeddings import embed_query

    vector = embed_query("不吃辣的火锅")
    # Loads the live settings and the relevance references, cached for the next call.
    search_hybrid.hybrid_search(user=user, query_text="火锅", flt={}, top_k=6, vector=vector)
    # One statement for the stems and the sample's counts (the common words, the BM25 weights
    # and the user's turns, which bound the nearest neighbours' rows), one for the lexical ids,
    # the BM25 ids, the stand-in summaries and the exact nearest neighbours, chats and
    # neighbours, rows: however many hits; and the turns holding the one-character word "辣"
    # inside a longer one.
    with django_assert_max_num_queries(5):
        hits = search_hybrid.hybrid_search(
            user=user, query_text="不吃辣的火锅", flt={}, top_k=6, vector=vector
        )
    assert len(hits) == 6


def test_common_words_are_dropped_from_plain_or_queries(user, api_client):
    """A word in most of the user's messages does not outrank the rare word of the answer."""
    from memory.models import ChatMessage
    from memory.search import lexical_tsquery
    from tests.memory.memory_helpers import BASE_TS

    rows = [
        ChatMessage(
            user=user,
            message_id=f"r{i:03d}",
            ts=BASE_TS,
            role="user",
            content=f"Caroline said thing {i}",
            search_text=f"caroline said thing {i}",
        )
        for i in range(60)
    ]
    rows[7].content = rows[7].search_text = "caroline went to the lgbtq support group"
    ChatMessage.objects.bulk_create(rows)
    assert lexical_tsquery("When did Caroline go to the LGBTQ group?", user=user) == (
        "'go' | 'lgbtq' | 'group'"
    )
    # Hybrid search reads the same counts with the BM25 weights (memory.bm25.term_stats).
    from memory.bm25 import term_stats
    from memory.search import drop_common_words, tsquery_lexemes
    from rag.text import parse_query

    question = "When did Caroline go to the LGBTQ group?"
    plain = parse_query(question, default_operator="or", drop_stopwords=True)
    stats = term_stats(user=user, lexemes=tsquery_lexemes(plain))
    assert drop_common_words(plain, user=user, stats=stats) == "'go' | 'lgbtq' | 'group'"
    # Explicit syntax is left alone.
    assert "caroline" in lexical_tsquery('"Caroline" lgbtq', user=user)
    body = api_client.post(
        LEX, {"user_id": user.username, "query_text": "Caroline lgbtq"}, format="json"
    ).json()
    assert [i["message_id"] for i in body["items"]] == ["r007"]


def test_searches_leave_summaries_out_unless_asked(user, api_client, chat):
    from memory.models import ChatMessage

    ChatMessage.objects.create(
        user=user,
        message_id="s_1",
        ts=chat[-1]["ts"],
        role="system",
        kind="summary",
        content="用户不吃辣，喜欢火锅。",
        search_text="用户 不吃 辣 喜欢 火锅",
        chat_id="c1",
    )
    body = {"user_id": user.username, "query_text": "火锅"}
    assert "s_1" not in _ids(api_client.post(LEX, body, format="json").json())
    body["filter"] = {"kind": "summary"}
    assert _ids(api_client.post(LEX, body, format="json").json()) == ["s_1"]


FILTERS = {
    # since inclusive, until exclusive: a2 (1 min), a3 (2 min), a4 (3 min).
    "time_range": ({"time_range": {"since": ts(1), "until": ts(4)}}, {"a2", "a3", "a4"}),
    "role": ({"role": "assistant"}, {"a2", "a4"}),
    "both": ({"time_range": {"since": ts(2)}, "role": "user"}, {"a3", "a5", "a6"}),
}


@pytest.mark.parametrize("name", sorted(FILTERS))
def test_lexical_filters(api_client, user, chat, name):
    flt, allowed = FILTERS[name]
    body = {"user_id": user.username, "query_text": "火锅 清汤 西湖 猫", "filter": flt}
    found = set(_ids(api_client.post(LEX, body, format="json").json()))
    assert found and found <= allowed


@pytest.mark.parametrize("path", [SEM, HYB])
@pytest.mark.parametrize("name", sorted(FILTERS))
def test_semantic_and_hybrid_filters(api_client, user, chat, path, name):
    flt, allowed = FILTERS[name]
    body = {
        "user_id": user.username,
        "query_text": "火锅",
        "filter": flt,
        "min_score": -1,
        "top_k": 20,
    }
    # Every message passing the filter has a vector, so both return exactly those.
    assert set(_ids(api_client.post(path, body, format="json").json())) == allowed


@pytest.mark.parametrize("path", [LEX, SEM, HYB])
@pytest.mark.parametrize(
    "flt, field",
    [
        ({"time_range": {"start": ts(1), "end": ts(4)}}, "filter.time_range"),
        ({"time_range": {"since": ts(1), "until": ts(4), "to": ts(5)}}, "filter.time_range"),
        ({"time_range": {"since": ts(1)}, "roles": ["user"]}, "filter"),
    ],
    ids=["start-end", "an-extra-key", "top-level"],
)
def test_an_unknown_filter_key_is_invalid_rather_than_ignored(
    api_client, user, chat, path, flt, field
):
    # Ignoring start/end would answer from every date, as if the window had been applied.
    body = {"user_id": user.username, "query_text": "火锅", "filter": flt}
    response = api_client.post(path, body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    assert error["details"]["field"] == field
    assert "unknown keys" in error["message"]


@pytest.fixture
def tied(user):
    """Store four turns with the same text and vector at two times; return the vector.

    Each in its own chat, so hybrid's neighbour credit (memory/ranking.py) leaves them tied.
    """
    import numpy as np

    from memory.models import ChatMessage, EmbedState
    from rag.fields import configured_dimensions
    from rag.text import segment_for_index
    from tests.memory.memory_helpers import BASE_TS

    vector = np.random.default_rng(1).normal(size=configured_dimensions())
    vector = (vector / np.linalg.norm(vector)).tolist()
    content = "同样的一句话：周末去爬山"
    for message_id, minutes in [("t_b", 1), ("t_a", 1), ("t_c", 0), ("t_d", 2)]:
        ChatMessage.objects.create(
            user=user,
            message_id=message_id,
            chat_id=f"tie_{message_id}",
            ts=BASE_TS + timedelta(minutes=minutes),
            role="user",
            content=content,
            search_text=segment_for_index(content),
            embedding=vector,
            embedding_model="fake",
            embed_state=EmbedState.READY,
        )
    return vector


TIE_ORDER = ["t_d", "t_a", "t_b", "t_c"]  # ts desc, then message_id asc


def test_lexical_ties_are_ordered_by_ts_desc_then_message_id(api_client, user, tied):
    out = api_client.post(LEX, {"user_id": user.username, "query_text": "爬山"}, format="json")
    body = out.json()
    assert len({s["score"] for s in body["scores"]}) == 1
    assert _ids(body) == TIE_ORDER


def test_semantic_ties_are_ordered_by_ts_desc_then_message_id(api_client, user, tied):
    body = {"user_id": user.username, "query_embedding": tied, "min_score": -1}
    items = api_client.post(SEM, body, format="json").json()["items"]
    assert len({i["semantic_score"] for i in items}) == 1
    assert [i["message_id"] for i in items] == TIE_ORDER


def test_hybrid_ties_are_ordered_by_ts_desc_then_message_id(api_client, user, tied):
    body = {"user_id": user.username, "query_text": "爬山", "query_embedding": tied}
    items = api_client.post(HYB, body, format="json").json()["items"]
    assert [i["message_id"] for i in items] == TIE_ORDER


def test_semantic_return_fields_trims_items_and_keeps_the_score(api_client, user, chat):
    body = {
        "user_id": user.username,
        "query_text": "火锅",
        "min_score": -1,
        "return_fields": ["message_id", "ts"],
    }
    items = api_client.post(SEM, body, format="json").json()["items"]
    assert len(items) == 6
    assert all(set(i) == {"message_id", "ts", "semantic_score", "provenance"} for i in items)


def test_hybrid_return_fields_trims_items_and_keeps_the_scores(api_client, user, chat):
    body = {"user_id": user.username, "query_text": "火锅", "return_fields": ["content"]}
    items = api_client.post(HYB, body, format="json").json()["items"]
    scores = {"hybrid_score", "lexical_score", "lexical_rank", "semantic_score", "semantic_rank"}
    assert items and all(set(i) == {"content", "provenance"} | scores for i in items)


# --- the stored tsvector (migration 0008) ----------------------------------------------------

STALE_TSV = (
    "SELECT count(*) FROM memory_chatmessage WHERE user_id = %s"
    " AND search_tsv IS DISTINCT FROM to_tsvector('simple', search_text)"
)


def test_stored_tsvector_follows_edits_and_deletes(user, chat):
    """search_tsv is what search used to compute per query, after a correction and a delete."""
    from memory.edits import message_delete, message_update

    message_update(user=user, message_id="a3", actor=user, content="周末想去北京故宫参观。")
    message_delete(user=user, message_id="a5", actor=user)

    with connection.cursor() as cursor:
        cursor.execute(STALE_TSV, [user.pk])
        assert cursor.fetchone()[0] == 0
        cursor.execute(
            "SELECT count(*) FROM memory_chatmessage WHERE user_id = %s AND kind = 'message'"
            " AND search_tsv @@ to_tsquery('simple', %s)",
            [user.pk, "故宫 | 豆豆 | 西湖"],
        )
        assert cursor.fetchone()[0] == 2  # a3's new word, a4's 西湖; a5 and a3's 西湖 are gone


def test_common_word_rule_reads_the_text_as_updated(user, fake_vectors):
    """A word stops being common once an update removes it (no cache to invalidate)."""
    from memory.models import ChatMessage
    from memory.search import _common_lexemes

    fake_vectors(user, 60)  # every row says "row {i}"
    assert _common_lexemes(user, ["row", "7"]) == {"row"}

    ChatMessage.objects.filter(user=user).exclude(message_id="f00007").update(search_text="line")

    assert _common_lexemes(user, ["row", "line"]) == {"line"}


@pytest.mark.parametrize("time_range", [[], "", False, 0], ids=repr)
def test_a_time_range_that_is_not_an_object_is_invalid_even_when_empty(
    api_client, user, chat, time_range
):
    # Read as "no range", these would search every date.
    body = {"user_id": user.username, "query_text": "火锅", "filter": {"time_range": time_range}}
    response = api_client.post(LEX, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"field": "filter.time_range"}


def test_the_nearest_list_read_with_the_others_is_nearest_messages(user, chat):
    from memory import search, search_semantic
    from rag.embeddings import embed_query

    vector = embed_query("不吃辣的火锅")
    flt = search.scoped({})
    query = search_semantic.exact_nearest_query(vector, 4, user=user, flt=flt)
    read = search.read_lists({"nearest": query})["nearest"]
    # rank is minus the distance: the same similarities, in the same order.
    assert [(pk, 1.0 - (-rank)) for pk, rank, *_ in read] == search_semantic.nearest_messages(
        vector, 4, user=user, flt=flt
    )


def test_the_sample_bounds_the_turns_only_when_it_holds_all_of_them():
    from memory import bm25
    from tests.memory.memory_helpers import STATS

    assert STATS.messages_at_most({"kind": "message", "role": "user"}) == STATS.total
    assert STATS.messages_at_most({"kind": "summary"}) is None
    full = bm25.TermStats(bm25.BM25_SAMPLE, 8.0, {}, {}, {})
    assert full.messages_at_most({"kind": "message"}) is None


@pytest.mark.parametrize("list_name", ["lexical", "bm25"])
def test_a_users_few_turns_are_matched_one_by_one_with_the_same_rows(
    user, chat, list_name, monkeypatch
):
    from memory import bm25, search

    flt = search.scoped({})
    words = ["火锅", "西湖", "辣"]
    stats = bm25.term_stats(user=user, lexemes=words)
    assert stats.messages_at_most(flt) is not None  # the sample held every turn

    def query(few_rows: bool):
        if list_name == "lexical":
            tsquery = "'火锅' | '西湖' | '辣'"
            return search.lexical_query(
                user=user, flt=flt, tsquery=tsquery, limit=50, few_rows=few_rows
            )
        if not few_rows:  # as for a user whose turns the sample did not hold all of
            monkeypatch.setattr(bm25.TermStats, "messages_at_most", lambda self, flt: None)
        return bm25.bm25_query(user=user, lexemes=words, flt=flt, limit=50, stats=stats)

    one_by_one = query(True)
    with connection.cursor() as cursor:
        cursor.execute(*one_by_one)
        rows = cursor.fetchall()
        cursor.execute("EXPLAIN " + one_by_one[0], one_by_one[1])
        plan = "\n".join(line for (line,) in cursor.fetchall())
        cursor.execute(*query(False))
        assert rows and rows == cursor.fetchall()
    # Not through the full-text GIN index (each partition's part of memory_msg_tsv).
    assert "ts_match_vq" in one_by_one[0] and "search_tsv_idx" not in plan
