"""Fixtures of the memory tests.

``write`` posts a batch through the API and runs the on-commit tasks (embedding, summaries)
inline, since ``Q_CLUSTER["sync"]`` is true in tests. ``fake_vectors`` stores rows with
synthetic unit vectors directly, for tests that need many rows but not the real model.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from tests.memory.memory_helpers import BASE_TS, ts


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
