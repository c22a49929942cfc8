"""The OpenAPI schema validates and the docs pages are served without a CDN."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from tests.testapp.server import manage

DOC_PAGES = ["/api/docs/", "/api/redoc/"]


@pytest.mark.slow
@pytest.mark.django_db
def test_spectacular_validate_fail_on_warn_passes():
    # Against the test database (migrated); the schema itself needs no rows.
    from django.db import connection

    result = manage(connection.settings_dict["NAME"], "spectacular", "--validate", "--fail-on-warn")
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("openapi: 3")


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_is_html(anon_client, path):
    response = anon_client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_loads_no_remote_asset(anon_client, path):
    html = anon_client.get(path).content.decode()
    remote = re.findall(r"""(?:src|href)\s*=\s*["'](?:https?:)?//[^"']+""", html)
    assert remote == []
    for cdn in ("cdn.jsdelivr.net", "unpkg.com", "cdnjs"):
        assert cdn not in html


def _assets(html: str) -> list[str]:
    """Return the paths of the scripts, style sheets and icons a page loads."""
    return re.findall(r"""<(?:script|link)[^>]*\s(?:src|href)=["']([^"']+)["']""", html)


def _asset_text(client, path: str) -> str:
    """Return an asset's text: a collected static file from disk, anything else over the app."""
    if path.startswith("/static/"):
        found = finders.find(path.removeprefix("/static/"))
        assert found, path
        with open(found, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    response = client.get(path)
    assert response.status_code == 200, path
    return b"".join(response).decode() if response.streaming else response.content.decode()


# What a browser would fetch from another host: an image, script, style sheet or font by URL,
# a CSS url(), ReDoc's CDN, Google Fonts, Swagger's online validator badge.
REMOTE_LOAD = re.compile(
    r"""src\s*[:=]\s*["'`](?:https?:)?//"""
    r"""|url\(\s*["']?(?:https?:)?//"""
    r"""|cdn\.redoc\.ly|fonts\.googleapis|fonts\.gstatic|cdn\.jsdelivr|unpkg\.com"""
)


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_references_local_files_that_exist(anon_client, path):
    assets = _assets(anon_client.get(path).content.decode())
    assert assets
    for asset in assets:
        assert asset.startswith("/"), asset
        assert _asset_text(anon_client, asset)


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_scripts_and_styles_load_nothing_from_another_host(anon_client, path):
    html = anon_client.get(path).content.decode()
    loaded = {
        asset: REMOTE_LOAD.findall(_asset_text(anon_client, asset)) for asset in _assets(html)
    }
    assert {asset: found for asset, found in loaded.items() if found} == {}


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_allows_only_its_own_origin(anon_client, path):
    policy = anon_client.get(path)["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "http" not in policy


@pytest.mark.django_db
def test_swagger_ui_sends_the_schema_to_no_online_validator(anon_client):
    html = anon_client.get("/api/docs/").content.decode()
    assert re.search(r'"validatorUrl":\s*null', html)


# --- the schema's content: request media types, error responses, event streams ---------------

SCALAR_TYPES = {"string", "integer", "number", "boolean", "null"}


@pytest.fixture(scope="module")
def openapi():
    """The OpenAPI schema the service serves, built in this process."""
    from tests.fuzz.world import load_schema

    return load_schema()


def _operations(openapi):
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            yield f"{method.upper()} {path}", operation


def _resolve(openapi, schema: dict) -> dict:
    while "$ref" in schema:
        schema = openapi["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if len(schema.get("allOf", [])) == 1:
        return _resolve(openapi, schema["allOf"][0])
    return schema


def _is_scalar(openapi, schema: dict) -> bool:
    """Whether a property can be sent as one form field (not an object, list or any JSON)."""
    kinds = _resolve(openapi, schema).get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    return kinds <= SCALAR_TYPES


def _nested_request(openapi, operation) -> bool:
    content = operation.get("requestBody", {}).get("content", {})
    if not content:
        return False
    body = _resolve(openapi, content["application/json"]["schema"])
    return not all(_is_scalar(openapi, p) for p in body.get("properties", {}).values())


def test_operations_with_nested_request_data_offer_json_bodies_only(openapi):
    offending = {
        label: sorted(operation["requestBody"]["content"])
        for label, operation in _operations(openapi)
        if _nested_request(openapi, operation)
        and set(operation["requestBody"]["content"]) != {"application/json"}
    }
    assert offending == {}


def test_the_nested_request_check_sees_nested_bodies(openapi):
    nested = {label for label, op in _operations(openapi) if _nested_request(openapi, op)}
    assert "POST /v1/users/{user_id}/messages" in nested  # items: a list of objects
    assert "POST /api/books/" not in nested  # title only


def _error_statuses(operation) -> set[str]:
    return {
        status
        for status, response in operation["responses"].items()
        if response.get("content", {}).get("application/json", {}).get("schema")
        == {"$ref": "#/components/schemas/Error"}
    }


def test_every_authenticated_operation_documents_its_error_responses(openapi):
    missing = {}
    for label, operation in _operations(openapi):
        if not any(operation.get("security", [])):
            continue
        expected = {"400", "401", "403", "429", "503"}
        if "requestBody" in operation:
            expected |= {"413", "415"}
        if "{" in label:
            expected.add("404")
        if expected - _error_statuses(operation):
            missing[label] = sorted(expected - _error_statuses(operation))
    assert missing == {}


def test_health_documents_unavailable_but_no_authentication_errors(openapi):
    health = openapi["paths"]["/api/health"]["get"]
    assert _error_statuses(health) == {"503"}


def test_the_chat_stream_describes_each_event_and_its_json_payload(openapi):
    responses = openapi["paths"]["/api/agent/chat/stream"]["post"]["responses"]
    stream = responses["200"]["content"]["text/event-stream"]
    event = _resolve(openapi, stream["itemSchema"])
    variants = [_resolve(openapi, v) for v in event["oneOf"]]
    names = {v["properties"]["event"]["const"] for v in variants}
    assert names == {"intent", "tool_call", "tool_result", "delta", "done", "error"}
    for variant in variants:
        data = variant["properties"]["data"]
        assert data["contentMediaType"] == "application/json"
        assert _resolve(openapi, data["contentSchema"])["type"] == "object"
    assert set(responses["400"]["content"]) == {"application/json"}


@pytest.mark.parametrize(
    "operation", ["memory_lexical_search", "memory_semantic_search", "memory_hybrid_search"]
)
def test_the_memory_search_filter_is_a_closed_object_in_the_schema(openapi, operation):
    # A generated client gets typed since/until, and a fuzzer learns extra keys are refused.
    (op,) = (o for _, o in _operations(openapi) if o.get("operationId") == operation)
    body = _resolve(openapi, op["requestBody"]["content"]["application/json"]["schema"])
    (ref,) = (s for s in body["properties"]["filter"]["oneOf"] if "$ref" in s)
    flt = _resolve(openapi, ref)
    assert flt["additionalProperties"] is False
    assert set(flt["properties"]) == {"time_range", "role", "chat_id", "kind"}
    time_range = flt["properties"]["time_range"]
    assert time_range["additionalProperties"] is False
    assert set(time_range["properties"]) == {"since", "until"}


def _objects(openapi, schema: dict, path: str, seen: set):
    """Yield (path, object schema) for the object and every object nested in it."""
    for option in schema.get("oneOf", []) + schema.get("anyOf", []):
        yield from _objects(openapi, option, path, seen)
    if "$ref" in schema:
        if schema["$ref"] in seen:
            return
        seen = seen | {schema["$ref"]}
    schema = _resolve(openapi, schema)
    if "properties" in schema:
        yield path, schema
        for name, prop in schema["properties"].items():
            yield from _objects(openapi, prop, f"{path}.{name}", seen)
    if isinstance(schema.get("items"), dict):
        yield from _objects(openapi, schema["items"], f"{path}[]", seen)


def test_every_request_body_object_refuses_keys_it_does_not_declare(openapi):
    # The server answers an unknown key with 400 (config.fields.ClosedSerializer), so the
    # schema must say so, at every level, or a generated client would not know it.
    open_objects = [
        f"{label} {path}"
        for label, operation in _operations(openapi)
        for media in operation.get("requestBody", {}).get("content", {}).values()
        for path, obj in _objects(openapi, media["schema"], "body", set())
        if obj.get("additionalProperties") is not False
    ]
    assert open_objects == []


def test_the_open_object_check_sees_a_nested_object(openapi):
    (op,) = (o for _, o in _operations(openapi) if o.get("operationId") == "rag_search")
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    paths = {path for path, _ in _objects(openapi, schema, "body", set())}
    assert {"body", "body.filters", "body.filters.location", "body.filters.timeRange"} <= paths


# --- The schema's prose in the reader's language ---------------------------------------------


def _schema_in(client, language: str) -> dict:
    response = client.get("/api/schema/", {"format": "json"}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.json()


@pytest.mark.django_db
def test_the_schema_describes_the_api_and_its_tags_in_the_readers_language(anon_client):
    chinese, english = _schema_in(anon_client, "zh-Hans"), _schema_in(anon_client, "en")
    assert chinese["info"]["description"] == "自然语言搜索与推荐、由小到大的检索、聊天记忆。"
    assert english["info"]["description"].startswith("Natural-language search")
    for zh, en in zip(chinese["tags"], english["tags"], strict=True):
        assert zh["name"] == en["name"]  # names are identifiers, never translated
        # Chinese prose (codes, paths and field names stay as they are) ...
        assert re.search(r"[\u4e00-\u9fff]{4}", zh["description"]), zh
        assert not re.search(r"\b(the|and|with|of)\b", zh["description"]), zh
        # ... and English prose, the same sentences.
        assert re.search(r"\b(the|and|a|or)\b", en["description"]), en
        assert zh["description"] != en["description"]
