"""Editable memory: correct or delete one message, preference or context entry, audited.

Through the API as clients call it; the search surfaces are read back to show that nothing
stale is left behind (full text, vectors, the next turn's context, summaries, the cache).
"""

from __future__ import annotations

import pytest

from memory.models import ChatMessage, MemoryChange, Preference
from rag.embeddings import content_hash
from rag.models import EmbeddingCache
from tests.memory.memory_helpers import ts

pytestmark = pytest.mark.django_db

LEXICAL = "/v1/messages/lexical_search"


def _lexical(client, username, text) -> list[str]:
    body = {"user_id": username, "query_text": text}
    return [i["message_id"] for i in client.post(LEXICAL, body, format="json").json()["items"]]


def _semantic(client, username, text) -> list[str]:
    body = {"user_id": username, "query_text": text, "top_k": 1, "min_score": -1}
    response = client.post("/v1/messages/semantic_search", body, format="json").json()
    return [i["message_id"] for i in response["items"]]


def _patch(client, path, data, capture):
    with capture(execute=True):  # the re-embedding runs on commit, as in the worker
        return client.patch(path, data, format="json")


# --- messages --------------------------------------------------------------------------------


@pytest.mark.real_model  # a semantic search must find it by meaning
def test_correcting_a_message_refreshes_its_text_vector_and_next_turn(
    api_client, user, chat, django_capture_on_commit_callbacks
):
    old = ChatMessage.objects.get(user=user, message_id="a3")
    old_hashes = {content_hash(old.embedding_text()), content_hash(old.content)}

    response = _patch(
        api_client,
        f"/v1/users/{user.username}/messages/a3",
        {"content": "周末想去北京故宫参观。"},
        django_capture_on_commit_callbacks,
    )

    assert response.status_code == 200
    item = response.json()
    assert item["content"] == "周末想去北京故宫参观。" and item["edited_at"]
    assert _lexical(api_client, user.username, "故宫") == ["a3"]
    assert "a3" not in _lexical(api_client, user.username, "西湖")
    row = ChatMessage.objects.get(user=user, message_id="a3")
    assert row.embed_state == "ready" and row.embedding_hash == content_hash(row.embedding_text())
    assert _semantic(api_client, user.username, "故宫博物院") == ["a3"]
    assert ChatMessage.objects.get(user=user, message_id="a4").context_text.endswith("故宫参观。")
    assert not EmbeddingCache.objects.filter(content_hash__in=old_hashes).exists()
    change = MemoryChange.objects.get(entity="message", entity_id="a3")
    assert (change.actor, change.action, change.user_id) == (user.username, "update", user.pk)
    assert change.before["content"] == "周末想去杭州西湖看看风景。"


def test_a_staff_correction_is_recorded_with_the_staff_actor(
    staff_client, api_client, user, chat, django_capture_on_commit_callbacks
):
    response = _patch(
        staff_client,
        f"/v1/users/{user.username}/messages/a5",
        {"role": "assistant"},
        django_capture_on_commit_callbacks,
    )

    assert response.status_code == 200 and response.json()["role"] == "assistant"
    assert MemoryChange.objects.get(entity_id="a5").actor == "service"


def test_a_speaker_is_named_corrected_and_cleared_without_a_new_vector(
    api_client, user, plain_chat, django_capture_on_commit_callbacks
):
    path = f"/v1/users/{user.username}/messages/a1"
    state = ChatMessage.objects.get(user=user, message_id="a1").embed_state

    named = _patch(api_client, path, {"speaker": "  Caroline "}, django_capture_on_commit_callbacks)
    cleared = _patch(api_client, path, {"speaker": ""}, django_capture_on_commit_callbacks)

    assert named.status_code == 200 and named.json()["speaker"] == "Caroline"
    assert cleared.status_code == 200 and cleared.json()["speaker"] == ""
    assert ChatMessage.objects.get(user=user, message_id="a1").embed_state == state
    changes = MemoryChange.objects.filter(entity_id="a1").order_by("pk")
    assert [(c.before["speaker"], c.after) for c in changes] == [
        ("", {"speaker": "Caroline"}),
        ("Caroline", {"speaker": ""}),
    ]


