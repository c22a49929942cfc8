"""Every memory search hit says where it came from and why it was returned (``provenance``)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from memory.models import ChatMessage

pytestmark = pytest.mark.django_db


def _search(client, kind, body):
    return client.post(f"/v1/messages/{kind}_search", body, format="json").json()["items"]


@pytest.mark.parametrize(
    ("kind", "retrieved_by", "score"),
    [
        ("lexical", "lexical", "lexical_score"),
        ("semantic", "semantic", "semantic_score"),
        ("hybrid", "hybrid", "hybrid_score"),
    ],
)
def test_each_hit_names_its_message_chat_pass_and_scores(
    api_client, user, chat, kind, retrieved_by, score
):
    body = {"user_id": user.username, "query_text": "西湖", "top_k": 3, "min_score": -1}
    if kind == "lexical":
        body = {"user_id": user.username, "query_text": "西湖"}

    items = _search(api_client, kind, body)

    assert items
    for item in items:
        prov = item["provenance"]
        row = ChatMessage.objects.get(user=user, message_id=item["message_id"])
        assert prov["source"]["message_id"] == row.message_id
        assert prov["source"]["chat_id"] == row.chat_id
        assert prov["source"]["type"] == "message" and prov["source"]["covers"] is None
        assert prov["retrieved_by"] == retrieved_by
        assert isinstance(prov["scores"][score], float)


def test_a_summary_hit_names_the_range_it_covers(api_client, user, write, memory_settings):
    memory_settings.summary_trigger_messages = 2
    memory_settings.save()
    texts = ["我下周要去成都出差三天。", "成都的火锅非常有名。", "我对花生严重过敏。", "好的。"]
    items = [
        {
            "message_id": f"m{i}",
            "ts": f"2026-03-0{i + 1}T08:00:00Z",
            "role": "user",
            "content": t,
            "chat_id": "trip",
        }
        for i, t in enumerate(texts)
    ]
    write(api_client, user.username, items, status=201)
    summary = ChatMessage.objects.get(user=user, kind="summary")

    hits = _search(
        api_client,
        "semantic",
        {
            "user_id": user.username,
            "query_text": "成都出差",
            "top_k": 10,
            "min_score": -1,
            "filter": {"kind": "summary"},
        },
    )

    [hit] = hits
    assert hit["provenance"]["source"]["type"] == "summary"
    assert hit["provenance"]["source"]["covers"] == {
        "until": timezone.localtime(summary.covers_until_ts).isoformat(),
        "count": summary.covered_count,
    }
    assert summary.covered_count == 4
