"""The MCP consumer, over real HTTP: an assistant lists the tools and searches a user's memory.

On the journey service (``manage.py serve``, tests/journeys/conftest.py), plus ``manage.py mcp
--http`` on the same database, as a deployment runs it beside the web server. Ivy's messages are
written through the REST API (a serve worker embeds them); an MCP client with her token lists
the tools and finds them with ``searchMemoryHybrid``, in Chinese and in English; the service's
staff token finds them naming her (``user_id``); Alice's token finds none of them.

Lena tells the agent 我不吃辣 and Mike "I don't eat spicy food": REST and the MCP tool
``listPreferences`` give each preference back in the words it was said in, its category named
in the reader's language (``Accept-Language``).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mcp_server.tools import TOOLS
from tests.journeys.conftest import STAFF
from tests.journeys.test_rest_consumer import (
    MESSAGES,
    SEARCHABLE_WITHIN_SECONDS,
    hybrid_hit,
    write_message,
)
from tests.mcp_server.conftest import HttpServer, run_with_client
from tests.platform.live_service import base_env

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]


@pytest.fixture(scope="module")
def mcp_http(journey_service):
    """``manage.py mcp --http`` on the journey service's database."""
    data_dir = journey_service.db.data_dir
    server = HttpServer(SimpleNamespace(data_dir=data_dir, env=lambda: base_env(data_dir)))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def written(journey_service):
    """Ivy's messages, written through REST; ``{lang: message_id}`` once each is embedded."""
    ids = {}
    for lang, (content, paraphrase) in MESSAGES.items():
        ids[lang] = message_id = write_message(journey_service, "ivy", content)
        journey_service.wait_until(
            lambda q=paraphrase, m=message_id: hybrid_hit(journey_service, "ivy", q, m),
            SEARCHABLE_WITHIN_SECONDS,
            what=f"{message_id} embedded",
        )
    return ids


def found(result) -> set[str]:
    assert not result.is_error, result.structured_content
    return {item["message_id"] for item in result.structured_content.get("items", [])}


def test_an_assistant_lists_the_tools_and_finds_the_users_messages(
    journey_service, mcp_http, written
):
    async def session(client):
        listed = (await client.list_tools()).tools
        hits = {
            lang: await client.call_tool("searchMemoryHybrid", {"query_text": paraphrase})
            for lang, (_, paraphrase) in MESSAGES.items()
        }
        return listed, hits

    listed, hits = run_with_client(mcp_http, journey_service.db.tokens["ivy"], session)
    assert {tool.name for tool in listed} == {spec.name for spec in TOOLS}
    for lang, message_id in written.items():
        assert message_id in found(hits[lang]), lang
        (hit,) = [
            i for i in hits[lang].structured_content["items"] if i["message_id"] == message_id
        ]
        assert hit["content"] == MESSAGES[lang][0]


def test_the_service_token_finds_them_for_the_user_and_no_one_else_does(
    journey_service, mcp_http, written
):
    query = {"query_text": MESSAGES["zh"][1]}

    async def session(client):
        return await client.call_tool("searchMemoryHybrid", query)

    async def as_service(client):
        return await client.call_tool("searchMemoryHybrid", {**query, "user_id": "ivy"})

    tokens = journey_service.db.tokens
    assert written["zh"] in found(run_with_client(mcp_http, tokens[STAFF], as_service))
    assert written["zh"] not in found(run_with_client(mcp_http, tokens["alice"], session))


# Who said what in chat, the value stored, and the category's name for each reader's language.
STATED = {"lena": ("我不吃辣", "不吃辣"), "mike": ("I don't eat spicy food", "no spicy food")}
FOOD = {"en": "food", "zh-hans": "饮食"}


@pytest.fixture(scope="module")
def stated(journey_service):
    for user, (message, _) in STATED.items():
        said = journey_service.post("/api/agent/chat", user, {"message": message})
        assert said.status_code == 200, said.text
    return STATED


@pytest.mark.parametrize("user", list(STATED))
@pytest.mark.parametrize("language", list(FOOD))
def test_a_preference_is_read_back_in_the_users_words_over_rest_and_mcp(
    journey_service, mcp_http, stated, user, language
):
    value = stated[user][1]
    rest = journey_service.get(
        f"/v1/users/{user}/preferences", user, headers={"Accept-Language": language}
    ).json()["items"]

    async def session(client):
        return await client.call_tool("listPreferences", {})

    mcp = run_with_client(
        mcp_http,
        journey_service.db.tokens[user],
        session,
        headers={"Accept-Language": language},
    )
    assert not mcp.is_error, mcp.structured_content
    for items in (rest, mcp.structured_content["items"]):
        assert [(i["category"], i["category_label"], i["value"]) for i in items] == [
            ("food", FOOD[language], value)
        ]
