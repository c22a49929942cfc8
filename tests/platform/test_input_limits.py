"""Every endpoint that takes input refuses bad input at the edge: 400/413, the error shape, no row.

The table below tries 310 bad inputs (``test_the_table_counts_its_bad_inputs`` keeps that number
true): for every endpoint with a JSON body an oversized body, JSON nested 100 deep, ``NaN``, a
NUL and a lone surrogate in its main text field, a key it does not take; for each one its own
out-of-range integers, dates, non-string strings, over-long texts and arrays; NUL in query
strings and path segments. Requests are sent as clients send them: raw JSON text with
``Content-Type: application/json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
import time_machine
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from activities.models import Activity
from memory.services import context_create
from tests.conftest import FIXED_NOW
from tests.platform.test_errors import assert_error_shape
from tests.shared_rows import create_user, module_transaction
from writing.models import Book
from writing.services import chapter_create

pytestmark = pytest.mark.django_db

BODY_LIMIT = 2_621_440
# Built when sent, not when collected: 22 copies of 2.5 MB are not worth keeping around.
OVERSIZED = "@@OVERSIZED@@"
DEEP = "@@DEEP@@"
QUERY_MAX = 2000
HUGE = 1_000_000_000_000
FAR_FUTURE = "9999-12-31T23:59:59-14:00"
ANCIENT = "0149-03-30T10:34:02+08:00"
APPS_WITH_USER_DATA = ("auth", "authtoken", "platform", "activities", "writing", "memory", "agent")


@dataclass(frozen=True)
class Endpoint:
    """One operation: method, path (``{activity}``, ``{book}``, ``{chapter}``, ``{context}``
    are filled from the fixtures), a valid body and the name of its main text field."""

    name: str
    method: str
    path: str
    body: dict = field(default_factory=dict)
    text_field: str = ""
    staff: bool = False
    takes_body: bool = True


LOC = {"lat": 31.23, "lng": 121.47}
ACTIVITY = {
    "title": "周末徒步",
    "description": "一起去爬山",
    "type": "户外",
    "start_at": "2030-05-01T09:00:00+08:00",
    "location": LOC,
    "max_participants": 10,
}
MESSAGE = {"message_id": "m1", "ts": "2024-05-01T12:00:00+08:00", "role": "user", "content": "hi"}

ENDPOINTS = {
    e.name: e
    for e in [
        Endpoint("activity_create", "POST", "/api/activities/", ACTIVITY, "title"),
        Endpoint("activity_update", "PATCH", "/api/activities/{activity}/", {}, "title"),
        Endpoint(
            "activity_update_staff", "PATCH", "/api/activities/{activity}/", {}, "title", True
        ),
        Endpoint("activity_feedback", "POST", "/api/activities/{activity}/feedback/", {}, ""),
        Endpoint(
            # Takes no body, and refuses one with data (config.fields.refuse_body).
            "activity_join",
            "POST",
            "/api/activities/{activity}/join/",
            {},
            "",
        ),
        Endpoint("rag_search", "POST", "/rag/search", {"semanticQuery": "爬山"}, "semanticQuery"),
        Endpoint("book_create", "POST", "/api/books/", {"title": "书"}, "title"),
        Endpoint(
            "chapter_create",
            "POST",
            "/api/chapters/",
            {"book": "{book}", "title": "一", "sequence": 1, "blocks": [{"content": "文"}]},
            "title",
        ),
        Endpoint(
            "chapter_save",
            "PUT",
            "/api/chapters/{chapter}/",
            {"title": "一", "blocks": [{"content": "文"}]},
            "title",
        ),
        Endpoint(
            "chapter_autosave",
            "PATCH",
            "/api/chapters/{chapter}/autosave",
            {"blocks": [{"position": 0, "content": "文"}]},
            "",
        ),
        Endpoint("writing_search", "POST", "/api/writing/search", {"query": "文"}, "query"),
        Endpoint("messages_write", "POST", "/v1/users/alice/messages", {"items": [MESSAGE]}, ""),
        Endpoint(
            "preferences",
            "POST",
            "/v1/users/alice/preferences",
            {"category": "food", "value": "spicy"},
            "value",
        ),
        Endpoint(
            "feedback",
            "POST",
            "/v1/users/alice/feedback",
            {"target_message_id": "m1", "rating": 1},
            "comment",
        ),
        Endpoint(
            "lexical",
            "POST",
            "/v1/messages/lexical_search",
            {"user_id": "alice", "query_text": "火锅"},
            "query_text",
        ),
        Endpoint(
            "semantic",
            "POST",
            "/v1/messages/semantic_search",
            {"user_id": "alice", "query_text": "火锅"},
            "query_text",
        ),
        Endpoint(
            "hybrid",
            "POST",
            "/v1/messages/hybrid_search",
            {"user_id": "alice", "query_text": "火锅"},
            "query_text",
        ),
        Endpoint(
            "context_create",
            "POST",
            "/v1/contexts",
            {"title": "t", "entry": "e", "agent_name": "a"},
            "title",
        ),
        Endpoint(
            "context_append",
            "POST",
            "/v1/contexts/{context}/entries",
            {"agent_name": "a", "content": "c"},
            "content",
        ),
        Endpoint("agent_chat", "POST", "/api/agent/chat", {"message": "你好"}, "message"),
        Endpoint("agent_stream", "POST", "/api/agent/chat/stream", {"message": "你好"}, "message"),
    ]
}


@dataclass(frozen=True)
class Case:
    """One bad input: the endpoint, what changes in its body (or the raw text), the answer."""

    endpoint: str
    label: str
    body: dict | None = None  # merged into the endpoint's valid body
    raw: str | bytes | None = None  # sent as is instead of a body
    path: str | None = None  # replaces the endpoint's path (query strings, path segments)
    method: str | None = None
    status: int = 400
    code: str = "INVALID_ARGUMENT"


def _with(endpoint: Endpoint, key: str, value) -> dict:
    return {**endpoint.body, key: value}


def _raw_text_value(endpoint: Endpoint, key: str, json_escape: str) -> str:
    """Return the endpoint's body as JSON text whose ``key`` holds ``a<escape>b`` verbatim."""
    marker = "@@MARKER@@"
    text = json.dumps({**endpoint.body, key: "a" + marker + "b"}, ensure_ascii=False)
    return text.replace(marker, json_escape)


