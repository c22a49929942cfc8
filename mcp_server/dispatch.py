"""Run one REST operation in-process, through the same Django stack as an HTTP request.

A tool call becomes a WSGI request handled by Django's own :class:`WSGIHandler`: the same
middleware, URL resolution, DRF view, serializers, services and error handler as the REST API,
so a tool answers exactly what the endpoint answers (the same JSON, the same
``{"error": {...}}`` shape on bad input). The caller is authenticated before (its token), so the
request carries the user instead of a credential: DRF's forced authentication, set by
:class:`McpRequest`.
"""

from __future__ import annotations

import io
import json
import logging
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest

logger = logging.getLogger(__name__)
USER_KEY = "semmem.mcp_user"


class McpRequest(WSGIRequest):
    """A WSGI request whose DRF authentication is the user the MCP layer authenticated."""

    def __init__(self, environ):
        super().__init__(environ)
        self._force_auth_user = environ.get(USER_KEY)


class McpHandler(WSGIHandler):
    request_class = McpRequest


_handler: McpHandler | None = None


def handler() -> McpHandler:
    """Return the process's handler (loads the middleware chain once)."""
    global _handler
    if _handler is None:
        _handler = McpHandler()
    return _handler


@dataclass
class Answer:
    """What the REST operation answered: its status and its JSON body."""

    status: int
    data: object

    @property
    def ok(self) -> bool:
        return self.status < 400


def internal_host() -> str:
    """Return a Host the deployment allows (``ALLOWED_HOSTS``), for the in-process request."""
    for host in settings.ALLOWED_HOSTS:
        if host and host != "*":
            return host.lstrip(".")
    return "localhost"


def expand(template: str, values: dict) -> str:
    """Fill an OpenAPI path template; each value is percent-encoded as one path segment."""
    path = template
    for name, value in values.items():
        path = path.replace("{" + name + "}", quote(str(value), safe=""))
    return path


def call(
    *, user, method: str, path: str, query: dict | None = None, body=None, language: str = ""
) -> Answer:
    """Handle ``method path`` as ``user`` and return the REST answer (never raises for 4xx/5xx).

    ``language`` is sent as ``Accept-Language`` (the answer's language, as over REST).
    """
    raw = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
    pairs = []
    for key, value in (query or {}).items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        pairs.append((key, value if isinstance(value, str) else json.dumps(value)))
    host = internal_host()
    secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": urlencode(pairs),
        "CONTENT_TYPE": "application/json" if body is not None else "",
        "CONTENT_LENGTH": str(len(raw)),
        "SERVER_NAME": host,
        "SERVER_PORT": "443" if secure else "80",
        "HTTP_HOST": host,
        "HTTP_ACCEPT": "application/json",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.url_scheme": "https" if secure else "http",
        "wsgi.errors": io.StringIO(),
        USER_KEY: user,
    }
    if language:
        environ["HTTP_ACCEPT_LANGUAGE"] = language
    response = handler()(environ, lambda status, headers, exc_info=None: None)
    try:
        content = b"".join(response)
    finally:
        response.close()  # request_finished: closes the request's database connection
    try:
        data = json.loads(content) if content else None
    except ValueError:
        logger.warning("MCP: %s %s answered non-JSON (%s)", method, path, response.status_code)
        data = {"error": {"code": "INTERNAL", "message": "Non-JSON answer.", "details": {}}}
    return Answer(status=response.status_code, data=data)
