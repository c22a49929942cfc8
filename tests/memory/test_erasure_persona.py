"""Deleting a user's data; preferences, feedback, persona and session selectors."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memory.models import ChatMessage, ContextEntry, Feedback, Preference, SharedContext
from tests.memory.memory_helpers import ts


def test_delete_user_removes_everything(
    api_client, other_client, user, other_user, write, chat, memory_settings, make_user
):
    from config.userdata import report_keys

    # A low trigger: one more turn in c1 (5 unsummarised > 3) writes a summary of the chat.
    memory_settings.summary_trigger_messages = 3
    memory_settings.save()
    write(
        api_client,
        user.username,
        [
            {
                "message_id": "a7",
                "ts": ts(6),
                "role": "user",
                "content": "火锅还是清汤的好。",
                "chat_id": "c1",
            }
        ],
        status=201,
    )
    summary = ChatMessage.objects.get(user=user, kind="summary")
    assert summary.chat_id == "c1" and summary.embedding is not None
    u = user.username
    found = api_client.post(
        "/v1/messages/lexical_search",
        {"user_id": u, "query_text": "火锅", "filter": {"kind": "summary"}},
        format="json",
    ).json()["items"]
    assert [i["message_id"] for i in found] == [summary.message_id]
    assert api_client.get(f"/v1/users/{u}/chats/c1/context").json()["summary"] is not None
    write(
        other_client,
        other_user.username,
        [{"message_id": "b1", "ts": ts(0), "role": "user", "content": "我也不吃辣"}],
        status=201,
    )
    api_client.post(
        f"/v1/users/{user.username}/preferences",
        {"category": "food", "value": "不吃辣"},
        format="json",
    )
    api_client.post(
        f"/v1/users/{user.username}/feedback",
        {"target_message_id": "a2", "rating": 1, "comment": "好建议"},
        format="json",
    )
    created = api_client.post(
        "/v1/contexts", {"title": "吃饭", "entry": "找火锅店", "agent_name": "a"}, format="json"
    )
    context_id = created.json()["id"]
    assert api_client.get(f"/v1/contexts/{context_id}").status_code == 200

    r = api_client.delete(f"/v1/users/{user.username}")
    assert r.status_code == 200
    expected = {
        "messages": 7,
        "summaries": 1,
        "embeddings": 8,
        "preferences": 1,
        "feedback": 1,
        "contexts": 1,
        "context_entries": 1,
    }
    deleted = r.json()["deleted"]
    # Every declared kind is reported (other apps' are 0 here); memory's must be exact.
    assert sorted(deleted) == sorted(report_keys())
    assert {k: deleted[k] for k in expected} == expected
    for model in (ChatMessage, Preference, Feedback, SharedContext, ContextEntry):
        assert not model.objects.filter(
            **{
                SharedContext: {"owner": user},
                ContextEntry: {"context__owner": user},
            }.get(model, {"user": user})
        ).exists()
    # The account went too, and the token that asked with it.
    assert deleted["account"] == 1
    assert not type(user).objects.filter(pk=user.pk).exists()
    assert api_client.delete(f"/v1/users/{u}").status_code == 401
    # A new account of the same name finds none of it; the other user's data is untouched.
    api_client = APIClient()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {make_user(u).api_key}")
    assert api_client.get(f"/v1/users/{u}/messages").json()["items"] == []
    for path in ("lexical_search", "semantic_search", "hybrid_search"):
        for kind in ("message", "summary"):
            search = {"user_id": u, "query_text": "不吃辣 火锅", "filter": {"kind": kind}}
            if path != "lexical_search":  # a lexical search has no score to floor
                search["min_score"] = -1
            body = api_client.post(f"/v1/messages/{path}", search, format="json").json()
            assert body["items"] == [], (path, kind)
    assert api_client.get(f"/v1/users/{u}/preferences").json()["items"] == []
    context = api_client.get(f"/v1/users/{u}/chats/c1/context").json()
    assert context["summary"] is None and context["messages"] == []
    gone = api_client.get(f"/v1/contexts/{context_id}")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "NOT_FOUND"
    assert api_client.get(f"/v1/users/{u}/messages/a1/neighbors").status_code == 404
    assert ChatMessage.objects.filter(user=other_user).count() == 1


def test_preferences_and_feedback(api_client, user, chat):
    path = f"/v1/users/{user.username}/preferences"
    assert (
        api_client.post(path, {"category": "tone", "value": "humorous"}, format="json").status_code
        == 201
    )
    assert (
        api_client.post(path, {"category": "tone", "value": "humorous"}, format="json").status_code
        == 200
    )
    api_client.post(path, {"category": "food", "value": "不吃辣"}, format="json")
    items = api_client.get(path).json()["items"]
    assert [(i["category"], i["value"]) for i in items] == [
        ("food", "不吃辣"),
        ("tone", "humorous"),
    ]
    fb = f"/v1/users/{user.username}/feedback"
    r = api_client.post(
        fb, {"target_message_id": "a2", "rating": -1, "comment": "太长"}, format="json"
    )
    assert r.status_code == 201 and r.json()["target_message_id"] == "a2"
    assert (
        api_client.post(fb, {"target_message_id": "a2", "rating": 2}, format="json").status_code
        == 400
    )
    assert (
        api_client.post(fb, {"target_message_id": "zz", "rating": 1}, format="json").status_code
        == 404
    )


@pytest.mark.real_model  # the persona ranks preferences by the query's meaning
def test_persona_and_session_selectors(api_client, user, chat):
    from memory.selectors import messages_search_hybrid, persona_for, session_for
    from memory.services import feedback_create, preference_upsert

    preference_upsert(user=user, category="food", value="不吃辣")
    preference_upsert(user=user, category="tone", value="humorous")
    feedback_create(user=user, target_message_id="a4", rating=1, comment="景点推荐很有用")
    persona = persona_for(user=user, query="推荐一家餐厅")
    assert len(persona) == 3
    assert persona[0]["text"] == "food: 不吃辣"
    assert all("score" in p for p in persona)
    assert len(persona_for(user=user)) == 3
    session = session_for(user=user, chat_id="c1", limit=3)
    assert session["summary"] is None
    assert [m["message_id"] for m in session["messages"]] == ["a4", "a3", "a2"]
    hits = messages_search_hybrid(user=user, query_text="火锅", top_k=2)
    assert len(hits) == 2 and {h["message_id"] for h in hits} <= {"a1", "a2", "a6"}
    assert any(h["lexical_rank"] for h in hits)


def test_context_services(user, staff_user):
    from memory.selectors import fetch_context
    from memory.services import context_create, update_context

    ctx = context_create(owner=user, title="周末", entry="想去西湖", agent_name="planner")
    update_context(user=user, context_id=ctx.pk, agent_name="weather", content="周六下雨")
    body = fetch_context(user=staff_user, context_id=ctx.pk)
    assert [e["content"] for e in body["entries"]] == ["想去西湖", "周六下雨"]


def _cached(texts) -> set[str]:
    """Return the texts among ``texts`` that have a row in rag's embedding cache."""
    from rag.embeddings import content_hash
    from rag.models import EmbeddingCache

    by_hash = {content_hash(t): t for t in texts}
    found = EmbeddingCache.objects.filter(content_hash__in=list(by_hash))
    return {by_hash[h] for h in found.values_list("content_hash", flat=True)}