def _generic_cases() -> list[Case]:
    """Bad bodies every JSON endpoint must refuse, whatever its fields."""
    cases = []
    for name, endpoint in ENDPOINTS.items():
        cases.append(
            Case(name, "body over 2.5 MB", raw=OVERSIZED, status=413, code="PAYLOAD_TOO_LARGE")
        )
        if not endpoint.takes_body:
            continue  # it never reads a body, so only the size (checked first) can be wrong
        cases.append(Case(name, "JSON nested 33 deep", raw="[" * 33 + "]" * 33))
        cases.append(Case(name, "JSON nested 100000 deep", raw=DEEP))
        cases.append(Case(name, "NaN", raw='{"x": NaN}'))
        cases.append(Case(name, "invalid UTF-8", raw=b'{"x": "\xff\xfe"}'))
        key = endpoint.text_field or "note"
        cases.append(Case(name, f"NUL in {key}", raw=_raw_text_value(endpoint, key, "\\u0000")))
        cases.append(
            Case(name, f"lone surrogate in {key}", raw=_raw_text_value(endpoint, key, "\\ud800"))
        )
        cases.append(Case(name, "NUL in a key", raw='{"a\\u0000": 1}'))
        # A misspelt key would otherwise be dropped and the request answered as if unsent.
        cases.append(Case(name, "a key it does not take", body=_with(endpoint, "unknownKey", 1)))
    return cases


def _query_text_cases() -> list[Case]:
    cases = []
    for name in ("rag_search", "writing_search", "lexical", "semantic", "hybrid"):
        key = ENDPOINTS[name].text_field
        endpoint = ENDPOINTS[name]
        cases.append(
            Case(
                name,
                f"{key} of {QUERY_MAX + 1} chars",
                _with(endpoint, key, "搜" * (QUERY_MAX + 1)),
            )
        )
        cases.append(Case(name, f"{key} as a number", _with(endpoint, key, 5)))
    for name in ("agent_chat", "agent_stream"):
        endpoint = ENDPOINTS[name]
        cases.append(
            Case(
                name,
                "message over the query cap",
                _with(endpoint, "message", "话" * (QUERY_MAX + 1)),
            )
        )
        cases.append(Case(name, "message as a number", _with(endpoint, "message", 0)))
        cases.append(Case(name, "NUL in chat_id", _with(endpoint, "chat_id", "a\x00b")))
        cases.append(
            Case(name, "latitude as a string", _with(endpoint, "location", {"lat": "1", "lng": 2}))
        )
    return cases