def test_a_null_speaker_clears_it_as_on_write(
    api_client, user, plain_chat, django_capture_on_commit_callbacks
):
    path = f"/v1/users/{user.username}/messages/a1"
    _patch(api_client, path, {"speaker": "Caroline"}, django_capture_on_commit_callbacks)

    cleared = _patch(api_client, path, {"speaker": None}, django_capture_on_commit_callbacks)

    assert cleared.status_code == 200 and cleared.json()["speaker"] == ""
    assert ChatMessage.objects.get(user=user, message_id="a1").speaker == ""


@pytest.mark.parametrize("speaker", ["x" * 101, 7])
def test_a_speaker_the_write_rule_refuses_is_400_on_correction(
    api_client, user, plain_chat, speaker
):
    path = f"/v1/users/{user.username}/messages/a1"

    response = api_client.patch(path, {"speaker": speaker}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "speaker"
    assert ChatMessage.objects.get(user=user, message_id="a1").speaker == ""


def test_another_user_can_neither_edit_nor_delete_a_message(other_client, user, other_user, chat):
    path = f"/v1/users/{user.username}/messages/a1"

    assert other_client.patch(path, {"content": "x"}, format="json").status_code == 404
    assert other_client.delete(path).status_code == 404
    own_path = f"/v1/users/{other_user.username}/messages/a1"
    assert other_client.delete(own_path).status_code == 404  # not theirs under their name
    assert (
        ChatMessage.objects.get(user=user, message_id="a1").content == "我不吃辣，但是很喜欢火锅。"
    )
    assert not MemoryChange.objects.exists()


@pytest.mark.parametrize("content", ["", "   ", 12, "a\u0000b"])
def test_a_bad_correction_is_400_and_changes_nothing(api_client, user, chat, content):
    path = f"/v1/users/{user.username}/messages/a1"

    response = api_client.patch(path, {"content": content}, format="json")

    assert response.status_code == 400
    assert (
        ChatMessage.objects.get(user=user, message_id="a1").content == "我不吃辣，但是很喜欢火锅。"
    )


def test_deleting_a_message_takes_it_out_of_search_chat_and_summary(
    api_client, user, write, memory_settings, django_capture_on_commit_callbacks
):
    memory_settings.summary_trigger_messages = 2
    memory_settings.save()
    texts = [
        "我下周要去成都出差三天。",
        "成都的火锅非常有名。",
        "我对花生严重过敏，千万注意。",
        "好的。",
    ]
    items = [
        {"message_id": f"m{i}", "ts": ts(i), "role": "user", "content": t, "chat_id": "trip"}
        for i, t in enumerate(texts)
    ]
    write(api_client, user.username, items, status=201)
    summary = ChatMessage.objects.get(user=user, kind="summary")
    assert "花生" in summary.content  # the summary quotes the message to be deleted

    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.delete(f"/v1/users/{user.username}/messages/m2")

    assert response.status_code == 204
    assert not ChatMessage.objects.filter(user=user, message_id="m2").exists()
    assert _lexical(api_client, user.username, "花生") == []
    summary.refresh_from_db()
    assert "花生" not in summary.content and summary.embed_state == "ready"
    following = ChatMessage.objects.get(user=user, message_id="m3")
    assert following.context_text == "成都的火锅非常有名。"
    assert MemoryChange.objects.get(entity_id="m2").action == "delete"


# --- preferences -----------------------------------------------------------------------------


def _prefs(client, username, **params) -> list[tuple[str, str, bool]]:
    items = client.get(f"/v1/users/{username}/preferences", params).json()["items"]
    return [(p["category"], p["value"], p["superseded_at"] is None) for p in items]


def _upsert(client, username, category, value):
    body = {"category": category, "value": value}
    return client.post(f"/v1/users/{username}/preferences", body, format="json")


def test_a_contradicting_preference_replaces_the_older_one_with_history(api_client, user):
    first = _upsert(api_client, user.username, "food", "不吃辣").json()
    second = _upsert(api_client, user.username, "food", "爱吃辣").json()
    _upsert(api_client, user.username, "food", "喜欢火锅")  # no contradiction: both stay

    assert _prefs(api_client, user.username) == [
        ("food", "喜欢火锅", True),
        ("food", "爱吃辣", True),
    ]
    history = api_client.get(f"/v1/users/{user.username}/preferences", {"history": "true"})
    old = next(p for p in history.json()["items"] if p["id"] == first["id"])
    assert old["superseded_by"] == second["id"] and old["superseded_at"]
    change = MemoryChange.objects.get(action="supersede")
    assert change.before == {"category": "food", "value": "不吃辣"}


def test_restating_a_replaced_preference_brings_it_back(api_client, user):
    _upsert(api_client, user.username, "food", "不吃辣")
    _upsert(api_client, user.username, "food", "爱吃辣")

    again = _upsert(api_client, user.username, "food", "不吃辣")

    assert again.status_code == 200
    assert _prefs(api_client, user.username) == [("food", "不吃辣", True)]


def test_the_persona_shows_only_preferences_in_force(api_client, user):
    from memory.selectors import persona_for

    _upsert(api_client, user.username, "food", "不吃辣")
    _upsert(api_client, user.username, "food", "爱吃辣")

    texts = [item["text"] for item in persona_for(user=user, limit=10)]

    assert any("爱吃辣" in t for t in texts) and not any("不吃辣" in t for t in texts)


def test_a_preference_is_corrected_and_deleted_through_the_api(api_client, other_client, user):
    pref = _upsert(api_client, user.username, "city", "上海").json()
    path = f"/v1/users/{user.username}/preferences/{pref['id']}"

    assert other_client.patch(path, {"value": "x"}, format="json").status_code == 404
    patched = api_client.patch(path, {"value": "杭州"}, format="json")
    deleted = api_client.delete(path)

    assert patched.status_code == 200 and patched.json()["value"] == "杭州"
    assert deleted.status_code == 204 and _prefs(api_client, user.username) == []
    assert [c.action for c in MemoryChange.objects.order_by("pk")] == ["update", "delete"]
    assert not Preference.objects.filter(user=user).exists()


# --- shared-context entries ------------------------------------------------------------------


def test_a_context_entry_is_corrected_and_deleted_by_its_owner_only(api_client, other_client, user):
    body = {"title": "旅行计划", "entry": "周六去苏州", "agent_name": "planner"}
    context = api_client.post("/v1/contexts", body, format="json").json()
    api_client.post(
        f"/v1/contexts/{context['id']}/entries",
        {"agent_name": "booker", "content": "订了周六的高铁"},
        format="json",
    )
    entries = api_client.get(f"/v1/contexts/{context['id']}").json()["entries"]
    path = f"/v1/contexts/{context['id']}/entries/{entries[0]['id']}"

    assert other_client.patch(path, {"content": "x"}, format="json").status_code == 404
    patched = api_client.patch(path, {"content": "周日去苏州"}, format="json")
    deleted = api_client.delete(f"/v1/contexts/{context['id']}/entries/{entries[1]['id']}")

    assert patched.status_code == 200
    assert [e["content"] for e in patched.json()["entries"]][0] == "周日去苏州"
    assert deleted.status_code == 204
    after = api_client.get(f"/v1/contexts/{context['id']}").json()["entries"]
    assert [e["content"] for e in after] == ["周日去苏州"]
    assert {(c.entity, c.action, c.actor) for c in MemoryChange.objects.all()} == {
        ("context_entry", "update", user.username),
        ("context_entry", "delete", user.username),
    }
