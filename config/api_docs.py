"""The API documentation: pages served from local static files, and schema helpers.

drf-spectacular's ReDoc page links Google Fonts in its ``<head>``, and ReDoc's bundle shows a
logo from its CDN: :class:`LocalRedocView` renders the page with a head that loads nothing remote
and a copy of the sidecar bundle without that logo (:func:`redoc_bundle`). Both documentation
pages send a Content-Security-Policy that allows this origin only.

:func:`event_stream` describes a server-sent-event response; :func:`postprocess_schema`
(a ``POSTPROCESSING_HOOKS`` entry) puts it where OpenAPI 3.2 expects it and documents the
error responses every operation can give; :func:`document_operations` (another) applies the
tags of :data:`API_TAGS` and the catalogue of config/api_catalog.py to every operation.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template import engines
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView
from rest_framework import serializers
from rest_framework.renderers import TemplateHTMLRenderer

from config.api_catalog import (
    ACCOUNT,
    ACTIVITIES,
    AGENT,
    HEALTH,
    MEMORY,
    OPERATIONS,
    WEBHOOKS,
    WRITING,
)

REDOC_TEMPLATE = """{% extends "drf_spectacular/redoc.html" %}
{% block head %}
<title>{{ title|default:"Redoc" }}</title>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { margin: 0; padding: 0; }</style>
{% endblock head %}
"""


class LocalTemplateRenderer(TemplateHTMLRenderer):
    """Render the ReDoc page from :data:`REDOC_TEMPLATE` instead of a template file."""

    def resolve_template(self, template_names):
        return engines["django"].from_string(REDOC_TEMPLATE)


# What the documentation pages may load: this origin only (inline scripts and styles are
# how ReDoc and Swagger UI start; ReDoc's search runs in a blob: worker).
DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:"
)
# ReDoc's bundle shows a logo from its CDN in the side bar ("API docs by Redocly").
REDOC_REMOTE_ASSET = re.compile(r"https://cdn\.redoc\.ly/[^\"'`\s]*")
# A one-pixel transparent image in its place (the link to Redocly stays, as text).
BLANK_IMAGE = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="


class DocsPageMixin:
    """Tell the browser that a documentation page loads nothing from another host."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Security-Policy"] = DOCS_CONTENT_SECURITY_POLICY
        return response


class LocalRedocView(DocsPageMixin, SpectacularRedocView):
    """ReDoc without remote fonts or images (offline deployments, no third-party requests)."""

    renderer_classes = [LocalTemplateRenderer]

    @staticmethod
    def _redoc_standalone():
        return reverse("redoc-bundle")


class LocalSwaggerView(DocsPageMixin, SpectacularSwaggerView):
    """Swagger UI from the sidecar's static files (no validator badge: SWAGGER_UI_SETTINGS)."""


@lru_cache(maxsize=1)
def _redoc_bundle() -> bytes:
    path = finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
    with open(path, encoding="utf-8") as fh:
        return REDOC_REMOTE_ASSET.sub(BLANK_IMAGE, fh.read()).encode("utf-8")