def _activity_cases() -> list[Case]:
    create = ENDPOINTS["activity_create"]
    cases = [
        Case("activity_create", "title 0", _with(create, "title", 0)),
        Case("activity_create", "title true", _with(create, "title", True)),
        Case("activity_create", "1 MB description", _with(create, "description", "d" * 1_000_000)),
        Case(
            "activity_create",
            "description of 20001 chars",
            _with(create, "description", "d" * 20_001),
        ),
        Case("activity_create", f"start_at {FAR_FUTURE}", _with(create, "start_at", FAR_FUTURE)),
        Case("activity_create", f"start_at {ANCIENT}", _with(create, "start_at", ANCIENT)),
        Case(
            "activity_create",
            "start_at 2100-01-01Z",
            _with(create, "start_at", "2100-01-01T00:00:00Z"),
        ),
        Case(
            "activity_create",
            "start_at 1969-12-31T23:59:59Z",
            _with(create, "start_at", "1969-12-31T23:59:59Z"),
        ),
        Case("activity_create", "start_at as a number", _with(create, "start_at", 1714550400)),
        Case("activity_create", f"end_at {FAR_FUTURE}", _with(create, "end_at", FAR_FUTURE)),
        Case("activity_create", "max_participants 10^12", _with(create, "max_participants", HUGE)),
        Case(
            "activity_create",
            "current_participants 10^12",
            _with(create, "current_participants", HUGE),
        ),
        Case(
            "activity_create",
            "max_participants as a string",
            _with(create, "max_participants", "10"),
        ),
        Case("activity_create", "21 tags", _with(create, "tags", [f"t{i}" for i in range(21)])),
        Case("activity_create", "a tag 0", _with(create, "tags", [0])),
        Case("activity_create", "NUL in a tag", _with(create, "tags", ["a\x00"])),
        Case(
            "activity_create",
            "latitude as a string",
            _with(create, "location", {"lat": "31", "lng": 121}),
        ),
        Case("activity_create", "NUL in location_name", _with(create, "location_name", "a\x00")),
    ]
    for name in ("activity_update", "activity_update_staff"):
        cases += [
            Case(name, f"start_at {ANCIENT}", {"start_at": ANCIENT}),
            Case(name, f"start_at {FAR_FUTURE}", {"start_at": FAR_FUTURE}),
            Case(name, "title 0", {"title": 0}),
            Case(name, "max_participants 10^12", {"max_participants": HUGE}),
            Case(name, "description of 20001 chars", {"description": "d" * 20_001}),
        ]
    cases += [
        Case("activity_feedback", "rating 10^12", {"rating": HUGE}),
        Case("rag_search", "limit 10^12", {"semanticQuery": "a", "limit": HUGE}),
        Case(
            "rag_search",
            f"timeRange.start {FAR_FUTURE}",
            {"filters": {"timeRange": {"start": FAR_FUTURE}}},
        ),
        Case(
            "rag_search", f"timeRange.end {ANCIENT}", {"filters": {"timeRange": {"end": ANCIENT}}}
        ),
        Case("rag_search", "NUL in filters.type", {"filters": {"type": "a\x00"}}),
        Case(
            "rag_search",
            "radius as a string",
            {"filters": {"location": {**LOC, "radiusInKm": "5"}}},
        ),
        Case(
            "activity_create",
            "NUL in a query parameter",
            path="/api/activities/?type=a%00b",
            method="GET",
        ),
        Case(
            "activity_create",
            "offset 10^20",
            path="/api/activities/?offset=100000000000000000000",
            method="GET",
        ),
    ]
    return cases


