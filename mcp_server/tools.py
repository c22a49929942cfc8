"""The MCP tools: each one is a REST operation, with the schema and the answer of that operation.

A :class:`ToolSpec` names the REST ``operationId`` it exposes; its input and output schemas come
from :mod:`mcp_server.schemas` (the DRF serializers, through drf-spectacular) and a call runs the
operation in-process through :mod:`mcp_server.dispatch` (the same view, services and selectors).
So the tool answers the REST JSON, with the ids an agent cites (``message_id``, ``chat_id``,
summary ranges, activity ids, preference categories, context ids and entries).

Identity: ``user_id`` in a tool's schema is optional and means "act for this user": honoured for
staff tokens, NOT_FOUND for anybody else (as in the REST API). Operations whose REST form takes a
``user_id`` get it passed through (default: the token's user); the others run as the named user
once :func:`memory.identity.resolve_user` allowed it.
"""

from __future__ import annotations

import copy
import json
import logging
from dataclasses import dataclass
from functools import cache

from django.utils import translation
from django.utils.translation import gettext as _

from config.errors import INVALID_ARGUMENT, ServiceError, error_body
from mcp_server import dispatch, schemas
from mcp_server.language import call_language
from memory.identity import resolve_user

logger = logging.getLogger(__name__)

USER_ID_DESCRIPTION = (
    "Staff tokens only: act for this user (their user_id). Default and only allowed value for "
    "other tokens: the token's own user."
)


@dataclass(frozen=True)
class ToolSpec:
    """A tool: its MCP name, the REST operation it runs, what it is for, whether it writes."""

    name: str
    operation_id: str
    description: str
    read_only: bool = True


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "searchMemoryLexical",
        "memory_lexical_search",
        "Keyword (full-text) search over the user's chat messages and summaries; Chinese is "
        "segmented. A past time phrase in the query (上周, last May) filters or ranks by its "
        "window (understand: false searches it as words). Returns the messages with "
        "highlights and scores (POST /v1/messages/lexical_search).",
    ),
    ToolSpec(
        "searchMemorySemantic",
        "memory_semantic_search",
        "Meaning-based search over the user's chat messages and summaries (embeddings). Send "
        "query_text; a past time phrase in it (上周, last May) filters or ranks by its window "
        "(understand: false searches it as words). Returns messages with their similarity "
        "(POST /v1/messages/semantic_search).",
    ),
    ToolSpec(
        "searchMemoryHybrid",
        "memory_hybrid_search",
        "Keyword and meaning search fused (RRF): the best default for recalling what the user "
        "said. A past time phrase in the query (上周, last May) filters or ranks by its window "
        "(understand: false searches it as words). Each item says which pass found it and its "
        "scores (POST /v1/messages/hybrid_search).",
    ),
    ToolSpec(
        "getNeighbors",
        "memory_messages_neighbors",
        "The messages just before and after one message in its chat, to read a hit in context "
        "(GET /v1/users/{user_id}/messages/{message_id}/neighbors).",
    ),
    ToolSpec(
        "readRange",
        "memory_messages_list",
        "Read the user's messages in time order, filtered by chat, role, kind and a since/until "
        "time range, page by page with next_cursor (GET /v1/users/{user_id}/messages).",
    ),
    ToolSpec(
        "getChatContext",
        "memory_chat_context",
        "The context of one chat within a token budget: the latest summary and the recent "
        "messages after it (GET /v1/users/{user_id}/chats/{chat_id}/context).",
    ),
    ToolSpec(
        "listContexts",
        "memory_contexts_list",
        "List the shared contexts the user owns, newest first, each with its entry count and "
        "latest entry, to find the context_id to fetch or update (GET /v1/contexts).",
    ),
    ToolSpec(
        "fetchContext",
        "memory_context_get",
        "Read a shared context (a notebook several agents write to) the user owns or shares, "
        "with its entries (GET /v1/contexts/{context_id}).",
    ),
    ToolSpec(
        "updateContext",
        "memory_context_append",
        "Append an entry to a shared context the user owns or shares (POST "
        "/v1/contexts/{context_id}/entries).",
        read_only=False,
    ),
    ToolSpec(
        "createContext",
        "memory_context_create",
        "Create a shared context owned by the user, with its first entry (POST /v1/contexts).",
        read_only=False,
    ),
    ToolSpec(
        "listPreferences",
        "memory_preferences_list",
        "The user's stated preferences, by category (GET /v1/users/{user_id}/preferences).",
    ),
    ToolSpec(
        "upsertPreference",
        "memory_preferences_upsert",
        "Set the user's preference in one category, replacing the value it had (POST "
        "/v1/users/{user_id}/preferences).",
        read_only=False,
    ),
    ToolSpec(
        "exploreNearby",
        "rag_search",
        'Natural-language activity search ("玩水", "适合社恐的活动") with hard filters '
        "(time, distance, price, ...), personalised for the user, each result with its reason "
        "(POST /rag/search).",
    ),
)
BY_NAME = {spec.name: spec for spec in TOOLS}


