"""Deleting a user's data; preferences, feedback, persona and session selectors."""

from __future__ import annotations

from django.dispatch import receiver

from memory.models import ChatMessage, ContextEntry, Feedback, Preference, SharedContext
from tests.memory.memory_helpers import ts


def test_delete_user_removes_everything(api_client, other_client, user, other_user, write, chat):
    from rag.signals import user_data_erasure

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
    api_client.post(
        "/v1/contexts", {"title": "吃饭", "entry": "找火锅店", "agent_name": "a"}, format="json"
    )

    @receiver(user_data_erasure, dispatch_uid="test.erasure")
    def fake_activities(sender, user, **kw):
        return {"participations": 2, "interest_vectors": 1}

    try:
        r = api_client.delete(f"/v1/users/{user.username}")
    finally:
        user_data_erasure.disconnect(dispatch_uid="test.erasure")
    assert r.status_code == 200
    expected = {
        "messages": 6,
        "summaries": 0,
        "embeddings": 6,
        "preferences": 1,
        "feedback": 1,
        "contexts": 1,
        "context_entries": 1,
        "participations": 2,
        "interest_vectors": 1,
    }
    deleted = r.json()["deleted"]
    # Other apps' receivers add their own kinds (activities, agent); ours must be exact.
    assert {k: deleted[k] for k in expected} == expected
    for model in (ChatMessage, Preference, Feedback, SharedContext, ContextEntry):
        assert not model.objects.filter(
            **{
                SharedContext: {"owner": user},
                ContextEntry: {"context__owner": user},
            }.get(model, {"user": user})
        ).exists()
    # No endpoint returns any of it; the other user's data is untouched.
    u = user.username
    assert api_client.get(f"/v1/users/{u}/messages").json()["items"] == []
    for path in ("lexical_search", "semantic_search", "hybrid_search"):
        body = api_client.post(
            f"/v1/messages/{path}",
            {"user_id": u, "query_text": "不吃辣 火锅", "min_score": -1},
            format="json",
        ).json()
        assert body["items"] == [], path
    assert api_client.get(f"/v1/users/{u}/preferences").json()["items"] == []
    assert api_client.get(f"/v1/users/{u}/chats/c1/context").json()["messages"] == []
    assert api_client.get(f"/v1/users/{u}/messages/a1/neighbors").status_code == 404
    assert ChatMessage.objects.filter(user=other_user).count() == 1
    again = api_client.delete(f"/v1/users/{u}").json()["deleted"]
    assert again["messages"] == 0


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