def _writing_cases() -> list[Case]:
    chapter = ENDPOINTS["chapter_create"]
    save = ENDPOINTS["chapter_save"]
    return [
        Case("book_create", "title 0", {"title": 0}),
        Case("book_create", "title a list", {"title": ["a"]}),
        Case("book_create", "title of 201 chars", {"title": "书" * 201}),
        Case("chapter_create", "sequence 10^12", _with(chapter, "sequence", HUGE)),
        Case("chapter_create", "sequence as a string", _with(chapter, "sequence", "1")),
        Case("chapter_create", "book 10^20", _with(chapter, "book", 10**20)),
        Case("chapter_create", "title 0", _with(chapter, "title", 0)),
        Case("chapter_create", "2001 blocks", _with(chapter, "blocks", [{"content": "a"}] * 2001)),
        Case(
            "chapter_create",
            "a block of 50001 chars",
            _with(chapter, "blocks", [{"content": "a" * 50_001}]),
        ),
        Case("chapter_create", "block content 0", _with(chapter, "blocks", [{"content": 0}])),
        Case("chapter_create", "NUL in a block", _with(chapter, "blocks", [{"content": "a\x00"}])),
        Case("chapter_save", "sequence 10^12", _with(save, "sequence", HUGE)),
        Case("chapter_save", "sequence -10^12", _with(save, "sequence", -HUGE)),
        Case("chapter_save", "2001 blocks", _with(save, "blocks", [{"content": "a"}] * 2001)),
        Case(
            "chapter_autosave", "position 10^12", {"blocks": [{"position": HUGE, "content": "a"}]}
        ),
        Case("chapter_autosave", "id 10^20", {"blocks": [{"id": 10**20, "content": "a"}]}),
        Case("chapter_autosave", "content 0", {"blocks": [{"position": 0, "content": 0}]}),
        Case("writing_search", "201 chapters", {"query": "a", "chapters": list(range(1, 202))}),
        Case("writing_search", "chapter id 10^20", {"query": "a", "chapters": [10**20]}),
        Case("writing_search", "top_k 10^12", {"query": "a", "top_k": HUGE}),
        Case("writing_search", "book 10^20", {"query": "a", "book": 10**20}),
    ]


