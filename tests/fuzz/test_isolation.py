"""No read of user B ever shows user A's private data, for every read operation of the schema.

Every read (GET, the searches, a chat turn, which reads memory) has rows in :data:`READS`:
requests built for a viewer and an owner. Run as bob about alice's objects (alice's user id,
alice's chat, book, chapter, context and message ids; queries that match alice's texts), no
answer may contain alice's marker (no request of bob carries it: answers echo queries, and
bob's chat turns are stored as bob's messages); run as alice about her own, the rows marked
``owner_sees`` must show it (so the check looks at real data). A read operation without rows
fails the guard test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from tests.fuzz.world import OTHER, OWNER, Account, load_schema

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

NOT_READS = {
    # Writes and deletes: no read of another user's data to check here.
    "activities_create",
    "activities_partial_update",
    "activities_destroy",
    "activities_feedback",
    "activities_join",
    "activities_leave",
    "writing_book_create",
    "writing_book_delete",
    "writing_chapter_create",
    "writing_chapter_save",
    "writing_chapter_delete",
    "writing_chapter_autosave",
    "memory_context_create",
    "memory_context_append",
    "memory_feedback_create",
    "feedback_rate",
    "memory_messages_write",
    "memory_preferences_upsert",
    "memory_user_delete",
    "agent_user_event_read",
    "memory_message_update",
    "memory_message_delete",
    "memory_preference_update",
    "memory_preference_delete",
    "memory_context_entry_update",
    "memory_context_entry_delete",
    "agent_webhooks_create",
    "agent_webhooks_delete",
    "agent_webhooks_update",
    "tokens_create",
    "tokens_rotate",
    "tokens_revoke",
    "health",  # no user data
}


@dataclass
class Read:
    """One request of a read operation, built for ``viewer`` about ``owner``'s objects."""

    method: str
    path: str  # formatted with v=viewer, o=owner
    json: dict | None = None
    params: dict | None = None
    owner_sees: bool = True  # the owner's own request shows the owner's marker

    def request(self, viewer: Account, owner: Account) -> tuple[str, str, dict[str, Any]]:
        def fill(value):
            if isinstance(value, str):
                text = value.format(v=viewer, o=owner)
                # An id alone ("{o.ids[book]}") is a JSON number: the API takes no numeric strings.
                return int(text) if ID_ALONE.fullmatch(value) else text
            if isinstance(value, dict):
                return {k: fill(item) for k, item in value.items()}
            if isinstance(value, list):
                return [fill(item) for item in value]
            return value

        kwargs = {"json": fill(self.json)} if self.json is not None else {}
        if self.params is not None:
            kwargs["params"] = fill(self.params)
        return self.method, fill(self.path), kwargs


ID_ALONE = re.compile(r"\{[ov]\.ids\[\w+\]\}")
LEXICAL = "/v1/messages/lexical_search"
SEMANTIC = "/v1/messages/semantic_search"
HYBRID = "/v1/messages/hybrid_search"


def _semantic(user: str, text: str) -> dict:
    return {"user_id": user, "query_text": text, "top_k": 50, "min_score": -1}


