"""Batch writes: atomicity, idempotent resend, CONFLICT, validation naming the item, embedding."""

from __future__ import annotations

from unittest import mock

import pytest

from memory.models import ChatMessage, EmbedState
from tests.memory.memory_helpers import ts


def _item(i, **kw):
    return {"message_id": f"m{i}", "ts": ts(i), "role": "user", "content": f"第{i}句话", **kw}


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"ts": "yesterday"}, "ts"),
        ({"ts": "2025-03-01T08:00:00"}, "ts"),  # RFC 3339 needs an offset
        ({"role": "robot"}, "role"),
        ({"content": "   "}, "content"),
        ({"message_id": "has space"}, "message_id"),
        # A misspelt key would be dropped: the message stored under a generated id.
        ({"msg_id": "m9"}, "msg_id"),
        ({"speaker": "x" * 101}, "speaker"),
        ({"speaker": 7}, "speaker"),
    ],
)
def test_one_bad_item_stores_nothing(api_client, user, write, bad, field):
    items = [_item(0), _item(1), {**_item(2), **bad}]
    response = write(api_client, user.username, items, status=400)
    error = response.json()["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    assert error["details"] == {"index": 2, "field": field}
    assert f"items[2].{field}" in error["message"]
    assert not ChatMessage.objects.exists()


def test_resend_is_noop_and_other_content_conflicts(api_client, user, write):
    write(api_client, user.username, [_item(0), _item(1)], status=201)
    again = write(api_client, user.username, [_item(0), _item(1)], status=200).json()
    assert again["created"] == 0 and again["unchanged"] == 2
    changed = [_item(2), {**_item(1), "content": "改过的内容"}]
    response = write(api_client, user.username, changed, status=409)
    assert response.json()["error"]["code"] == "CONFLICT"
    assert response.json()["error"]["details"]["message_id"] == "m1"
    # The whole batch was refused: m2 was not stored either.
    assert sorted(ChatMessage.objects.values_list("message_id", flat=True)) == ["m0", "m1"]


def test_resend_with_another_speaker_conflicts_instead_of_dropping_it(api_client, user, write):
    write(api_client, user.username, [_item(0)], status=201)
    response = write(api_client, user.username, [{**_item(0), "speaker": "Caroline"}], status=409)
    assert response.json()["error"]["code"] == "CONFLICT"
    assert list(ChatMessage.objects.values_list("speaker", flat=True)) == [""]


def test_same_id_twice_in_a_batch_with_two_speakers_conflicts(api_client, user, write):
    items = [{**_item(3), "speaker": "Caroline"}, {**_item(3), "speaker": "Melanie"}]
    response = write(api_client, user.username, items, status=409)
    assert response.json()["error"]["details"] == {"index": 1, "message_id": "m3"}
    assert ChatMessage.objects.count() == 0


def test_same_id_twice_in_a_batch(api_client, user, write):
    write(api_client, user.username, [_item(0), _item(0)], status=201)
    assert ChatMessage.objects.count() == 1
    r = write(api_client, user.username, [_item(5), {**_item(5), "content": "x"}], status=409)
    assert r.json()["error"]["code"] == "CONFLICT"


def test_limits(api_client, user, write):
    r = write(api_client, user.username, [_item(i) for i in range(501)], status=400)
    assert r.json()["error"]["code"] == "INVALID_ARGUMENT"
    write(api_client, user.username, [], status=400)


def test_generated_ids_sort_by_time(api_client, user, write):
    items = [{"ts": ts(i), "role": "user", "content": f"无编号{i}"} for i in range(5)]
    first = write(api_client, user.username, items, status=201).json()["items"]
    second = write(api_client, user.username, items[:2], status=201).json()["items"]
    ids = [i["message_id"] for i in first + second]
    assert ids == sorted(ids) and len(set(ids)) == 7
    assert all(i.startswith("m_") for i in ids)


def test_embedding_in_groups_of_at_most_100(api_client, user, write):
    from rag import embeddings

    calls = []
    real = embeddings.embed_texts

    def spy(texts, **kw):
        calls.append(len(texts))
        return real(texts, **kw)

    # Chats of 20 messages: none is due for a summary (whose embedding would be a 4th call).
    items = [_item(i, content=f"消息{i}", chat_id=f"c{i // 20}") for i in range(230)]
    with mock.patch("memory.tasks.embed_texts", side_effect=spy):
        write(api_client, user.username, items, status=201)
    assert calls == [100, 100, 30]
    assert ChatMessage.objects.filter(embed_state=EmbedState.READY).count() == 230
    row = ChatMessage.objects.get(message_id="m5")
    assert row.embedding_model and row.embedding_hash and len(row.embedding) == 384
    # The previous turn of the same chat is embedded with each turn.
    assert row.context_text == "消息4"


def test_provider_failure_keeps_messages_and_retries(api_client, user, write):
    from django_q.models import Schedule

    from rag.embeddings import ProviderError

    with mock.patch("memory.tasks.embed_texts", side_effect=ProviderError("down")):
        write(api_client, user.username, [_item(0), _item(1)], status=201)
    rows = ChatMessage.objects.all()
    assert rows.count() == 2
    assert {r.embed_state for r in rows} == {EmbedState.FAILED}
    # A provider's failure says only its kind to the client (its text stays in the log).
    assert {(r.embed_error, r.embed_attempts) for r in rows} == {
        ("ProviderError: provider unreachable", 1)
    }
    assert Schedule.objects.filter(name__startswith="memory.embed.retry:").count() == 1
    from memory.tasks import messages_embed

    assert messages_embed(list(rows.values_list("pk", flat=True))) == "embedded 2"
    assert set(rows.values_list("embed_state", flat=True)) == {EmbedState.READY}
    assert messages_embed(list(rows.values_list("pk", flat=True))) == "unchanged"


def test_a_body_key_other_than_items_is_invalid_and_stores_nothing(api_client, user):
    body = {"items": [_item(0)], "chat_id": "c1"}  # chat_id belongs on each item
    response = api_client.post(f"/v1/users/{user.username}/messages", body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    assert error["details"] == {"field": "body"}
    assert "['chat_id']" in error["message"]
    assert not ChatMessage.objects.exists()


def test_the_documented_item_and_batch_fields_are_the_validated_ones():
    # The write is validated by memory.validation (exact item errors); the schema comes from
    # the serializers: both must name the same keys.
    from memory.serializers import MessageItemInSerializer, MessagesWriteInSerializer
    from memory.validation import BATCH_KEYS, ITEM_KEYS

    assert set(MessageItemInSerializer().fields) == set(ITEM_KEYS)
    assert set(MessagesWriteInSerializer().fields) == set(BATCH_KEYS)


def test_the_speaker_is_stored_and_read_back_and_optional(api_client, user, write):
    items = [_item(0, speaker="  Caroline "), _item(1), _item(2, speaker=None)]
    write(api_client, user.username, items, status=201)
    listed = api_client.get(f"/v1/users/{user.username}/messages").json()["items"]
    assert {m["message_id"]: m["speaker"] for m in listed} == {
        "m0": "Caroline",
        "m1": "",
        "m2": "",
    }
