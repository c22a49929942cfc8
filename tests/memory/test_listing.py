"""Listing by time with seek paging, tamper-evident cursors, and neighbours."""

from __future__ import annotations

import pytest

from tests.memory.memory_helpers import ts


def _page_all(client, path, params=None):
    seen, cursor = [], None
    while True:
        query = dict(params or {}, page_size=3)
        if cursor:
            query["cursor"] = cursor
        body = client.get(path, query).json()
        seen += [i["message_id"] for i in body["items"]]
        cursor = body.get("next_cursor")
        if not cursor:
            return seen


def test_order_filters_and_paging(api_client, user, chat):
    path = f"/v1/users/{user.username}/messages"
    assert _page_all(api_client, path) == ["a6", "a5", "a4", "a3", "a2", "a1"]
    assert _page_all(api_client, path, {"chat_id": "c1", "role": "user"}) == ["a3", "a1"]
    body = api_client.get(path, {"since": ts(2), "until": ts(4)}).json()
    assert [i["message_id"] for i in body["items"]] == ["a4", "a3"]
    assert "next_cursor" not in body
    item = body["items"][0]
    assert set(item) >= {"message_id", "user_id", "chat_id", "ts", "role", "kind", "content"}


def test_same_ts_orders_by_message_id(api_client, user, write):
    items = [{"message_id": m, "ts": ts(0), "role": "user", "content": m} for m in "dbca"]
    write(api_client, user.username, items, status=201)
    assert _page_all(api_client, f"/v1/users/{user.username}/messages") == list("abcd")


def test_paging_while_inserting_neither_skips_nor_repeats(api_client, user, write):
    path = f"/v1/users/{user.username}/messages"
    items = [
        {"message_id": f"p{i:02d}", "ts": ts(i // 2), "role": "user", "content": f"x{i}"}
        for i in range(12)
    ]
    write(api_client, user.username, items, status=201)
    first = api_client.get(path, {"page_size": 5}).json()
    seen = [i["message_id"] for i in first["items"]]
    # New messages arrive: newer ones, and one at the very ts of the page boundary.
    boundary_ts = first["items"][-1]["ts"]
    new = [
        {"message_id": "zz_new", "ts": ts(100), "role": "user", "content": "new"},
        {"message_id": "p00a", "ts": boundary_ts, "role": "user", "content": "tie"},
    ]
    write(api_client, user.username, new, status=201)
    cursor = first["next_cursor"]
    while cursor:
        body = api_client.get(path, {"page_size": 5, "cursor": cursor}).json()
        seen += [i["message_id"] for i in body["items"]]
        cursor = body.get("next_cursor")
    assert len(seen) == len(set(seen))
    assert set(seen) >= {i["message_id"] for i in items}
    assert "zz_new" not in seen  # newer than the first page: the next listing starts there


def test_forged_or_foreign_cursor_is_invalid(api_client, user, chat):
    path = f"/v1/users/{user.username}/messages"
    cursor = api_client.get(path, {"page_size": 2}).json()["next_cursor"]
    for bad in [
        "garbage",
        cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB"),
        cursor.replace(":", ";"),
    ]:
        r = api_client.get(path, {"page_size": 2, "cursor": bad})
        assert r.status_code == 400, bad
        assert r.json()["error"]["code"] == "INVALID_ARGUMENT"
    # A cursor of another filter is refused too.
    r = api_client.get(path, {"page_size": 2, "cursor": cursor, "chat_id": "c1"})
    assert r.status_code == 400


def test_neighbors_in_time_order(api_client, user, chat):
    path = f"/v1/users/{user.username}/messages/a4/neighbors"
    body = api_client.get(path, {"before": 2, "after": 1}).json()
    assert [i["message_id"] for i in body["items"]] == ["a2", "a3", "a4", "a5"]
    default = api_client.get(path).json()
    assert [i["message_id"] for i in default["items"]] == ["a1", "a2", "a3", "a4"]
    r = api_client.get(f"/v1/users/{user.username}/messages/nope/neighbors")
    assert r.status_code == 404


@pytest.mark.django_db
def test_messages_matching_returns_the_users_own_matches_newest_first(user, other_user):
    from memory.selectors import messages_matching
    from memory.services import messages_write

    def write(owner, texts):
        items = [
            {"ts": f"2026-11-2{i}T10:00:00+08:00", "role": "user", "content": text}
            for i, text in enumerate(texts, start=1)
        ]
        messages_write(user=owner, items=items)

    write(user, ["我叫小周", "今天好累", "大家都叫我周周"])
    write(other_user, ["我叫别人"])
    found = messages_matching(user=user, pattern="我叫|叫我")
    assert [m.content for m in found] == ["大家都叫我周周", "我叫小周"]