READS: dict[str, list[Read]] = {
    "activities_list": [
        Read("GET", "/api/activities/", params={"limit": 200}),
        Read("GET", "/api/activities/", params={"status": "draft", "limit": 200}),
    ],
    "activities_retrieve": [Read("GET", "/api/activities/{o.ids[draft]}/")],
    "rag_search": [
        # Search shows active activities only: alice's draft (the marked one) never, to anybody.
        Read(
            "POST", "/rag/search", json={"semanticQuery": "周末爬山", "limit": 50}, owner_sees=False
        ),
        Read("POST", "/rag/search", json={"semanticQuery": "莫干山徒步"}, owner_sees=False),
    ],
    "writing_book_list": [Read("GET", "/api/books/", params={"limit": 200})],
    "writing_book_get": [Read("GET", "/api/books/{o.ids[book]}/")],
    "writing_book_chapter_list": [Read("GET", "/api/books/{o.ids[book]}/chapters/")],
    "writing_chapter_get": [Read("GET", "/api/chapters/{o.ids[chapter]}/")],
    "writing_search": [
        Read("POST", "/api/writing/search", json={"query": "鲸鱼喷水", "top_k": 50}),
        Read("POST", "/api/writing/search", json={"query": "鲸鱼", "book": "{o.ids[book]}"}),
        Read(
            "POST", "/api/writing/search", json={"query": "鲸鱼", "chapters": ["{o.ids[chapter]}"]}
        ),
    ],
    "memory_context_get": [Read("GET", "/v1/contexts/{o.ids[context]}")],
    "memory_contexts_list": [
        Read("GET", "/v1/contexts", params={"page_size": 200}),
        Read("GET", "/v1/contexts", params={"user_id": "{o.username}", "page_size": 200}),
    ],
    "feedback_list": [Read("GET", "/api/feedback/", params={"page_size": 200})],
    "memory_messages_list": [
        Read("GET", "/v1/users/{o.username}/messages"),
        Read("GET", "/v1/users/{v.username}/messages", params={"chat_id": "{o.chat_ids[0]}"}),
    ],
    "memory_messages_neighbors": [
        Read("GET", "/v1/users/{o.username}/messages/{o.message_ids[3]}/neighbors"),
        Read("GET", "/v1/users/{v.username}/messages/{o.message_ids[3]}/neighbors"),
    ],
    "memory_chat_context": [
        Read("GET", "/v1/users/{o.username}/chats/{o.chat_ids[0]}/context"),
        Read("GET", "/v1/users/{v.username}/chats/{o.chat_ids[0]}/context"),
    ],
    "memory_preferences_list": [Read("GET", "/v1/users/{o.username}/preferences")],
    "agent_user_events": [Read("GET", "/v1/users/{o.username}/events")],
    "agent_user_events_stream": [
        Read("GET", "/v1/users/{o.username}/events/stream", params={"wait": 0}, owner_sees=False),
    ],
    "agent_webhooks_list": [Read("GET", "/v1/users/{o.username}/webhooks", owner_sees=False)],
    "agent_webhook_deliveries": [
        Read("GET", "/v1/users/{o.username}/webhooks/1/deliveries", owner_sees=False)
    ],
    "memory_user_export": [Read("GET", "/v1/users/{o.username}/export")],
    # Identity from the token only: the owner's token is named with its marker (tests/fuzz/seed).
    "tokens_list": [Read("GET", "/v1/tokens")],
    "memory_lexical_search": [
        Read("POST", LEXICAL, json={"user_id": "{o.username}", "query_text": "莫干山"}),
        Read("POST", LEXICAL, json={"user_id": "{v.username}", "query_text": "莫干山"}),
    ],
    "memory_semantic_search": [
        Read("POST", SEMANTIC, json=_semantic("{o.username}", "周末爬山")),
        Read("POST", SEMANTIC, json=_semantic("{v.username}", "周末爬山")),
    ],
    "memory_hybrid_search": [
        Read("POST", HYBRID, json=_semantic("{o.username}", "周末爬山")),
        Read("POST", HYBRID, json=_semantic("{v.username}", "爬山")),
    ],
    "agent_chat": [
        Read(
            "POST",
            "/api/agent/chat",
            json={"message": "我之前说过周末想去哪里？", "chat_id": "{o.chat_ids[0]}"},
            owner_sees=False,  # the reply need not quote the context
        ),
    ],
    "agent_chat_stream": [
        Read(
            "POST",
            "/api/agent/chat/stream",
            json={"message": "回顾一下我们聊过的内容", "chat_id": "{o.chat_ids[0]}"},
            owner_sees=False,
        ),
    ],
}


def _operations() -> dict[str, str]:
    """Return ``{operation_id: "METHOD path"}`` for every operation of the schema."""
    return {
        operation["operationId"]: f"{method.upper()} {path}"
        for path, item in load_schema()["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "operationId" in operation
    }


def test_every_operation_is_a_read_with_requests_or_listed_as_no_read():
    unclassified = set(_operations()) - set(READS) - NOT_READS
    assert unclassified == set()
    assert set(READS) <= set(_operations())


@pytest.fixture(scope="module")
def people(fuzz_world):
    """``(alice, bob)`` with all their seeded data in place."""
    fuzz_world.ensure(OWNER)
    fuzz_world.ensure(OTHER)
    return fuzz_world.accounts[OWNER], fuzz_world.accounts[OTHER]


@pytest.mark.parametrize("operation_id", sorted(READS))
def test_user_b_never_sees_user_a_data(operation_id, people, fuzz_world):
    alice, bob = people
    for read in READS[operation_id]:
        method, path, kwargs = read.request(bob, alice)
        response = fuzz_world.call(bob, method, path, **kwargs)
        assert response.status_code < 500, (path, response.text)
        assert alice.marker not in response.text, (method, path, kwargs)


@pytest.mark.parametrize(
    "operation_id", sorted(op for op, reads in READS.items() if any(r.owner_sees for r in reads))
)
def test_the_owner_sees_own_data_through_the_same_requests(operation_id, people, fuzz_world):
    alice, _ = people
    for read in READS[operation_id]:
        if read.owner_sees:
            method, path, kwargs = read.request(alice, alice)
            response = fuzz_world.call(alice, method, path, **kwargs)
            assert alice.marker in response.text, (method, path, response.text[:500])
