"""A stored message with markup comes back escaped in lexical-search highlights."""

from __future__ import annotations

import pytest

from tests.memory.memory_helpers import ts

pytestmark = pytest.mark.django_db


def test_a_script_tag_in_a_stored_message_is_escaped_in_its_snippet(api_client, user, write):
    content = '火锅<script>alert("x")</script><img src=x onerror=alert(1)>'
    item = {"message_id": "m1", "ts": ts(0), "role": "user", "content": content}
    write(api_client, user.username, [item], status=201)
    body = api_client.post(
        "/v1/messages/lexical_search",
        {"user_id": user.username, "query_text": "火锅"},
        format="json",
    ).json()
    snippet = body["highlights"][0]["snippets"][0]
    assert snippet.startswith("<mark>火锅</mark>&lt;script&gt;")
    assert "<script" not in snippet and "<img" not in snippet
