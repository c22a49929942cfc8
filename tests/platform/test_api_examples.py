"""Every operation of the schema explains itself, and every documented example works.

The schema is the one ``GET /api/schema/`` serves (drf-spectacular's generator, with the
post-processing hooks of ``config/api_catalog.py``). Each operation must have a tag of the
documented list, a summary (ReDoc's heading), a description, an example for every path
parameter and at least one example request body when it takes a body.

``test_every_documented_example_succeeds`` then sends every example, in-process, as the
documented user ``alice`` (a normal token) on a database with demo activities, in
:data:`ORDER`: the way a reader of the docs would, creating before reading, updating and
deleting. Integer ids in paths are examples of the form: the test puts in the id the create
operation answered (:data:`CAPTURE`), and in bodies (:data:`BODY_IDS`); string ids
(``user_id``, ``message_id``, ``chat_id``) are the client's own and used as documented. The
one id with no create operation, an event's, comes from a fixture row. Every answer must be 2xx.

Destructive operations: every ``DELETE`` runs after all the reads and updates of what it
deletes. ``DELETE /v1/users/{user_id}`` (erase everything about the user) runs last, as a
throwaway user who first writes the documented messages: ``alice``'s example path with the
throwaway's own name and token, so it erases something and nothing the other examples need.

``test_readme_calls_per_surface_succeed`` sends the REST calls of the README's "One call per
surface" block (their paths and JSON bodies, as ``alice``) the same way.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from urllib.parse import urlencode

import pytest
from rest_framework.test import APIClient

from config.api_catalog import OPERATIONS, USER
from config.api_docs import API_TAGS

HTTP_METHODS = {"get", "put", "post", "delete", "patch"}
FIXTURES = Path(__file__).resolve().parents[2] / "activities" / "fixtures"
DEMO_COUNT = 24  # a subset of the demo activities keeps the test fast

# The order a reader follows; every operation of the schema is in it (checked).
ORDER = [
    "health",
    "rag_search",
    "activities_list",
    "activities_create",
    "activities_retrieve",
    "activities_partial_update",
    "activities_join",
    "activities_feedback",
    "activities_leave",
    "memory_messages_write",
    "memory_messages_list",
    "memory_messages_neighbors",
    "memory_chat_context",
    "memory_lexical_search",
    "memory_semantic_search",
    "memory_hybrid_search",
    "memory_message_update",
    "memory_feedback_create",
    "memory_preferences_upsert",
    "memory_preferences_list",
    "memory_preference_update",
    "feedback_rate",
    "feedback_list",
    "memory_context_create",
    "memory_context_get",
    "memory_contexts_list",
    "memory_context_append",
    "memory_context_entry_update",
    "writing_book_create",
    "writing_book_list",
    "writing_book_get",
    "writing_chapter_create",
    "writing_book_chapter_list",
    "writing_chapter_get",
    "writing_chapter_save",
    "writing_chapter_autosave",
    "writing_search",
    "agent_chat",
    "agent_chat_stream",
    "agent_user_events",
    "agent_user_events_stream",
    "agent_user_event_read",
    "agent_webhooks_create",
    "agent_webhooks_list",
    "agent_webhooks_update",
    "agent_webhook_deliveries",
    "memory_user_export",
    "tokens_create",
    "tokens_list",
    "tokens_rotate",
    # Deletes, after everything that reads what they delete.
    "memory_message_delete",
    "memory_preference_delete",
    "memory_context_entry_delete",
    "writing_chapter_delete",
    "writing_book_delete",
    "activities_destroy",
    "agent_webhooks_delete",
    "tokens_revoke",
    # Last, as a throwaway user: erase everything about the user.
    "memory_user_delete",
]
# The ids an operation's answer gives, for the paths of the later ones: {name: "a.0.b"}.
CAPTURE = {
    "activities_create": {"activity_id": "id"},
    "memory_preferences_upsert": {"preference_id": "id"},
    "memory_context_create": {"context_id": "id", "entry_id": "entries.0.id"},
    "writing_book_create": {"book_id": "id"},
    "writing_chapter_create": {"chapter_id": "id"},
    "agent_webhooks_create": {"webhook_id": "id"},
    "tokens_create": {"token_id": "id"},
}
# Body keys that hold an id of an object made earlier: {operation: {key: id name}}.
BODY_IDS = {"writing_chapter_create": {"book": "book_id"}}
STREAMS = {"agent_chat_stream", "agent_user_events_stream"}
ERASE = "memory_user_delete"


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    """The OpenAPI document the service serves at /api/schema/."""
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema) -> dict[str, tuple[str, str, dict]]:
    """Return ``{operation id: (method, path, operation)}``."""
    found = {}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                found[operation["operationId"]] = (method, path, operation)
    return found


def _json_examples(operation) -> dict:
    content = operation.get("requestBody", {}).get("content", {})
    return content.get("application/json", {}).get("examples", {})


# --- Every operation explains itself ---------------------------------------------------------


def test_order_lists_every_operation_once(schema):
    assert sorted(ORDER) == sorted(_operations(schema)), "add the new operation to ORDER"
    assert sorted(OPERATIONS) == sorted(ORDER), "add the new operation to config/api_catalog.py"


def test_every_tag_has_a_description(schema):
    assert [t["name"] for t in schema["tags"]] == [t["name"] for t in API_TAGS]
    assert all(len(t["description"]) > 40 for t in schema["tags"])


def test_every_operation_has_a_tag_a_summary_and_a_description(schema):
    names = {t["name"] for t in API_TAGS}
    missing = []
    for op_id, (_method, _path, operation) in _operations(schema).items():
        if len(operation.get("tags", [])) != 1 or operation["tags"][0] not in names:
            missing.append(f"{op_id}: tags {operation.get('tags')}")
        summary = operation.get("summary") or ""
        if not summary or summary == op_id or len(summary) > 60:
            missing.append(f"{op_id}: summary {summary!r}")
        if len(operation.get("description") or "") < 15:
            missing.append(f"{op_id}: description {operation.get('description')!r}")
    assert missing == []


def test_every_parameter_in_a_path_and_every_body_has_an_example(schema):
    missing = []
    for op_id, (_method, _path, operation) in _operations(schema).items():
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and "example" not in parameter:
                missing.append(f"{op_id}: {parameter['name']}")
        if "requestBody" in operation and not _json_examples(operation):
            missing.append(f"{op_id}: request body")
    assert missing == []


def test_path_examples_name_the_documented_user(schema):
    for op_id, (_method, _path, operation) in _operations(schema).items():
        for parameter in operation.get("parameters", []):
            if parameter["name"] == "user_id" and parameter["in"] == "path":
                assert parameter["example"] == USER, op_id


# --- Every example works -----------------------------------------------------------------


@pytest.fixture
def no_dns(monkeypatch):
    """Webhook deliveries fail at the name lookup: the example's receiver is not contacted."""
    from agent import webhook_targets

    def refuse(host, port):
        raise socket.gaierror(socket.EAI_NONAME, "no lookups in this test")

    monkeypatch.setattr(webhook_targets, "resolve", refuse)


