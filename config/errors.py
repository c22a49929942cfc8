"""The one error shape of the API: ``{"error": {"code", "message", "details"}}``.

Services raise :class:`ServiceError` subclasses (or Django's ``ValidationError``);
DRF views hand every exception to :func:`api_exception_handler`; the middleware of
config/error_middleware.py catches what never reaches DRF (unknown URLs, plain Django views)
under the API path prefixes, so nothing there answers with an HTML page.

Every message is in the request's language (``Accept-Language``: English or Simplified
Chinese, English without the header; LocaleMiddleware runs before every middleware that can
answer): DRF's and Django's own through their catalogs, the project's through
``locale/zh_Hans``. Codes, field names and paths are never translated.

Faults are not bugs: a database that cannot be reached (``OperationalError``,
``InterfaceError``) and an embedding or LLM provider that fails where nothing can degrade
(``ProviderError``) answer 503 UNAVAILABLE with ``Retry-After``, on every path, including
errors raised by middleware before any view runs (sessions, authentication; see
config/error_middleware.py). Pages outside the API get a plain 503 page.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import psycopg
from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError as DjangoInterfaceError
from django.db import OperationalError as DjangoOperationalError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf_exceptions
from rest_framework import status as http
from rest_framework.response import Response

from config.auth import SCHEMES, authorization_scheme

logger = logging.getLogger(__name__)

INVALID_ARGUMENT = "INVALID_ARGUMENT"
PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
UNAUTHENTICATED = "UNAUTHENTICATED"
PERMISSION_DENIED = "PERMISSION_DENIED"
NOT_FOUND = "NOT_FOUND"
METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
CONFLICT = "CONFLICT"
RATE_LIMITED = "RATE_LIMITED"
INTERNAL = "INTERNAL"
UNAVAILABLE = "UNAVAILABLE"


class ServiceError(Exception):
    """Raise from a service to answer with a specific error code and status."""

    code = INTERNAL
    status = http.HTTP_500_INTERNAL_SERVER_ERROR

    def __init__(self, message: str, *, details: dict | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}


class InvalidArgument(ServiceError):
    code = INVALID_ARGUMENT
    status = http.HTTP_400_BAD_REQUEST


class NotFound(ServiceError):
    code = NOT_FOUND
    status = http.HTTP_404_NOT_FOUND


class PermissionDenied(ServiceError):
    code = PERMISSION_DENIED
    status = http.HTTP_403_FORBIDDEN


class Conflict(ServiceError):
    code = CONFLICT
    status = http.HTTP_409_CONFLICT


def body_limit_message() -> str:
    """Return the 413 message, naming the limit."""
    return _("The request body is larger than %(limit)s bytes.") % {
        "limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    }


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    """Return the error envelope."""
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(code: str, message: str, status: int, details: dict | None = None):
    """Return a JsonResponse in the error shape (for non-DRF code paths)."""
    return JsonResponse(error_body(code, message, details), status=status)


def _drf_details(detail) -> dict:
    if isinstance(detail, dict):
        return {"fields": detail}
    if isinstance(detail, list):
        return {"errors": detail}
    return {}


# Keys of a DRF error tree that name no field.
NON_FIELD_KEYS = ("non_field_errors", "detail")


def first_error(detail, path: tuple = ()) -> tuple[tuple, object]:
    """Return the path (keys and list indexes) and the leaf of the first error in a DRF tree."""
    if isinstance(detail, list) and detail:
        # A list serializer reports {} for each item without errors: find the first with one.
        index, found = next(((i, item) for i, item in enumerate(detail) if item), (0, detail[0]))
        if isinstance(found, dict | list):
            return first_error(found, (*path, index))
        return path, found
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        return first_error(value, path if key in NON_FIELD_KEYS else (*path, key))
    return path, detail


def field_path(path: tuple) -> str:
    """Spell a path of keys and list indexes as the API documents fields: ``items[2].content``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _first_message(detail, default: str) -> str:
    """Find a human-readable message inside a DRF error detail tree, with its field's path."""
    path, leaf = first_error(detail)
    text = str(leaf) if leaf not in (None, "", [], {}) else default
    return f"{field_path(path)}: {text}" if path else text