def _memory_cases() -> list[Case]:
    def items(**change):
        return {"items": [{**MESSAGE, **change}]}

    return [
        Case("messages_write", f"ts {FAR_FUTURE}", items(ts=FAR_FUTURE)),
        Case("messages_write", f"ts {ANCIENT}", items(ts=ANCIENT)),
        Case("messages_write", "ts 2100-01-01Z", items(ts="2100-01-01T00:00:00Z")),
        Case("messages_write", "ts as a number", items(ts=1714550400)),
        Case("messages_write", "NUL in content", items(content="a\x00b")),
        Case("messages_write", "NUL in chat_id", items(chat_id="c\x00")),
        Case("messages_write", "content of 20001 chars", items(content="c" * 20_001)),
        Case("messages_write", "content 0", items(content=0)),
        Case(
            "messages_write",
            "501 items",
            {"items": [{**MESSAGE, "message_id": f"m{i}"} for i in range(501)]},
        ),
        Case("messages_write", "NUL in the path", path="/v1/users/hw%00nul/messages"),
        Case(
            "messages_write",
            "NUL in the path (GET)",
            path="/v1/users/hw%00nul/messages",
            method="GET",
        ),
        Case(
            "messages_write",
            "NUL in chat_id query",
            path="/v1/users/alice/messages?chat_id=a%00",
            method="GET",
        ),
        Case(
            "messages_write",
            "NUL in a query key",
            path="/v1/users/alice/messages?a%00=1",
            method="GET",
        ),
        Case(
            "messages_write",
            f"since {FAR_FUTURE}",
            path="/v1/users/alice/messages?since=9999-12-31T23:59:59-14:00",
            method="GET",
        ),
        Case(
            "messages_write",
            "page_size 10^12",
            path=f"/v1/users/alice/messages?page_size={HUGE}",
            method="GET",
        ),
        Case(
            "messages_write",
            "cursor of 501 chars",
            path="/v1/users/alice/messages?cursor=" + "c" * 501,
            method="GET",
        ),
        Case(
            "messages_write",
            "NUL in a message id path",
            path="/v1/users/alice/messages/a%00/neighbors",
            method="GET",
        ),
        Case(
            "messages_write",
            "before 10^12",
            path=f"/v1/users/alice/messages/m1/neighbors?before={HUGE}",
            method="GET",
        ),
        Case(
            "messages_write",
            "NUL in a chat id path",
            path="/v1/users/alice/chats/a%00/context",
            method="GET",
        ),
        Case(
            "messages_write",
            "budget 10^12",
            path=f"/v1/users/alice/chats/c/context?budget={HUGE}",
            method="GET",
        ),
        Case(
            "messages_write",
            "NUL in the erased user's path",
            path="/v1/users/hw%00nul",
            method="DELETE",
        ),
        Case(
            "messages_write",
            "NUL in the events path",
            path="/v1/users/hw%00nul/events",
            method="GET",
        ),
        Case(
            "messages_write",
            "NUL in events kind",
            path="/v1/users/alice/events?kind=a%00",
            method="GET",
        ),
        Case(
            "messages_write",
            "events limit 10^12",
            path=f"/v1/users/alice/events?limit={HUGE}",
            method="GET",
        ),
        Case("preferences", "category 0", {"category": 0, "value": "v"}),
        Case("preferences", "NUL in the path", path="/v1/users/a%00/preferences"),
        Case("feedback", "target_message_id 0", {"target_message_id": 0, "rating": 1}),
        Case("lexical", "user_id 0", {"user_id": 0, "query_text": "a"}),
        Case(
            "lexical",
            "NUL in filter.chat_id",
            {"user_id": "alice", "query_text": "a", "filter": {"chat_id": "a\x00"}},
        ),
        Case(
            "lexical",
            "filter.chat_id of 201 chars",
            {"user_id": "alice", "query_text": "a", "filter": {"chat_id": "c" * 201}},
        ),
        Case(
            "lexical",
            f"filter since {FAR_FUTURE}",
            {
                "user_id": "alice",
                "query_text": "a",
                "filter": {"time_range": {"since": FAR_FUTURE}},
            },
        ),
        Case(
            "hybrid",
            "filter.time_range with start and end",
            {
                "user_id": "alice",
                "query_text": "a",
                "filter": {"time_range": {"start": FAR_FUTURE, "end": FAR_FUTURE}},
            },
        ),
        Case(
            "semantic",
            "filter.time_range a list",
            {"user_id": "alice", "query_text": "a", "filter": {"time_range": [ANCIENT]}},
        ),
        Case(
            "lexical",
            "21 return_fields",
            {"user_id": "alice", "query_text": "a", "return_fields": ["ts"] * 21},
        ),
        Case(
            "lexical", "page_size 10^12", {"user_id": "alice", "query_text": "a", "page_size": HUGE}
        ),
        Case(
            "lexical",
            "cursor of 501 chars",
            {"user_id": "alice", "query_text": "a", "cursor": "c" * 501},
        ),
        Case(
            "semantic",
            "query_embedding of 8193 numbers",
            {"user_id": "alice", "query_embedding": [0.1] * 8193},
        ),
        Case(
            "semantic",
            "query_embedding of strings",
            {"user_id": "alice", "query_embedding": ["0.1"] * 384},
        ),
        Case("semantic", "top_k 10^12", {"user_id": "alice", "query_text": "a", "top_k": HUGE}),
        Case(
            "semantic",
            f"filter until {ANCIENT}",
            {"user_id": "alice", "query_text": "a", "filter": {"time_range": {"until": ANCIENT}}},
        ),
        Case(
            "hybrid",
            "min_score as a string",
            {"user_id": "alice", "query_text": "a", "min_score": "0.5"},
        ),
        Case("context_create", "title 0", {"title": 0, "entry": "e", "agent_name": "a"}),
        Case(
            "context_create",
            "entry of 20001 chars",
            {"title": "t", "entry": "e" * 20_001, "agent_name": "a"},
        ),
        Case(
            "context_create",
            "NUL in user_id",
            {"user_id": "a\x00", "title": "t", "entry": "e", "agent_name": "a"},
        ),
        Case(
            "context_append", "content of 20001 chars", {"agent_name": "a", "content": "c" * 20_001}
        ),
        Case("context_append", "agent_name 0", {"agent_name": 0, "content": "c"}),
    ]


CASES = (
    _generic_cases() + _query_text_cases() + _activity_cases() + _writing_cases() + _memory_cases()
)


def test_the_table_counts_its_bad_inputs():
    """The module docstring quotes how many bad inputs the table tries (docs quote it too)."""
    assert f"tries {len(CASES)} bad inputs" in __doc__