@pytest.fixture
def alice(make_user):
    return make_user(USER)


@pytest.fixture
def demo_loaded(db, make_user):
    """The first demo activities, saved and embedded (created by the demo user)."""
    from activities.demo import load_demo_activities

    items = json.loads((FIXTURES / "demo_activities.json").read_text(encoding="utf-8"))
    created, totals = load_demo_activities(items[:DEMO_COUNT], creator=make_user("demo"))
    assert totals.errors == 0
    return created


@pytest.fixture
def alice_event(alice):
    """A proactive event of alice's (no operation creates one: the triggers do)."""
    from agent.models import EventKind, SystemEvent

    return SystemEvent.objects.create(
        user=alice,
        kind=EventKind.DAILY_DIGEST,
        period_key="2026-11-25",
        payload={"title": "今日推荐", "items": []},
    )


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.api_key}")
    return client


def _dig(body, dotted: str):
    for key in dotted.split("."):
        body = body[int(key)] if isinstance(body, list) else body[key]
    return body


def example_path(path: str, operation: dict, *, ids: dict) -> str:
    """Return ``path`` with its documented path parameters (or ``ids``) and query examples."""
    query = {}
    for parameter in operation.get("parameters", []):
        name = parameter["name"]
        if parameter["in"] == "path":
            value = ids.get(name, parameter["example"])
            path = path.replace("{" + name + "}", str(value))
        elif parameter["in"] == "query" and "example" in parameter:
            value = parameter["example"]
            query[name] = str(value).lower() if isinstance(value, bool) else value
    return f"{path}?{urlencode(query)}" if query else path