def validation_message(detail) -> tuple[str, str]:
    """Return (message, field) for a DRF validation error: the first error, its field named.

    A missing required field says so; any other error keeps its own text after the field.
    """
    path, leaf = first_error(detail)
    field = field_path(path)
    if getattr(leaf, "code", None) == "required" and field:
        return _("Missing required field: %(field)s.") % {"field": field}, field
    return _("Invalid request: %(error)s") % {"error": _first_message(detail, str(leaf))}, field


# Seconds a client should wait before retrying after a 503 caused by a fault.
RETRY_AFTER_SECONDS = 5
DATABASE_DOWN = (
    DjangoOperationalError,
    DjangoInterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)


def is_database_down(exc: BaseException | None) -> bool:
    """Return whether an exception means the database cannot be reached or used right now."""
    return isinstance(exc, DATABASE_DOWN)


# Exception types meaning a model provider is down, registered by the layer that raises them
# (rag's ready: its ProviderError), so the platform answers 503 without importing the engine.
_provider_errors: tuple[type[BaseException], ...] = ()
# What a client may read of such an error (its kind, never its URL or answer), by type.
_public_texts: dict[type[BaseException], Callable[[BaseException], str]] = {}


def register_provider_error(
    exc_type: type[BaseException], public_text: Callable[[BaseException], str] | None = None
) -> None:
    """Answer ``exc_type`` as 503 UNAVAILABLE: a model provider is unavailable.

    ``public_text(exc)`` says what a row's recorded failure may tell a client of it
    (:func:`failure_text`); without it, the exception's own message.
    """
    global _provider_errors
    if exc_type not in _provider_errors:
        _provider_errors = (*_provider_errors, exc_type)
    if public_text is not None:
        _public_texts[exc_type] = public_text


def _is_provider_error(exc: BaseException) -> bool:
    return isinstance(exc, _provider_errors)


def failure_text(error: BaseException | str) -> str:
    """Return the text a row's ``*_error`` field stores for a failed attempt (clients read it).

    A provider's failure says only its kind (the ``public_text`` it was registered with), logged
    in full here; any other exception its type and message.
    """
    if isinstance(error, str):
        return error
    if _is_provider_error(error):
        logger.warning("recording a provider failure: %s", error)
        public = next((text for cls, text in _public_texts.items() if isinstance(error, cls)), str)
        return f"{type(error).__name__}: {public(error)}"
    return f"{type(error).__name__}: {error}"


# The error code of each status an error can have; other 4xx (a parse error, an unacceptable
# Accept header) are INVALID_ARGUMENT, 5xx INTERNAL.
STATUS_CODES = {
    401: UNAUTHENTICATED,
    403: PERMISSION_DENIED,
    404: NOT_FOUND,
    405: METHOD_NOT_ALLOWED,
    409: CONFLICT,
    413: PAYLOAD_TOO_LARGE,
    415: UNSUPPORTED_MEDIA_TYPE,
    429: RATE_LIMITED,
}


def status_code(status: int) -> str:
    """Return the error code of an HTTP error status."""
    return STATUS_CODES.get(status, INTERNAL if status >= 500 else INVALID_ARGUMENT)


