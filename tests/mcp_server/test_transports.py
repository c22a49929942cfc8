"""End to end: the SDK's own client against ``manage.py mcp`` over stdio and streamable HTTP.

Every test runs once per transport (``mcp_target``): a stdio subprocess started by the client,
then the real HTTP server process with ``Authorization: Bearer``.
"""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest
from mcp.shared.exceptions import MCPError

from mcp_server.tools import TOOLS
from tests.mcp_server.conftest import run_with_client
from tests.platform.live_service import ROOT

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock


def _ids(result) -> set[str]:
    return {item["message_id"] for item in result.structured_content.get("items", [])}


def test_list_tools_lists_every_tool_with_an_optional_user_id(mcp_target, mcp_service):
    async def session(client):
        return (await client.list_tools()).tools

    listed = run_with_client(mcp_target, mcp_service.tokens["alice"], session)
    assert {t.name for t in listed} == {spec.name for spec in TOOLS}
    for tool in listed:
        assert "user_id" in tool.input_schema["properties"], tool.name
        assert "user_id" not in tool.input_schema.get("required", []), tool.name


def test_a_handshake_era_client_lists_and_calls_tools(mcp_target, mcp_service):
    async def session(client):
        listed = (await client.list_tools()).tools
        prefs = await client.call_tool("listPreferences", {})
        return client.session.protocol_version, listed, prefs

    version, listed, prefs = run_with_client(
        mcp_target, mcp_service.tokens["alice"], session, mode="legacy"
    )
    assert version < "2026"  # the initialize handshake's era
    assert len(listed) == len(TOOLS)
    assert {p["category"] for p in prefs.structured_content["items"]} >= {"food"}


def test_every_tool_answers_with_citable_ids(mcp_target, mcp_service):
    ctx = mcp_service.ids["alice_ctx"]
    calls = {
        "searchMemoryLexical": {"query_text": "火锅"},
        "searchMemorySemantic": {"query_text": "火锅", "min_score": -1},
        "searchMemoryHybrid": {"query_text": "火锅"},
        "getNeighbors": {"message_id": "a2", "before": 1, "after": 1},
        "readRange": {"chat_id": "c1"},
        "getChatContext": {"chat_id": "c1"},
        "listContexts": {},
        "fetchContext": {"context_id": ctx},
        "updateContext": {"context_id": ctx, "agent_name": "mcp-test", "content": "day 2"},
        "createContext": {"title": "new", "entry": "first", "agent_name": "mcp-test"},
        "listPreferences": {},
        "upsertPreference": {"category": "drink", "value": "tea"},
        "exploreNearby": {"semanticQuery": "玩水", "limit": 3},
    }
    assert set(calls) == {spec.name for spec in TOOLS}

    async def session(client):
        return {name: await client.call_tool(name, args) for name, args in calls.items()}

    results = run_with_client(mcp_target, mcp_service.tokens["alice"], session)
    failed = {n: r.structured_content for n, r in results.items() if r.is_error}
    assert not failed
    assert "a1" in _ids(results["searchMemoryLexical"])
    assert _ids(results["searchMemorySemantic"]) <= {"a1", "a2", "a3"}
    assert "a1" in _ids(results["searchMemoryHybrid"])
    assert _ids(results["getNeighbors"]) == {"a1", "a2", "a3"}
    assert _ids(results["readRange"]) == {"a1", "a2", "a3"}
    assert {m["message_id"] for m in results["getChatContext"].structured_content["messages"]}
    listed = {c["id"] for c in results["listContexts"].structured_content["items"]}
    assert ctx in listed
    assert mcp_service.ids["bob_ctx"] not in listed
    assert results["fetchContext"].structured_content["id"] == ctx
    entries = results["updateContext"].structured_content["entries"]
    assert entries[-1]["content"] == "day 2"
    assert results["createContext"].structured_content["title"] == "new"
    prefs = results["listPreferences"].structured_content["items"]
    assert {p["category"] for p in prefs} >= {"food"}
    assert results["upsertPreference"].structured_content["value"] == "tea"
    assert "results" in results["exploreNearby"].structured_content
    source = results["searchMemoryHybrid"].meta["source"]
    assert source["operation_id"] == "memory_hybrid_search"


def test_bad_arguments_are_tool_errors_and_the_session_goes_on(mcp_target, mcp_service):
    async def session(client):
        bad_type = await client.call_tool("searchMemoryHybrid", {"query_text": "x", "top_k": "x"})
        missing = await client.call_tool("getNeighbors", {})
        nested = await client.call_tool("fetchContext", {"context_id": {"a": [1]}})
        after = await client.call_tool("listPreferences", {})
        return bad_type, missing, nested, after

    bad_type, missing, nested, after = run_with_client(
        mcp_target, mcp_service.tokens["alice"], session
    )
    for result in (bad_type, missing, nested):
        assert result.is_error
        assert result.structured_content["error"]["code"] == "INVALID_ARGUMENT"
    assert "top_k" in bad_type.structured_content["error"]["details"]["fields"]
    assert not after.is_error