def _send(client, method, path, operation, *, ids, body=None):
    """Send one documented request; return ``(status, text, response)``."""
    path = example_path(path, operation, ids=ids)
    headers = {}
    if operation["operationId"] in STREAMS:
        headers["HTTP_ACCEPT"] = "text/event-stream"
    kwargs = {"format": "json"} if body is not None else {}
    response = getattr(client, method)(path, body, **kwargs, **headers)
    text = (
        b"".join(response.streaming_content).decode()
        if response.streaming
        else response.content.decode()
    )
    return response.status_code, text, response


@pytest.mark.slow
@pytest.mark.django_db
def test_every_documented_example_succeeds(
    schema,
    alice,
    make_user,
    demo_loaded,
    alice_event,
    no_dns,
    django_capture_on_commit_callbacks,
):
    operations = _operations(schema)
    client = _client(alice)
    ids: dict = {"event_id": alice_event.pk}
    failures, sent = [], 0
    for op_id in ORDER:
        method, path, operation = operations[op_id]
        examples = _json_examples(operation) or {"no body": {"value": None}}
        user_client, op_ids = client, ids
        if op_id == ERASE:
            throwaway = make_user("throwaway")
            user_client, op_ids = _client(throwaway), {"user_id": throwaway.username}
            write = operations["memory_messages_write"]
            written = 0
            for example in _json_examples(write[2]).values():
                status, text, _ = _send(
                    user_client, *write[:2], write[2], ids=op_ids, body=example["value"]
                )
                assert status in (200, 201), text
                written += len(example["value"]["items"])
        for name, example in examples.items():
            body = example["value"]
            if body is not None and op_id in BODY_IDS:
                body = {**body, **{k: ids[v] for k, v in BODY_IDS[op_id].items()}}
            with django_capture_on_commit_callbacks(execute=True):
                status, text, response = _send(
                    user_client, method, path, operation, ids=op_ids, body=body
                )
            sent += 1
            if op_id in STREAMS and "event: error" in text:  # failed after the stream began
                status = 500
            if not 200 <= status < 300:
                failures.append(f"{op_id} [{name}] {method.upper()} {path}: {status} {text[:300]}")
                continue
            for id_name, dotted in CAPTURE.get(op_id, {}).items():
                ids[id_name] = _dig(response.json(), dotted)
        if op_id == ERASE:
            assert json.loads(text)["deleted"]["messages"] == written
    assert failures == []
    assert sent >= len(ORDER)


# --- The README's calls work too ---------------------------------------------------------------

README = Path(__file__).resolve().parents[2] / "README.md"
CURL = re.compile(
    r"curl .*?-d '(?P<body>.*?)'.*?http://127\.0\.0\.1:(?P<port>\d+)(?P<path>\S+)", re.S
)


def _readme_calls() -> list[tuple[str, dict]]:
    """Return the ``(path, body)`` of each REST call in the README's "One call per surface"."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## One call per surface", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    calls = []
    for match in CURL.finditer(block):
        if match["port"] == "8000":
            calls.append((match["path"], json.loads(match["body"])))
    return calls


def test_readme_calls_per_surface_succeed(alice, demo_loaded, no_dns):
    calls = _readme_calls()
    assert [path for path, _ in calls] == [
        "/rag/search",
        "/v1/users/alice/messages",
        "/v1/messages/hybrid_search",
        "/api/writing/search",
        "/api/agent/chat",
    ]
    client = _client(alice)
    for path, body in calls:
        response = client.post(path, body, format="json")
        assert 200 <= response.status_code < 300, (path, response.content.decode()[:300])
