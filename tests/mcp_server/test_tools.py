"""Tools run the REST operations in-process: the same answer, the same identity rules."""

from __future__ import annotations

import re

import jsonschema
import pytest

from mcp_server import tools
from memory import services

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

ITEMS = [
    {"message_id": "a1", "ts": "2026-01-05T10:00:00+08:00", "role": "user",
     "content": "我不吃辣，但是很喜欢火锅。", "chat_id": "c1"},
    {"message_id": "a2", "ts": "2026-01-05T10:01:00+08:00", "role": "assistant",
     "content": "那可以点鸳鸯锅，清汤那边不辣。", "chat_id": "c1"},
]  # fmt: skip


@pytest.fixture
def alice_memory(user, django_capture_on_commit_callbacks):
    """Alice's two messages in chat c1 (embedded inline) and one preference."""
    with django_capture_on_commit_callbacks(execute=True):
        services.messages_write(user=user, items=ITEMS)
    services.preference_upsert(user=user, category="food", value="不吃辣")
    services.context_create(owner=user, title="旅行", entry="下个月去成都", agent_name="planner")
    return user


@pytest.mark.parametrize(
    ("tool", "arguments", "path"),
    [
        ("readRange", {"chat_id": "c1"}, "/v1/users/alice/messages?chat_id=c1"),
        ("listPreferences", {}, "/v1/users/alice/preferences"),
        ("listContexts", {}, "/v1/contexts"),
        ("getNeighbors", {"message_id": "a1"}, "/v1/users/alice/messages/a1/neighbors"),
    ],
)
def test_a_read_tool_answers_what_its_endpoint_answers(
    in_test_transaction, alice_memory, api_client, tool, arguments, path
):
    ok, data = tools.run(tool, alice_memory, arguments)
    assert ok
    assert data == api_client.get(path).json()


def test_a_search_tool_answers_what_its_endpoint_answers(
    in_test_transaction, alice_memory, api_client
):
    body = {"user_id": "alice", "query_text": "火锅", "top_k": 5}
    ok, data = tools.run("searchMemoryHybrid", alice_memory, {"query_text": "火锅", "top_k": 5})
    assert ok
    assert data == api_client.post("/v1/messages/hybrid_search", body, format="json").json()


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("searchMemoryHybrid", {"query_text": "火锅"}),
        ("searchMemoryLexical", {"query_text": "火锅"}),
        ("getChatContext", {"chat_id": "c1"}),
        ("readRange", {}),
        ("listContexts", {}),
        ("exploreNearby", {"semanticQuery": "火锅"}),
    ],
)
def test_an_answer_matches_the_tools_output_schema(
    in_test_transaction, alice_memory, tool, arguments
):
    ok, data = tools.run(tool, alice_memory, arguments)
    assert ok
    jsonschema.validate(data, tools.output_schema(tool))


def test_a_normal_token_naming_another_user_is_not_found(in_test_transaction, user, other_user):
    ok, data = tools.run("exploreNearby", user, {"user_id": "bob", "semanticQuery": "火锅"})
    assert not ok
    assert data["error"]["code"] == "NOT_FOUND"


def test_a_staff_token_acts_for_the_named_user(in_test_transaction, staff_user, alice_memory):
    ok, data = tools.run("listPreferences", staff_user, {"user_id": "alice"})
    assert ok
    assert [p["value"] for p in data["items"]] == ["不吃辣"]


@pytest.mark.parametrize("value", [None, "", True, 1.5, ["a1"], {"id": "a1"}])
def test_a_path_argument_must_be_a_scalar(in_test_transaction, user, value):
    ok, data = tools.run("getNeighbors", user, {"message_id": value})
    assert not ok
    assert data["error"] == {
        "code": "INVALID_ARGUMENT",
        "message": "message_id must be a non-empty string or an integer.",
        "details": {"field": "message_id"},
    }


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("readRange", {"chat": "c1"}),  # a GET tool: the argument would have been dropped
        ("searchMemoryHybrid", {"query_text": "火锅", "topk": 5}),
    ],
    ids=["query-tool", "body-tool"],
)
def test_an_argument_the_tool_does_not_take_is_refused(in_test_transaction, user, tool, arguments):
    ok, data = tools.run(tool, user, arguments)
    assert not ok
    assert data["error"]["code"] == "INVALID_ARGUMENT"
    assert data["error"]["details"] == {
        "fields": [next(k for k in arguments if k not in ("query_text",))]
    }
    with pytest.raises(jsonschema.ValidationError):  # the schema says so before the call
        jsonschema.validate(arguments, tools.input_schema(tool))


# --- Errors in the caller's language (mcp_server/language.py) --------------------------------

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("五一去哪里玩", "未知参数：topk；请查看该工具的输入模式。"),
        ("where did we go", "Unknown arguments: topk; see the tool's input schema."),
    ],
    ids=["zh", "en"],
)
def test_a_tool_error_is_in_the_language_of_the_arguments(
    in_test_transaction, user, query, expected
):
    ok, data = tools.run("searchMemoryHybrid", user, {"query_text": query, "topk": 5})
    assert not ok
    assert data["error"]["message"] == expected


@pytest.mark.parametrize(("query", "chinese"), [("五一去哪里玩", True), ("where did we go", False)])
def test_the_rest_operations_error_is_in_that_language_too(
    in_test_transaction, user, query, chinese
):
    ok, data = tools.run("searchMemoryHybrid", user, {"query_text": query, "top_k": "many"})
    assert not ok
    assert data["error"]["details"]["field"] == "top_k"
    assert bool(HAN.search(data["error"]["message"])) is chinese, data


def test_an_explicit_language_wins_over_the_arguments(in_test_transaction, user):
    ok, data = tools.run("readRange", user, {"chat": "五一去哪里玩"}, language="en")
    assert data["error"]["message"].startswith("Unknown arguments: chat;")


@pytest.mark.parametrize(("language", "label"), [("en", "food"), ("zh-hans", "饮食")])
def test_a_tool_answers_in_the_clients_language(in_test_transaction, user, language, label):
    from memory.services import preference_upsert

    preference_upsert(user=user, category="food", value="no spicy food")

    ok, data = tools.run("listPreferences", user, {}, language=language)

    assert ok, data
    [item] = data["items"]
    assert (item["value"], item["category_label"]) == ("no spicy food", label)