def test_an_unknown_tool_is_a_protocol_error(mcp_target, mcp_service):
    async def session(client):
        with pytest.raises(MCPError) as caught:
            await client.call_tool("dropTables", {})
        return caught.value

    error = run_with_client(mcp_target, mcp_service.tokens["alice"], session)
    assert "Unknown tool" in str(error)


def test_naming_another_user_gets_nothing_of_theirs(mcp_target, mcp_service):
    bob_ctx = mcp_service.ids["bob_ctx"]

    async def session(client):
        named = {
            "listPreferences": await client.call_tool("listPreferences", {"user_id": "bob"}),
            "readRange": await client.call_tool("readRange", {"user_id": "bob"}),
            "searchMemoryHybrid": await client.call_tool(
                "searchMemoryHybrid", {"user_id": "bob", "query_text": "火锅"}
            ),
            "fetchContext": await client.call_tool(
                "fetchContext", {"user_id": "bob", "context_id": bob_ctx}
            ),
            "upsertPreference": await client.call_tool(
                "upsertPreference", {"user_id": "bob", "category": "x", "value": "y"}
            ),
        }
        own_ctx = await client.call_tool("fetchContext", {"context_id": bob_ctx})
        own = await client.call_tool("searchMemoryHybrid", {"query_text": "鲍勃的秘密 潜水"})
        return named, own_ctx, own

    named, own_ctx, own = run_with_client(mcp_target, mcp_service.tokens["alice"], session)
    for name, result in named.items():
        assert result.is_error, name
        assert result.structured_content["error"]["code"] == "NOT_FOUND", name
        assert "bob-only" not in result.content[0].text
    assert own_ctx.is_error
    assert "b1" not in _ids(own)


def test_a_staff_token_may_name_a_user(mcp_target, mcp_service):
    bob_ctx = mcp_service.ids["bob_ctx"]

    async def session(client):
        prefs = await client.call_tool("listPreferences", {"user_id": "bob"})
        ctx = await client.call_tool("fetchContext", {"user_id": "bob", "context_id": bob_ctx})
        hits = await client.call_tool(
            "searchMemoryLexical", {"user_id": "bob", "query_text": "火锅"}
        )
        return prefs, ctx, hits

    prefs, ctx, hits = run_with_client(mcp_target, mcp_service.tokens["svc"], session)
    assert [p["value"] for p in prefs.structured_content["items"]] == ["bob-only"]
    assert ctx.structured_content["title"] == "bob plan"
    assert _ids(hits) == {"b1"}


@pytest.mark.parametrize("header", [None, "Bearer not-a-token", "Token not-a-token"])
def test_http_refuses_a_request_without_a_valid_bearer_token(mcp_http, header):
    headers = {"Accept": "application/json, text/event-stream"}
    if header:
        headers["Authorization"] = header
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    response = httpx.post(mcp_http.url, json=body, headers=headers, timeout=60)
    assert response.status_code == 401


def test_stdio_refuses_an_unknown_token(mcp_service):
    result = subprocess.run(
        [sys.executable, "manage.py", "mcp"],
        cwd=ROOT,
        env={**mcp_service.env(), "MCP_TOKEN": "not-a-token"},
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode != 0
    assert "not valid" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("accept_language", "query", "expected"),
    [
        ("zh-Hans", "where did we go", "未知参数：topk；请查看该工具的输入模式。"),
        ("en", "五一去哪里玩", "Unknown arguments: topk; see the tool's input schema."),
        (None, "五一去哪里玩", "未知参数：topk；请查看该工具的输入模式。"),
    ],
    ids=["zh-header", "en-header", "zh-arguments"],
)
def test_over_http_a_tool_error_follows_the_requests_accept_language(
    mcp_http, mcp_service, accept_language, query, expected
):
    async def session(client):
        return await client.call_tool("searchMemoryHybrid", {"query_text": query, "topk": 5})

    headers = {"Accept-Language": accept_language} if accept_language else {}
    result = run_with_client(mcp_http, mcp_service.tokens["alice"], session, headers=headers)
    assert result.is_error
    assert result.structured_content["error"]["message"] == expected


def test_an_unknown_tool_is_named_in_the_callers_language(mcp_http, mcp_service):
    async def session(client):
        with pytest.raises(MCPError) as caught:
            await client.call_tool("dropTables", {"reason": "删除所有表"})
        return caught.value

    error = run_with_client(mcp_http, mcp_service.tokens["alice"], session)
    assert "未知工具：dropTables" in str(error)
