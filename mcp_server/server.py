"""The MCP server: the official SDK's low-level ``Server`` over the REST operations' tools.

Why the low-level ``Server`` and not ``MCPServer`` (FastMCP) or a Django MCP hosting library:
MCPServer derives each tool's schema from a Python function signature, while here the schemas
must come from the REST API's DRF serializers (:mod:`mcp_server.schemas`); the low-level server
takes the JSON Schemas as they are. Its transports (stdio; streamable HTTP as a Starlette app
run by uvicorn in ``manage.py mcp --http``) are the SDK's own, so the web server that serves the
REST API (whichever it is) is not involved.

Identity: over stdio the token given to ``manage.py mcp --token``; over HTTP the
``Authorization: Bearer <token>`` of each request (the SDK's bearer middleware with
:class:`ApiTokenVerifier`). Every call re-checks the token, so a deleted token stops working at
once; the user never comes from a tool argument.
"""

from __future__ import annotations

import logging
import threading

import anyio
import mcp_types as types
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from mcp.server import Server
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
from mcp.server.auth.provider import AccessToken
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.routing import Route

from config.errors import UNAUTHENTICATED, error_body
from config.permissions import acts_for_any_user
from mcp_server import dispatch, tools
from mcp_server.identity import user_for_token
from mcp_server.language import call_language
from rag import embeddings, text

logger = logging.getLogger(__name__)
NAME = "semantic-memory"
HTTP_PATH = "/mcp"
WARM_UP_BUDGET = 300.0


class ApiTokenVerifier:
    """Accept the REST API's tokens as MCP bearer tokens (the SDK's ``TokenVerifier``)."""

    async def verify_token(self, token: str) -> AccessToken | None:
        # The permission check queries the database: in the thread too, not the event loop.
        return await anyio.to_thread.run_sync(self._access_token, token)

    @staticmethod
    def _access_token(token: str) -> AccessToken | None:
        user = user_for_token(token)
        if user is None:
            return None
        return AccessToken(
            token=token,
            client_id=user.get_username(),
            subject=str(user.pk),
            scopes=["act_for_any_user"] if acts_for_any_user(user) else [],
        )


def _token_of(ctx, stdio_token: str | None) -> str | None:
    """Return the token of this call: the HTTP request's bearer token, else the stdio one."""
    request = getattr(ctx, "request", None)
    if request is not None:
        user = request.scope.get("user")
        access = getattr(user, "access_token", None)
        return access.token if access is not None else None
    return stdio_token


def _tool(name: str) -> types.Tool:
    spec = tools.BY_NAME[name]
    return types.Tool(
        name=name,
        description=spec.description,
        input_schema=tools.input_schema(name),
        output_schema=tools.output_schema(name),
        annotations=types.ToolAnnotations(
            read_only_hint=spec.read_only,
            destructive_hint=False,
            open_world_hint=False,
        ),
    )


def _result(ok: bool, data, name: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=tools.as_text(data))],
        structured_content=data if isinstance(data, dict) else {"result": data},
        is_error=not ok,
        _meta={"source": tools.provenance(name)},
    )


def _accept_language(ctx) -> str | None:
    """Return the HTTP request's Accept-Language (None over stdio)."""
    request = getattr(ctx, "request", None)
    return request.headers.get("accept-language") if request is not None else None


def _call(name: str, token: str | None, arguments: dict | None, language: str):
    caller = user_for_token(token)
    if caller is None:
        with translation.override(language):
            message = _("The API token is missing or not valid.")
        return False, error_body(UNAUTHENTICATED, message)
    return tools.run(name, caller, arguments, language=language)


def build_server(*, stdio_token: str | None = None) -> Server:
    """Return the MCP server; ``stdio_token`` is the caller's token when there is no HTTP."""

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=await anyio.to_thread.run_sync(lambda: [_tool(t.name) for t in tools.TOOLS])
        )

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        # The caller's language (docs/mcp.md, "Languages"): every message of the call in it.
        language = call_language(accept_language=_accept_language(ctx), arguments=params.arguments)
        if params.name not in tools.BY_NAME:
            with translation.override(language):
                message = _("Unknown tool: %(name)s") % {"name": params.name}
            raise MCPError(code=types.INVALID_PARAMS, message=message)
        token = _token_of(ctx, stdio_token)
        try:
            ok, data = await anyio.to_thread.run_sync(
                _call, params.name, token, params.arguments, language
            )
        except Exception:  # a bug must not end the session: the caller gets an error result
            logger.exception("MCP tool %s failed", params.name)
            with translation.override(language):
                message = _("The tool failed; see the server log.")
            ok, data = False, error_body("INTERNAL", message)
        return _result(ok, data, params.name)

    return Server(
        NAME,
        version="1.0.0",
        instructions=(
            "Semantic memory of one user (the owner of the API token): search their chat memory "
            "(lexical, semantic, hybrid), read around a hit, read a chat's context, shared "
            "contexts, preferences, and search activities. Cite the ids the results carry."
        ),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def warm_up() -> None:
    """Load what the first call would wait for: the tool schemas, jieba, the Django handler;
    the embedding model loads in the background (a search meanwhile degrades, never fails)."""

    def embed():
        try:
            # A generous budget: loading the local model is slow, and is not a search.
            embeddings.embed_query("预热", use_cache=False, budget=WARM_UP_BUDGET)
        except Exception as exc:  # a provider down now is reported by the searches themselves
            logger.warning("MCP warm-up: no embedding yet (%s)", exc)

    threading.Thread(target=embed, name="mcp-warm-up", daemon=True).start()
    for spec in tools.TOOLS:
        _tool(spec.name)
    text.warm_up()
    dispatch.handler()


def transport_security(host: str) -> TransportSecuritySettings:
    """Allow the Host headers Django allows (``DJANGO_ALLOWED_HOSTS``), on any port."""
    hosts = [h for h in settings.ALLOWED_HOSTS if h and h != "*" and not h.startswith(".")]
    if "*" in settings.ALLOWED_HOSTS:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    if host not in hosts and host not in ("0.0.0.0", "::"):
        hosts.append(host)
    allowed = [*hosts, *(f"{h}:*" for h in hosts)]
    origins = [
        f"{scheme}://{h}{port}"
        for h in hosts
        for scheme in ("http", "https")
        for port in ("", ":*")
    ]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=allowed, allowed_origins=origins
    )


def http_app(*, host: str = "127.0.0.1") -> Starlette:
    """Return the streamable-HTTP ASGI app: ``POST/GET/DELETE /mcp`` behind the bearer check.

    Stateless: each request carries its token and stands alone, so any number of these
    processes can sit behind a load balancer.
    """
    server = build_server()
    manager = StreamableHTTPSessionManager(
        app=server,
        json_response=True,
        stateless=True,
        security_settings=transport_security(host),
    )
    endpoint = RequireAuthMiddleware(StreamableHTTPASGIApp(manager), required_scopes=[])
    return Starlette(
        routes=[Route(HTTP_PATH, endpoint=endpoint)],
        middleware=[
            Middleware(AuthenticationMiddleware, backend=BearerAuthBackend(ApiTokenVerifier()))
        ],
        lifespan=lambda app: manager.run(),
    )
