"""Fixtures of the memory tests.

``write`` posts a batch through the API and runs the on-commit tasks (embedding, summaries)
inline, since ``Q_CLUSTER["sync"]`` is true in tests. ``fake_vectors`` stores rows with
synthetic unit vectors directly, for tests that need many rows but not the real model.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from tests.memory.memory_helpers import BASE_TS, create_activity, ts


@pytest.fixture
def write(django_capture_on_commit_callbacks):
    """Return ``write(client, user_id, items)`` posting messages and running on-commit tasks."""

    def _write(client, user_id, items, *, status=None):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/v1/users/{user_id}/messages", {"items": items}, format="json")
        if status is not None:
            assert response.status_code == status, response.json()
        return response

    return _write


def _chat_items():
    return [
        {
            "message_id": "a1",
            "ts": ts(0),
            "role": "user",
            "content": "我不吃辣，但是很喜欢火锅。",
            "chat_id": "c1",
        },
        {
            "message_id": "a2",
            "ts": ts(1),
            "role": "assistant",
            "content": "那可以点鸳鸯锅，清汤那边不辣。",
            "chat_id": "c1",
        },
        {
            "message_id": "a3",
            "ts": ts(2),
            "role": "user",
            "content": "周末想去杭州西湖看看风景。",
            "chat_id": "c1",
        },
        {
            "message_id": "a4",
            "ts": ts(3),
            "role": "assistant",
            "content": "西湖的断桥和苏堤都值得一去。",
            "chat_id": "c1",
        },
        {
            "message_id": "a5",
            "ts": ts(4),
            "role": "user",
            "content": "我养了一只叫豆豆的猫。",
            "chat_id": "c2",
        },
        {
            "message_id": "a6",
            "ts": ts(5),
            "role": "user",
            "content": "火锅店里辣锅太多了，我只吃清汤。",
            "chat_id": "c2",
        },
    ]


@pytest.fixture
def chat(api_client, user, write):
    """Store a short Chinese chat of ``user`` (chats ``c1``, ``c2``), embedded; return it."""
    items = _chat_items()
    write(api_client, user.username, items, status=201)
    return items


@pytest.fixture
def plain_chat(api_client, user):
    """The same chat, stored without running the on-commit tasks (no embeddings: fast)."""
    items = _chat_items()
    response = api_client.post(
        f"/v1/users/{user.username}/messages", {"items": items}, format="json"
    )
    assert response.status_code == 201
    return items


@pytest.fixture
def fake_vectors():
    """Return ``make(user, n, dims, chat_of)`` bulk-inserting rows with random unit vectors."""
    from memory.models import ChatMessage, EmbedState
    from rag.fields import configured_dimensions

    def make(user, n, *, chat_of=lambda i: "bulk", seed=0):
        rng = np.random.default_rng(seed)
        dims = configured_dimensions()
        vectors = rng.normal(size=(n, dims)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        rows = [
            ChatMessage(
                user=user,
                message_id=f"f{i:05d}",
                chat_id=chat_of(i),
                ts=BASE_TS + timedelta(seconds=i),
                role="user",
                content=f"row {i}",
                search_text=f"row {i}",
                embedding=vectors[i].tolist(),
                embedding_model="fake",
                embed_state=EmbedState.READY,
            )
            for i in range(n)
        ]
        ChatMessage.objects.bulk_create(rows, batch_size=500)
        return vectors

    return make


# --- A user's data in every app (erasure and export) ------------------------------------

BLOCKS = {
    "a": ["阿福在江南小镇开了一家茶馆。", "茶馆里每天都有说书人讲三国的故事，客人络绎不绝。"],
    "b": ["北方的雪下了整整三天。", "老猎人带着他的狗进山寻找走失的小鹿。"],
}
MESSAGES = {
    "a": ["我周末想去苏州看园林。", "拙政园和留园都很值得一去。", "那我周六早上出发。"],
    "b": ["我最近在学做川菜。", "麻婆豆腐是个不错的开始。", "明天就去买豆瓣酱。"],
}
PARTNER = {"a": "想找个搭子周末一起去爬山", "b": "想找个搭子周末一起去徒步"}


@pytest.fixture
def fill(write, memory_settings, django_capture_on_commit_callbacks):
    """Return ``fill(client, user, tag)``: the user's data in every app, through the API."""
    memory_settings.summary_trigger_messages = 2
    memory_settings.save()

    def _fill(client, user, tag):
        u = user.username
        items = [
            {"message_id": f"{tag}{i}", "ts": ts(i), "role": "user", "content": c, "chat_id": "c1"}
            for i, c in enumerate(MESSAGES[tag])
        ]
        write(client, u, items, status=201)
        assert (
            client.post(
                f"/v1/users/{u}/preferences",
                {"category": "city", "value": f"{tag}城"},
                format="json",
            ).status_code
            == 201
        )
        fb = {"target_message_id": f"{tag}1", "rating": 1, "comment": f"{tag} 有用"}
        assert client.post(f"/v1/users/{u}/feedback", fb, format="json").status_code == 201
        # A contradicting preference: the older one is kept as history, the change audited.
        for value in ("不吃辣", "爱吃辣"):
            pref = {"category": f"{tag} food", "value": value}
            assert client.post(f"/v1/users/{u}/preferences", pref, format="json").status_code == 201
        # A webhook nobody listens on: the user's events still log (failed) deliveries.
        hook = {"url": "http://127.0.0.1:9/hook"}
        assert client.post(f"/v1/users/{u}/webhooks", hook, format="json").status_code == 201
        context = {"title": f"{tag} 计划", "entry": f"{tag} 第一条", "agent_name": "planner"}
        assert client.post("/v1/contexts", context, format="json").status_code == 201
        book = client.post("/api/books/", {"title": f"{tag} 之书"}, format="json").json()
        for seq in (1, 2):
            chapter = {
                "book": book["id"],
                "title": f"{tag} 第{seq}回",
                "sequence": seq,
                "blocks": [{"content": f"第{seq}回。{c}"} for c in BLOCKS[tag]],
            }
            with django_capture_on_commit_callbacks(execute=True):
                r = client.post("/api/chapters/", chapter, format="json")
            assert r.status_code == 201, r.json()
        created = create_activity(client, tag, django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            chat = client.post("/api/agent/chat", {"message": PARTNER[tag]}, format="json")
        assert chat.status_code == 200 and chat.json()["intent"] == "PARTNER"
        # No reminder of the activities ahead (agent.models.ReminderMute).
        refusal = {"message": f"{tag} 的活动以后都别提醒我了"}  # a text of this user's alone
        with django_capture_on_commit_callbacks(execute=True):  # its turns embedded, as above
            muted = client.post("/api/agent/chat", refusal, format="json")
        assert [c["name"] for c in muted.json()["tool_calls"]][-1] == "setActivityReminder"
        # A told reminder cancelled (agent.models.TaskReminderMute).
        for message in (f"明天下午三点提醒我交{tag}房租", f"取消交{tag}房租的提醒"):
            with django_capture_on_commit_callbacks(execute=True):
                told = client.post("/api/agent/chat", {"message": message}, format="json")
        assert [c["name"] for c in told.json()["tool_calls"]][-1] == "cancelTaskReminder"
        return created.json()["id"]

    return _fill