class ToolError(Exception):
    """A call that cannot run: answered as a tool error in the API's one error shape."""

    def __init__(self, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.body = error_body(code, message, details or {})


@cache
def operation(name: str) -> schemas.Operation:
    """Return the REST operation behind tool ``name`` (schemas generated once per process)."""
    return schemas.operation(BY_NAME[name].operation_id)


def _strip_required(node):
    """Drop ``required`` from an output schema: ``return_fields`` may trim any item field."""
    if isinstance(node, list):
        return [_strip_required(item) for item in node]
    if isinstance(node, dict):
        return {k: _strip_required(v) for k, v in node.items() if k != "required"}
    return node


def input_schema(name: str) -> dict:
    """Return tool ``name``'s input schema: the operation's, with an optional ``user_id``."""
    op = operation(name)
    schema = copy.deepcopy(op.input_schema)
    props = schema.setdefault("properties", {})
    props["user_id"] = {
        **props.get("user_id", {"type": "string", "minLength": 1, "maxLength": 150}),
        "description": USER_ID_DESCRIPTION,
    }
    required = [key for key in schema.get("required", []) if key != "user_id"]
    if required:
        schema["required"] = required
    else:
        schema.pop("required", None)
    # run() refuses any other argument, as the REST API refuses a body key it does not declare.
    schema["additionalProperties"] = False
    return schema


def output_schema(name: str) -> dict | None:
    """Return tool ``name``'s output schema: the operation's success response."""
    schema = operation(name).output_schema
    if not schema or schema.get("type") != "object":
        return None
    return _strip_required(schema)


def _scalar(name: str, value) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise ToolError(
            INVALID_ARGUMENT,
            _("%(field)s must be a non-empty string or an integer.") % {"field": name},
            {"field": name},
        )
    return str(value)


def run(
    name: str, caller, arguments: dict | None, *, language: str | None = None
) -> tuple[bool, object]:
    """Run tool ``name`` for the authenticated ``caller``; return (ok, the REST JSON answer).

    Error messages are in ``language`` (default: the arguments' own, else the service's;
    :mod:`mcp_server.language`). Synchronous (database work): call it from a worker thread.
    """
    language = language or call_language(accept_language=None, arguments=arguments)
    with translation.override(language):
        return _run(name, caller, arguments, language)


def _run(name: str, caller, arguments: dict | None, language: str) -> tuple[bool, object]:
    op = operation(name)
    args = dict(arguments or {})
    named = args.pop("user_id", None)
    acting = caller
    try:
        unknown = sorted(set(args) - {*op.path_params, *op.query_params, *op.body_params})
        if unknown:
            # Dropped, a misspelt argument would be answered as if it had not been sent.
            raise ToolError(
                INVALID_ARGUMENT,
                _("Unknown arguments: %(fields)s; see the tool's input schema.")
                % {"fields": ", ".join(unknown)},
                {"fields": unknown},
            )
        if op.takes_user_id:
            args["user_id"] = caller.get_username() if named in (None, "") else named
        elif named not in (None, ""):
            # No user_id in the REST form: the operation runs as the named user, once allowed.
            acting = resolve_user(caller, named)
        path_values = {}
        for key in op.path_params:
            if key not in args:
                raise ToolError(
                    INVALID_ARGUMENT,
                    _("Missing required field: %(field)s.") % {"field": key},
                    {"field": key},
                )
            path_values[key] = _scalar(key, args.pop(key))
    except ServiceError as exc:
        return False, error_body(exc.code, exc.message, exc.details)
    except ToolError as exc:
        return False, exc.body
    query = {k: v for k, v in args.items() if k in op.query_params and v is not None}
    body = None
    if op.method != "GET":
        body = {k: v for k, v in args.items() if k not in op.query_params}
    answer = dispatch.call(
        user=acting,
        method=op.method,
        path=dispatch.expand(op.path, path_values),
        query=query,
        body=body,
        language=language,
    )
    return answer.ok, answer.data


def provenance(name: str) -> dict:
    """Return where a tool's answer came from: the REST operation it ran."""
    op = operation(name)
    return {"operation_id": op.operation_id, "method": op.method, "path": op.path}


def as_text(data) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)