def test_message_embedding_goes_through_the_shared_cache(cold_lru, user, chat):
    rows = ChatMessage.objects.filter(user=user)
    texts = [r.embedding_text() for r in rows]
    assert _cached(texts) == set(texts)


def test_search_queries_stay_out_of_the_shared_cache(api_client, user, chat):
    query = "我上次说过不吃什么来着"
    for path in ("semantic_search", "hybrid_search"):
        r = api_client.post(
            f"/v1/messages/{path}", {"user_id": user.username, "query_text": query}, format="json"
        )
        assert r.status_code == 200
    assert _cached([query]) == set()


def test_erase_leaves_no_cached_vector_of_the_users_texts(
    cold_lru, api_client, other_client, user, other_user, write, chat
):
    from memory.selectors import persona_for
    from memory.services import feedback_create, preference_upsert
    from rag.embeddings import embed_texts

    write(
        other_client,
        other_user.username,
        [{"message_id": "b1", "ts": ts(0), "role": "user", "content": "别人的一句话"}],
        status=201,
    )
    pref, _ = preference_upsert(user=user, category="food", value="不吃辣")
    fb = feedback_create(user=user, target_message_id="a2", rating=1, comment="好建议")
    persona_for(user=user, query="推荐一家餐厅")  # embeds the persona texts (cached)
    embed_texts([chat[0]["content"]], role="query")  # e.g. the agent's router, as a query
    rows = ChatMessage.objects.filter(user=user)
    texts = [r.embedding_text() for r in rows] + [
        chat[0]["content"],
        pref.persona_text(),
        fb.persona_text(),
    ]
    before = _cached(texts)
    assert before == set(texts)

    deleted = api_client.delete(f"/v1/users/{user.username}").json()["deleted"]

    assert _cached(texts) == set()
    # a1 is cached as a passage (embedding text = content: first turn) and as a query.
    assert deleted["embedding_cache"] == len(before) + 1
    assert _cached(["别人的一句话"]) == {"别人的一句话"}