@pytest.fixture(autouse=True)
def _fresh_throttle_history():
    """Forget throttle history kept in the cache by earlier tests."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="module")
def shared(django_db_setup, django_db_blocker):
    """The users and the rows the paths name, made once for the module (tests/shared_rows.py).

    ``alice`` owns an activity, a book and chapter, a shared context; ``service`` is staff. Each
    test runs in its own savepoint inside the module's transaction: what it writes is rolled
    back after it (``row_counts`` compares within the test), these rows after the module.
    """
    with module_transaction(django_db_blocker):
        with django_db_blocker.unblock(), time_machine.travel(FIXED_NOW, tick=False):
            user = create_user("alice")
            staff_user = create_user("service", staff=True)
            activity = Activity.objects.create(
                title="a",
                type="t",
                start_at=timezone.now() + timedelta(days=3),
                lat=31.0,
                lng=121.0,
                max_participants=5,
                creator=user,
            )
            book = Book.objects.create(owner=user, title="b")
            chapter = chapter_create(
                user=user, book_id=book.pk, title="c", sequence=1, blocks=[{"content": "文"}]
            )
            context = context_create(owner=user, title="t", entry="e", agent_name="a")
        targets = {
            "activity": activity.pk,
            "book": book.pk,
            "chapter": chapter.pk,
            "context": context.pk,
        }
        yield {"user": user, "staff_user": staff_user, "targets": targets}


@pytest.fixture
def user(db, shared):
    """``alice``, the module's normal user (its token in ``api_client``)."""
    return shared["user"]


@pytest.fixture
def staff_user(db, shared):
    """``service``, the module's staff user (its token in ``staff_client``)."""
    return shared["staff_user"]


@pytest.fixture
def targets(db, shared):
    """The ids the paths name: ``alice``'s activity, book, chapter and shared context."""
    return shared["targets"]


def row_counts() -> dict[str, int]:
    """Return the number of rows of every model that holds users' data.

    One query for the 30 tables (``SELECT count(*)`` of each, as ``Model._base_manager.count()``
    counts): it runs twice in each of the table's 300-odd tests.
    """
    models = [
        model
        for model in apps.get_models()
        if model._meta.app_label in APPS_WITH_USER_DATA and not model._meta.proxy
    ]
    quote = connection.ops.quote_name
    counts = ", ".join(f"(SELECT count(*) FROM {quote(m._meta.db_table)})" for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")  # noqa: S608 - table names from the models, quoted
        row = cursor.fetchone()
    return {model._meta.label: count for model, count in zip(models, row, strict=True)}


def _fill(text: str, targets: dict) -> str:
    """Put the fixtures' ids in a path or JSON text (``"{book}"`` becomes a JSON number)."""
    for key, value in targets.items():
        text = text.replace('"{' + key + '}"', str(value)).replace("{" + key + "}", str(value))
    return text


def _request(client, case: Case, targets: dict):
    endpoint = ENDPOINTS[case.endpoint]
    method = case.method or endpoint.method
    path = _fill(case.path or endpoint.path, targets)
    if case.raw == OVERSIZED:
        data = json.dumps({"pad": "x" * (BODY_LIMIT + 1)})
    elif case.raw == DEEP:
        data = "[" * 100_000 + "]" * 100_000
    elif isinstance(case.raw, str):
        data = _fill(case.raw, targets)
    elif case.raw is not None:
        data = case.raw
    elif case.body is not None:
        data = _fill(json.dumps(case.body, ensure_ascii=False), targets)
    else:
        data = _fill(json.dumps(endpoint.body, ensure_ascii=False), targets)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if method == "GET":
        return client.get(path)
    return client.generic(method, path, data=data, content_type="application/json")


VALID_STATUS = {
    "activity_create": 201,
    "activity_update": 200,
    "activity_update_staff": 200,
    "activity_feedback": 400,  # {} has no rating: checked with a rating below
    "activity_join": 201,
    "book_create": 201,
    "chapter_create": 201,
    "chapter_save": 200,
    "chapter_autosave": 200,
    "messages_write": 201,
    "preferences": 201,
    "feedback": 404,  # no message m1 to rate
    "context_create": 201,
    "context_append": 201,
}


@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_the_valid_body_of_each_endpoint_is_accepted(
    name, api_client, staff_client, targets, django_capture_on_commit_callbacks
):
    """Each bad input changes one thing of a body the endpoint accepts, so its 400 is that."""
    endpoint = ENDPOINTS[name]
    client = staff_client if endpoint.staff else api_client
    case = Case(name, "valid")
    response = _request(client, case, targets)
    assert response.status_code == VALID_STATUS.get(name, 200), response.content[:300]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.endpoint}: {c.label}" for c in CASES])
def test_bad_input_answers_400_or_413_and_writes_nothing(
    case, api_client, staff_client, targets, django_capture_on_commit_callbacks
):
    client = staff_client if ENDPOINTS[case.endpoint].staff else api_client
    before = row_counts()
    with django_capture_on_commit_callbacks(execute=True):
        response = _request(client, case, targets)
    assert_error_shape(response, case.status, case.code)
    assert row_counts() == before