def classify_exception(exc: Exception) -> tuple[int, str, str, dict] | None:
    """Map an exception to (status, code, message, details); None when unknown."""
    if isinstance(exc, ServiceError):
        return exc.status, exc.code, exc.message, exc.details
    if is_database_down(exc):
        logger.warning("database unavailable: %s", exc)
        return 503, UNAVAILABLE, _("The database is unavailable; try again shortly."), {}
    if _is_provider_error(exc):
        logger.warning("provider unavailable: %s", exc)
        details = {"provider": getattr(exc, "provider", "") or ""}
        return 503, UNAVAILABLE, _("A model provider is unavailable; try again shortly."), details
    if isinstance(exc, DjangoValidationError):
        details = {}
        if hasattr(exc, "error_dict"):
            details = {"fields": exc.message_dict, "field": next(iter(exc.error_dict), "")}
        return 400, INVALID_ARGUMENT, "; ".join(str(m) for m in exc.messages), details
    if isinstance(exc, RequestDataTooBig):
        return 413, PAYLOAD_TOO_LARGE, body_limit_message(), {}
    if isinstance(exc, SuspiciousOperation):
        # TooManyFieldsSent, TooManyFilesSent, a disallowed host: the request is at fault.
        return 400, INVALID_ARGUMENT, _("Bad request."), {}
    if isinstance(exc, Http404):
        return 404, NOT_FOUND, _("Not found."), {}
    if isinstance(exc, DjangoPermissionDenied):
        message = _("You do not have permission to perform this action.")
        return 403, PERMISSION_DENIED, message, {}
    if isinstance(exc, drf_exceptions.APIException):
        detail = exc.detail
        code = status_code(exc.status_code)
        if isinstance(exc, drf_exceptions.NotAuthenticated | drf_exceptions.AuthenticationFailed):
            code = UNAUTHENTICATED  # DRF answers 403 when the view names no auth scheme
        details = _drf_details(detail)
        if isinstance(exc, drf_exceptions.MethodNotAllowed):
            # The message is translated (zh-hans quotes it with “ ”): take the method from it
            # only as a fallback; api_exception_handler uses the request's own method.
            match = re.search(r'["“](\w+)["”]', str(detail))
            details = {"method": match.group(1) if match else ""}
        if isinstance(exc, drf_exceptions.Throttled) and exc.wait is not None:
            details = {"retry_after_seconds": int(exc.wait)}
        message = _first_message(detail, str(exc))
        if isinstance(exc, drf_exceptions.ValidationError) and isinstance(detail, dict | list):
            message, field = validation_message(detail)
            if field:
                details["field"] = field
        return exc.status_code, code, message, details
    return None


def classify_or_internal(exc: Exception, where: str, internal: str = "") -> tuple:
    """Return :func:`classify_exception`'s answer, or 500 INTERNAL for an unknown error (logged).

    ``where`` names the failing code in the log; ``internal`` is the 500's message (default: the
    translated "Internal error.").
    """
    classified = classify_exception(exc)
    if classified is None:
        logger.exception("Unhandled error in %s", where)
        classified = (500, INTERNAL, internal or _("Internal error."), {})
    return classified


def api_exception_handler(exc, context):
    """DRF exception handler that answers in the one error shape."""
    view = context.get("view")
    where = type(view).__name__ if view else "API view"
    status, code, message, details = classify_or_internal(exc, where)
    request = context.get("request")
    if isinstance(exc, drf_exceptions.MethodNotAllowed) and request is not None:
        message = method_not_allowed_message(request)
        details = {"method": request.method}
    if isinstance(exc, drf_exceptions.NotAuthenticated) and request is not None:
        message = unauthenticated_message(request)
    if isinstance(exc, drf_exceptions.UnsupportedMediaType):
        view = context.get("view")
        parsers = view.get_parsers() if view is not None else []
        details = {
            "media_type": request.content_type if request is not None else "",
            "accepted": [parser.media_type for parser in parsers],
        }
    headers = {}
    if isinstance(exc, drf_exceptions.Throttled) and exc.wait is not None:
        headers["Retry-After"] = str(int(exc.wait))
    if status == 503:
        headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    if isinstance(exc, drf_exceptions.NotAuthenticated | drf_exceptions.AuthenticationFailed):
        headers["WWW-Authenticate"] = "Token"
    return Response(error_body(code, message, details), status=status, headers=headers)


def method_not_allowed_message(request) -> str:
    """Return the 405 message: the method and the path it is not allowed on."""
    return _("Method %(method)s is not allowed on %(path)s.") % {
        "method": request.method,
        "path": request.path,
    }


def unauthenticated_message(request) -> str:
    """Return the 401 message for a request without credentials we read: how to send them."""
    scheme = authorization_scheme(request)
    if scheme and scheme.lower() not in SCHEMES:
        return _(
            'The authorization scheme "%(scheme)s" is not accepted: send the header '
            '"Authorization: Token <key>".'
        ) % {"scheme": scheme[:32]}
    return _(
        "Authentication credentials were not provided: send the header "
        '"Authorization: Token <key>".'
    )


def is_api_path(path: str) -> bool:
    """Return whether a request path belongs to the JSON API."""
    return path.startswith(tuple(settings.API_PATH_PREFIXES))