def _persona_rows(user, *, prefs: int, feedback: int):
    """Store preferences p00.. at base + i min and ratings f00.. at base + 20.5 + i min."""
    from datetime import timedelta

    from tests.memory.memory_helpers import BASE_TS

    for i in range(prefs):
        pref = Preference.objects.create(user=user, category="c", value=f"p{i:02d}")
        Preference.objects.filter(pk=pref.pk).update(updated_at=BASE_TS + timedelta(minutes=i))
    for i in range(feedback):
        fb = Feedback.objects.create(user=user, target_message_id=f"f{i:02d}", rating=1)
        when = BASE_TS + timedelta(minutes=20.5 + i)
        Feedback.objects.filter(pk=fb.pk).update(created_at=when)


def test_persona_is_the_newest_fifty_across_kinds(user):
    from memory.selectors import persona_for

    _persona_rows(user, prefs=40, feedback=20)  # 60 candidates; p00-p09 are the oldest
    persona = persona_for(user=user, limit=500)
    assert len(persona) == 50
    assert sum(p["type"] == "feedback" for p in persona) == 20
    assert "c: p09" not in [p["text"] for p in persona]
    assert persona[0]["text"] == "rating +1 on f19"  # 20.5 + 19 min: the newest
    assert persona[1]["text"] == "c: p39"


def test_persona_merges_preferences_and_feedback_by_recency_before_the_cap(user):
    from datetime import timedelta

    from memory.selectors import persona_for
    from tests.memory.memory_helpers import BASE_TS

    _persona_rows(user, prefs=3, feedback=2)  # p00-p02 at 0-2 min, f00-f01 at 20.5-21.5 min
    summary = ChatMessage.objects.create(
        user=user,
        message_id="s_1",
        chat_id="c1",
        ts=BASE_TS,
        role="system",
        kind="summary",
        content="用户不吃辣。",
        search_text="用户 不吃 辣",
    )
    ChatMessage.objects.filter(pk=summary.pk).update(created_at=BASE_TS + timedelta(hours=1))
    persona = persona_for(user=user, limit=4)
    assert [p["text"] for p in persona] == [
        "rating +1 on f01",
        "rating +1 on f00",
        "c: p02",
        "c: p01",
    ]