@require_GET
def redoc_bundle(request):
    """Serve the sidecar's ReDoc bundle with its CDN logo replaced by a local blank image."""
    response = HttpResponse(_redoc_bundle(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


# --- Server-sent events in the schema --------------------------------------------------------


class EventNameField(serializers.Field):
    """The ``event:`` line of one server-sent event (documentation only)."""

    def __init__(self, name: str, **kwargs):
        self.event_name = name
        super().__init__(**kwargs)

    def to_representation(self, value):
        return self.event_name


class EventDataField(serializers.Field):
    """The ``data:`` line of one server-sent event: JSON described by ``payload`` (docs only)."""

    def __init__(self, payload, **kwargs):
        self.payload = payload
        super().__init__(**kwargs)

    def to_representation(self, value):
        return json.dumps(value, ensure_ascii=False, default=str)


class EventNameFieldExtension(OpenApiSerializerFieldExtension):
    target_class = EventNameField

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "const": self.target.event_name}


class EventDataFieldExtension(OpenApiSerializerFieldExtension):
    target_class = EventDataField

    def map_serializer_field(self, auto_schema, direction):
        component = auto_schema.resolve_serializer(self.target.payload, direction)
        return {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": component.ref,
        }


def event_stream(component_name: str, events: dict) -> PolymorphicProxySerializer:
    """Return the schema of one event of a stream: ``{event: <name>, data: <JSON payload>}``.

    ``events`` maps each event name to the serializer of its JSON payload. In the schema the
    stream's ``text/event-stream`` response gets this as its ``itemSchema`` (OpenAPI 3.2: each
    item of a sequential media type), in the same form schemathesis and other SSE-aware tools
    parse a stream: ``event`` and ``data`` as strings, ``data`` holding JSON.
    """
    serializers_by_name = {}
    for name, payload in events.items():
        class_name = component_name + "".join(
            part[:1].upper() + part[1:] for part in name.split("_")
        )
        serializers_by_name[name] = type(
            f"{class_name}Serializer",
            (serializers.Serializer,),
            {
                "event": EventNameField(name),
                "data": EventDataField(payload),
                "__module__": __name__,
                "__doc__": f"The `{name}` event of {component_name}.",
            },
        )
    return PolymorphicProxySerializer(
        component_name=component_name,
        serializers=serializers_by_name,
        resource_type_field_name="event",
    )


# --- Post-processing: event streams and the error responses of every operation ---------------

ERROR_REF = {"$ref": "#/components/schemas/Error"}
ERROR_DESCRIPTIONS = {
    "400": "Invalid request (INVALID_ARGUMENT).",
    "401": "No or invalid credentials (UNAUTHENTICATED).",
    "403": "Not allowed (PERMISSION_DENIED).",
    "404": "No such object, or not yours (NOT_FOUND).",
    "413": "The request body is too large.",
    "415": "The request body's media type is not accepted here (UNSUPPORTED_MEDIA_TYPE).",
    "429": "Too many requests; see Retry-After (RATE_LIMITED).",
    "503": "A dependency (the database) is unavailable; retry later (UNAVAILABLE).",
}
# OpenAPI 3.2 sequential media types: the schema describes each item of the stream.
SEQUENTIAL_MEDIA_TYPES = ("text/event-stream", "application/x-ndjson", "application/jsonl")
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace", "query"}


def default_error_codes(operation: dict) -> list[str]:
    """Return the error statuses any operation like ``operation`` can answer."""
    # An operation open to everybody (health: security [{}]) is neither authenticated nor throttled.
    secured = any(operation.get("security") or [])
    codes = ["503"]
    if secured:
        codes += ["400", "401", "403", "429"]
    if any(p.get("in") == "path" for p in operation.get("parameters", [])):
        codes.append("404")
    if "requestBody" in operation:
        codes += ["400", "413", "415"]
    return sorted(set(codes))


def postprocess_schema(result, generator, request, public):
    """Move event-stream schemas to ``itemSchema``; document the error responses of each operation.

    Every operation answers errors in the one error shape: the statuses a view documents
    itself keep their description, the ones any operation can give (authentication,
    throttling, an oversized body, the database down) are added here.
    """
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in HTTP_METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for response in responses.values():
                for media_type, content in response.get("content", {}).items():
                    if media_type.startswith(SEQUENTIAL_MEDIA_TYPES) and "schema" in content:
                        content["itemSchema"] = content.pop("schema")
            for code in default_error_codes(operation):
                responses.setdefault(
                    code,
                    {
                        "content": {"application/json": {"schema": dict(ERROR_REF)}},
                        "description": ERROR_DESCRIPTIONS[code],
                    },
                )
            operation["responses"] = dict(sorted(responses.items()))
    return result


# --- Post-processing: each operation's tag, summary, description and examples --------------

# The headings of ReDoc and Swagger UI, in this order.
API_TAGS = [
    {
        "name": ACTIVITIES,
        "description": _(
            "Activity listings and natural-language search over them "
            "(`POST /rag/search`: 玩水, 适合社恐的活动, 周五晚上热闹的地方), with hard filters, "
            "personalisation and a reason for every result. Anybody may read active activities; "
            "only the creator (or staff) may change or delete one. `POST /rag/search` is the one "
            "operation whose JSON is camelCase."
        ),
    },
    {
        "name": MEMORY,
        "description": _(
            "A chat-message store an agent writes to and queries by time, keyword, "
            "meaning or both, with preferences, feedback and shared contexts. `user_id` is the "
            "user's username: a normal token may name only itself (anybody else answers 404), a "
            "staff token any user. Message and chat ids are the client's own (1-100 characters of "
            "`A-Z a-z 0-9 _ . : -` for `message_id`)."
        ),
    },
    {
        "name": WRITING,
        "description": _(
            "Books and chapters of long prose; chapters are chunked in the "
            "background into parents and small children (`chunk_state` says when a chapter is "
            "searchable), and search returns a window of the parent around the best small match. "
            "Another user's book or chapter answers 404."
        ),
    },
    {
        "name": AGENT,
        "description": _(
            "The intent-routed chat agent (one turn as JSON or as server-sent "
            "events) and the proactive events its triggers write for a user (daily digest, "
            "interest spike, deadline reminder, activity reminder)."
        ),
    },
    {
        "name": WEBHOOKS,
        "description": _(
            "Push a user's proactive events to a server: HMAC-signed POSTs, "
            "retried with backoff, disabled after repeated failures. The secret is shown once, "
            "at creation."
        ),
    },
    {
        "name": ACCOUNT,
        "description": _(
            "Everything the service holds about a user: export it as JSON Lines, "
            "or erase it in every app. The caller's own API tokens: issue (the key is shown once), "
            "list by prefix, rotate, revoke."
        ),
    },
    {
        "name": HEALTH,
        "description": _(
            "Whether the service can work (database, workers, embedding provider); no token needed."
        ),
    },
]


def document_operations(result, generator, request, public):
    """Apply :data:`OPERATIONS` and :data:`API_TAGS` to the schema (a post-processing hook).

    A summary or description the view gives itself is kept; the tag always comes from here,
    so ReDoc and Swagger UI group every operation under one of :data:`API_TAGS`. An
    operation missing from the table keeps what drf-spectacular made (the test
    ``tests/platform/test_api_examples.py`` then fails, naming it).
    """
    result["tags"] = [dict(tag) for tag in API_TAGS]
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in HTTP_METHODS:
                continue
            entry = OPERATIONS.get(operation.get("operationId"))
            if entry is None:
                continue
            operation["tags"] = [entry["tag"]]
            if entry["summary"] and not operation.get("summary"):
                operation["summary"] = entry["summary"]
            if entry["description"] and not operation.get("description"):
                operation["description"] = entry["description"]
            for parameter in operation.get("parameters", []):
                name = parameter.get("name")
                if name in entry["params"] and parameter.get("in") in ("path", "query"):
                    parameter["example"] = entry["params"][name]
            content = operation.get("requestBody", {}).get("content", {})
            json_body = content.get("application/json")
            if json_body is not None and entry["examples"] and not json_body.get("examples"):
                json_body["examples"] = {
                    _example_key(name): {"summary": name, "value": value}
                    for name, value in entry["examples"].items()
                }
    return result


def _example_key(name: str) -> str:
    """Return an example's key: its summary in CamelCase, letters and digits only."""
    words = re.sub(r"[^A-Za-z0-9]+", " ", name).split()
    return "".join(word[:1].upper() + word[1:] for word in words) or "Example"
