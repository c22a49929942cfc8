"""``DELETE /v1/users/{id}`` erases a user's data in every app, counted, and nothing else.

Two users fill every app through the public API (messages and a summary, preferences, feedback,
a shared context, a book with chapters chunked and embedded, activities joined and rated,
agent chats with a partner intent, a daily digest event). One is erased; the test reads the
models that hold user data from ``rag.userdata.user_data_paths`` (relations, user-id columns,
foreign-key chains), not from the declarations it checks.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from rag.embeddings import content_hash
from rag.models import EmbeddingCache
from rag.userdata import kept, kinds, reaching, report_keys, user_data_paths
from tests.memory.memory_helpers import ts

pytestmark = pytest.mark.django_db

BLOCKS = {
    "a": ["阿福在江南小镇开了一家茶馆。", "茶馆里每天都有说书人讲三国的故事，客人络绎不绝。"],
    "b": ["北方的雪下了整整三天。", "老猎人带着他的狗进山寻找走失的小鹿。"],
}
MESSAGES = {
    "a": ["我周末想去苏州看园林。", "拙政园和留园都很值得一去。", "那我周六早上出发。"],
    "b": ["我最近在学做川菜。", "麻婆豆腐是个不错的开始。", "明天就去买豆瓣酱。"],
}
PARTNER = {"a": "想找个搭子周末一起去爬山", "b": "想找个搭子周末一起去徒步"}


def _user_data_models() -> dict:
    """Return ``{model: lookups}`` of every model holding user data that erasure must clear."""
    return {m: p for m, p in user_data_paths().items() if m._meta.label_lower not in kept()}


def _reaching(user) -> dict:
    """Return ``{model: {pk, ...}}``: every row reaching the user, by model."""
    return {
        m: set(reaching(m, p, user).values_list("pk", flat=True))
        for m, p in _user_data_models().items()
    }


def _create_activity(client, tag, capture):
    """Create (and embed, on commit) one activity through the API; return the response."""
    activity = {
        "title": f"{tag} 周六读书会",
        "description": f"{tag} 一起读《{tag}传》，喝茶聊天。",
        "type": "读书",
        "start_at": (timezone.now() + timedelta(days=4)).isoformat(),
        "location": {"lat": 31.23, "lng": 121.47},
        "max_participants": 10,
    }
    with capture(execute=True):
        created = client.post("/api/activities/", activity, format="json")
    assert created.status_code == 201
    return created


@pytest.fixture
def fill(write, live_settings, django_capture_on_commit_callbacks):
    """Return ``fill(client, user, tag)``: the user's data in every app, through the API."""
    live_settings.summary_trigger_messages = 2
    live_settings.save()

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
        created = _create_activity(client, tag, django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            chat = client.post("/api/agent/chat", {"message": PARTNER[tag]}, format="json")
        assert chat.status_code == 200 and chat.json()["intent"] == "PARTNER"
        return created.json()["id"]

    return _fill


def _join_and_like(client, activity_id):
    assert client.post(f"/api/activities/{activity_id}/join/").status_code in (200, 201)
    r = client.post(f"/api/activities/{activity_id}/feedback/", {"rating": 1}, format="json")
    assert r.status_code in (200, 201)


def _cache_ids() -> set[int]:
    return set(EmbeddingCache.objects.values_list("pk", flat=True))


def test_erasure_clears_every_app_counts_it_and_spares_the_other_user(
    cold_lru, fill, api_client, other_client, user, other_user, django_capture_on_commit_callbacks
):
    from agent.triggers import run_daily_digest

    theirs = fill(other_client, other_user, "b")  # first: shared warm-up rows are not A's
    cached_before = _cache_ids()
    mine = fill(api_client, user, "a")
    cached_mine = _cache_ids() - cached_before
    _join_and_like(api_client, theirs)
    # Interest vectors are stored from the third +1 on (seed 000).
    for tag in ("b2", "b3"):
        more = _create_activity(other_client, tag, django_capture_on_commit_callbacks)
        _join_and_like(api_client, more.json()["id"])
    _join_and_like(other_client, mine)  # B's place in A's activity goes with it (documented)
    assert run_daily_digest(timezone.now()) == 2

    mine_rows, their_rows = _reaching(user), _reaching(other_user)
    kind_rows = {k.name: set(k.rows(user).values_list("pk", flat=True)) for k in kinds()}
    response = api_client.delete(f"/v1/users/{user.username}")

    assert response.status_code == 200
    deleted = response.json()["deleted"]
    assert sorted(deleted) == sorted(report_keys())
    # The data touched every kind, so every count below was really exercised.
    assert all(n > 0 for n in deleted.values()), deleted
    for kind in kinds():
        if kind.count is None:
            assert deleted[kind.name] == len(kind_rows[kind.name]), kind.name
    assert (deleted["books"], deleted["chapters"], deleted["story_blocks"]) == (1, 2, 4)
    assert deleted["child_chunks"] == deleted["chunk_vectors"] >= 2
    assert deleted["interest_vectors"] == 3 and deleted["others_participations"] == 1
    for model, rows in mine_rows.items():
        # The kinds of a model cover exactly the rows that reach the user.
        declared = set().union(*(kind_rows[k.name] for k in kinds() if k.model is model))
        assert declared == rows, model._meta.label
        assert not reaching(model, _user_data_models()[model], user).exists(), model._meta.label
    for kind in kinds():
        assert not kind.rows(user).exists(), kind.name
    for model, rows in their_rows.items():
        kept_rows = set(model._default_manager.filter(pk__in=rows).values_list("pk", flat=True))
        # Only rows that reached both users (B's place in A's activity) are gone.
        assert kept_rows == rows - mine_rows.get(model, set()), model._meta.label
    # Every vector cached while A's data was written is gone; B's own texts keep theirs.
    assert cached_mine and not EmbeddingCache.objects.filter(pk__in=cached_mine).exists()
    hashes = {content_hash(t) for t in _stored_texts(other_user)}
    still = EmbeddingCache.objects.filter(content_hash__in=hashes)
    assert set(still.values_list("content_hash", flat=True)) == hashes


def _stored_texts(user) -> list[str]:
    """Return the texts of the user's messages and child chunks, as they were embedded."""
    from memory.models import ChatMessage
    from writing.models import ChildChunk

    texts = [m.embedding_text() for m in ChatMessage.objects.filter(user=user, kind="message")]
    return texts + list(ChildChunk.objects.filter(book__owner=user).values_list("text", flat=True))
