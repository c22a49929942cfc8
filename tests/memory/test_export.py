"""``GET /v1/users/{id}/export`` streams a user's data as JSON Lines: complete, own, erasable.

The export reads the same user-data registry as erasure, so its manifest must carry exactly
the counts ``DELETE /v1/users/{id}`` then reports, and a row line for every row of every kind
that has rows of its own.
"""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from config.userdata import kinds, report_keys
from tests.memory.memory_helpers import join_and_like, ts

pytestmark = pytest.mark.django_db

JSONL = "application/x-ndjson"


def _export(client, username, accept=JSONL):
    response = client.get(f"/v1/users/{username}/export", HTTP_ACCEPT=accept)
    if response.status_code != 200:
        return response, []
    body = b"".join(response.streaming_content).decode()
    return response, [json.loads(line) for line in body.splitlines()]


def test_export_is_complete_and_its_counts_match_the_erasure_report(
    cold_lru,
    fill,
    api_client,
    other_client,
    user,
    other_user,
    staff_client,
    django_capture_on_commit_callbacks,
):
    from agent.triggers import run_daily_digest

    theirs = fill(other_client, other_user, "b")
    mine = fill(api_client, user, "a")
    join_and_like(api_client, theirs)
    join_and_like(other_client, mine)
    # A service's all-users webhook: its deliveries of the user's events are not the user's.
    hook = {"url": "http://127.0.0.1:9/all", "all_users": True}
    assert staff_client.post("/v1/users/service/webhooks", hook, format="json").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):  # webhook deliveries follow
        run_daily_digest(timezone.now())

    response, lines = _export(api_client, user.username)

    assert response.status_code == 200
    assert response["Content-Type"].startswith(JSONL)
    manifest, rows, end = lines[0], lines[1:-1], lines[-1]
    assert manifest["type"] == "manifest" and end["type"] == "end"
    assert sorted(manifest["counts"]) == sorted(report_keys())
    by_kind: dict[str, list[dict]] = {}
    for line in rows:
        assert line["type"] == "row"
        by_kind.setdefault(line["kind"], []).append(line["data"])
    for kind in kinds():
        if kind.erased_with:
            assert kind.name not in by_kind, kind.name
            continue
        assert len(by_kind.get(kind.name, [])) == manifest["counts"][kind.name], kind.name
        assert end["rows"][kind.name] == manifest["counts"][kind.name], kind.name
    # Credentials and other users' rows stay out: no webhook secret, no delivery to a webhook
    # the user does not own.
    assert by_kind["webhooks"] and all("secret" not in d for d in by_kind["webhooks"])
    hooks = {d["id"] for d in by_kind["webhooks"]}
    assert all(d["webhook_id"] in hooks for d in by_kind["webhook_deliveries"])
    webhooks = next(k for k in manifest["kinds"] if k["name"] == "webhooks")
    assert "secret" in webhooks["left_out_columns"]
    assert {d["content"] for d in by_kind["messages"]} >= {"我周末想去苏州看园林。"}
    assert all(d["user_id"] == user.pk for d in by_kind["messages"])
    assert all("embedding" not in d for d in by_kind["messages"])  # vectors left out
    assert by_kind["books"][0]["title"] == "a 之书"

    deleted = api_client.delete(f"/v1/users/{user.username}").json()["deleted"]

    assert deleted == manifest["counts"]


def test_a_user_cannot_export_another_user(api_client, other_user):
    response, _ = _export(api_client, other_user.username)

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"


def test_staff_exports_any_user(staff_client, api_client, user, write):
    item = {"message_id": "m1", "ts": "2026-01-02T03:04:05Z", "role": "user", "content": "你好"}
    write(api_client, user.username, [item], status=201)

    response, lines = _export(staff_client, user.username, accept="*/*")

    assert response.status_code == 200
    assert lines[0]["user"]["user_id"] == user.username
    assert [r["data"]["content"] for r in lines if r.get("kind") == "messages"] == ["你好"]


def test_a_client_accepting_only_json_gets_406_in_the_error_shape(api_client, user):
    response, _ = _export(api_client, user.username, accept="application/json")

    assert response.status_code == 406
    assert set(response.json()["error"]) == {"code", "message", "details"}


def test_the_export_carries_each_messages_speaker(api_client, user, write):
    item = {"message_id": "s1", "ts": ts(0), "role": "user", "content": "我去学陶艺了"}
    write(api_client, user.username, [{**item, "speaker": "小雨"}], status=201)
    _, lines = _export(api_client, user.username)
    messages = [line["data"] for line in lines if line.get("kind") == "messages"]
    assert [(m["message_id"], m["speaker"]) for m in messages] == [("s1", "小雨")]
