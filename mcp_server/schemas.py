"""JSON Schemas of the MCP tools, generated from the REST API's own DRF serializers.

The OpenAPI document drf-spectacular builds from the views' ``@extend_schema`` serializers is
the single source: a tool's input schema is its operation's path and query parameters plus its
request body, and its output schema is the operation's success response. ``$ref``\\ s are
inlined (tool schemas must stand alone) and OpenAPI's ``nullable`` becomes JSON Schema's
``"null"`` type, so a field added to a serializer appears in the REST schema and the MCP tool
at once.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field

from drf_spectacular.generators import SchemaGenerator

_lock = threading.Lock()
_document: dict | None = None
METHODS = ("get", "post", "put", "patch", "delete")


@dataclass
class Operation:
    """One REST operation as the MCP layer needs it."""

    operation_id: str
    method: str  # upper case
    path: str  # OpenAPI template, e.g. /v1/users/{user_id}/messages
    path_params: list[str] = field(default_factory=list)
    query_params: list[str] = field(default_factory=list)
    body_params: list[str] = field(default_factory=list)
    input_schema: dict = field(default_factory=dict)
    output_schema: dict | None = None
    description: str = ""

    @property
    def takes_user_id(self) -> bool:
        return "user_id" in self.path_params + self.query_params + self.body_params


def openapi_document() -> dict:
    """Return the API's OpenAPI document (built once per process, like /api/schema/)."""
    global _document
    with _lock:
        if _document is None:
            _document = SchemaGenerator().get_schema(request=None, public=True)
    return _document


def _resolve(node, components: dict, seen: tuple = ()):
    """Return ``node`` with every ``$ref`` inlined and ``nullable`` turned into ``null``."""
    if isinstance(node, list):
        return [_resolve(item, components, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in seen:  # a recursive component: stop with an open object
            return {"type": "object"}
        target = _resolve(components[name], components, (*seen, name))
        extra = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **_resolve(extra, components, seen)}
        return _nullable(node)
    out = {key: _resolve(value, components, seen) for key, value in node.items()}
    return _nullable(out)


def _nullable(node: dict) -> dict:
    if not node.pop("nullable", False):
        return node
    if isinstance(node.get("type"), str):
        node["type"] = [node["type"], "null"]
        if "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]
        return node
    return {"anyOf": [node, {"type": "null"}]}


def _json_body(content: dict | None) -> dict | None:
    for media, spec in (content or {}).items():
        if media.startswith("application/json"):
            return spec.get("schema")
    return None


def operation(operation_id: str) -> Operation:
    """Return the REST operation ``operation_id`` with its tool input and output schemas."""
    doc = openapi_document()
    components = doc.get("components", {}).get("schemas", {})
    for path, item in doc["paths"].items():
        for method in METHODS:
            spec = item.get(method)
            if spec and spec.get("operationId") == operation_id:
                return _operation(operation_id, method, path, spec, components)
    raise KeyError(f"No REST operation {operation_id!r} in the OpenAPI schema.")


def _operation(operation_id, method, path, spec, components) -> Operation:
    op = Operation(operation_id=operation_id, method=method.upper(), path=path)
    op.description = spec.get("description") or spec.get("summary") or ""
    properties: dict = {}
    required: list[str] = []
    for param in spec.get("parameters", []):
        where = param.get("in")
        if where not in ("path", "query"):
            continue
        name = param["name"]
        schema = _resolve(copy.deepcopy(param.get("schema", {})), components)
        if param.get("description") and "description" not in schema:
            schema["description"] = param["description"]
        properties[name] = schema
        (op.path_params if where == "path" else op.query_params).append(name)
        if param.get("required"):
            required.append(name)
    body = _json_body(spec.get("requestBody", {}).get("content"))
    if body is not None:
        body = _resolve(copy.deepcopy(body), components)
        for name, schema in body.get("properties", {}).items():
            properties[name] = schema
            op.body_params.append(name)
        required.extend(body.get("required", []))
    op.input_schema = {"type": "object", "properties": properties}
    if required:
        op.input_schema["required"] = sorted(set(required))
    for status in ("200", "201"):
        response = spec.get("responses", {}).get(status)
        if response:
            op.output_schema = _json_body(response.get("content"))
            if op.output_schema is not None:
                op.output_schema = _resolve(copy.deepcopy(op.output_schema), components)
            break
    return op
