"""The one error shape of the API: ``{"error": {"code", "message", "details"}}``.

Services raise :class:`ServiceError` subclasses (or Django's ``ValidationError``);
DRF views hand every exception to :func:`api_exception_handler`; the middleware
catches what never reaches DRF (unknown URLs, plain Django views) under the API
path prefixes, so nothing there answers with an HTML page.

Faults are not bugs: a database that cannot be reached (``OperationalError``,
``InterfaceError``) and an embedding or LLM provider that fails where nothing can degrade
(``ProviderError``) answer 503 UNAVAILABLE with ``Retry-After``, on every path, including
errors raised by middleware before any view runs (sessions, authentication): those are seen
through Django's ``got_request_exception`` signal and the 500 it would answer is replaced.
Pages outside the API get a plain 503 page.
"""

from __future__ import annotations

import logging
import re
import sys

import psycopg
from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.signals import got_request_exception
from django.db import InterfaceError as DjangoInterfaceError
from django.db import OperationalError as DjangoOperationalError
from django.http import Http404, HttpResponse, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework import status as http

from config.inputs import InputError, body_limit_message, load_json

logger = logging.getLogger(__name__)

INVALID_ARGUMENT = "INVALID_ARGUMENT"
PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
UNAUTHENTICATED = "UNAUTHENTICATED"
PERMISSION_DENIED = "PERMISSION_DENIED"
NOT_FOUND = "NOT_FOUND"
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


class PayloadTooLarge(ServiceError):
    code = PAYLOAD_TOO_LARGE
    status = http.HTTP_413_REQUEST_ENTITY_TOO_LARGE


class NotFound(ServiceError):
    code = NOT_FOUND
    status = http.HTTP_404_NOT_FOUND


class PermissionDenied(ServiceError):
    code = PERMISSION_DENIED
    status = http.HTTP_403_FORBIDDEN


class Conflict(ServiceError):
    code = CONFLICT
    status = http.HTTP_409_CONFLICT


class Unavailable(ServiceError):
    code = UNAVAILABLE
    status = http.HTTP_503_SERVICE_UNAVAILABLE


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


def _first_message(detail, default: str) -> str:
    """Find a human-readable message inside a DRF error detail tree."""
    if isinstance(detail, str):
        return detail
    if isinstance(detail, list) and detail:
        # A list serializer reports {} for each item without errors: find the first with one.
        found = next((item for item in detail if item), detail[0])
        return _first_message(found, default)
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        inner = _first_message(value, default)
        return inner if key in ("non_field_errors", "detail") else f"{key}: {inner}"
    return default


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


def _is_provider_error(exc: BaseException) -> bool:
    from rag.providers.embedding import ProviderError

    return isinstance(exc, ProviderError)


def classify_exception(exc: Exception) -> tuple[int, str, str, dict] | None:
    """Map an exception to (status, code, message, details); None when unknown."""
    if isinstance(exc, ServiceError):
        return exc.status, exc.code, exc.message, exc.details
    if is_database_down(exc):
        logger.warning("database unavailable: %s", exc)
        return 503, UNAVAILABLE, "The database is unavailable; try again shortly.", {}
    if _is_provider_error(exc):
        logger.warning("provider unavailable: %s", exc)
        details = {"provider": getattr(exc, "provider", "") or ""}
        return 503, UNAVAILABLE, "A model provider is unavailable; try again shortly.", details
    if isinstance(exc, DjangoValidationError):
        details = {"fields": exc.message_dict} if hasattr(exc, "error_dict") else {}
        return 400, INVALID_ARGUMENT, "; ".join(exc.messages), details
    if isinstance(exc, RequestDataTooBig):
        return 413, PAYLOAD_TOO_LARGE, body_limit_message(), {}
    if isinstance(exc, SuspiciousOperation):
        # TooManyFieldsSent, TooManyFilesSent, a disallowed host: the request is at fault.
        return 400, INVALID_ARGUMENT, "Bad request.", {}
    if isinstance(exc, Http404):
        return 404, NOT_FOUND, "Not found.", {}
    if isinstance(exc, DjangoPermissionDenied):
        return 403, PERMISSION_DENIED, "You do not have permission to perform this action.", {}
    if isinstance(exc, drf_exceptions.APIException):
        detail = exc.detail
        if isinstance(exc, drf_exceptions.NotAuthenticated | drf_exceptions.AuthenticationFailed):
            code = UNAUTHENTICATED
        elif isinstance(exc, drf_exceptions.PermissionDenied):
            code = PERMISSION_DENIED
        elif isinstance(exc, drf_exceptions.NotFound):
            code = NOT_FOUND
        elif isinstance(exc, drf_exceptions.Throttled):
            code = RATE_LIMITED
        elif exc.status_code == 409:
            code = CONFLICT
        elif exc.status_code == 413:
            code = PAYLOAD_TOO_LARGE
        elif 400 <= exc.status_code < 500:
            # Validation, parse errors, wrong method, unsupported media type.
            code = INVALID_ARGUMENT
        else:
            code = INTERNAL
        details = _drf_details(detail)
        if isinstance(exc, drf_exceptions.MethodNotAllowed):
            # The message is translated (zh-hans quotes it with “ ”): take the method from it
            # only as a fallback; api_exception_handler uses the request's own method.
            match = re.search(r'["“](\w+)["”]', str(detail))
            details = {"method": match.group(1) if match else ""}
        if isinstance(exc, drf_exceptions.Throttled) and exc.wait is not None:
            details = {"retry_after_seconds": int(exc.wait)}
        message = _first_message(detail, str(exc))
        if isinstance(exc, drf_exceptions.ValidationError) and isinstance(detail, dict):
            message = "Invalid request: " + message
        return exc.status_code, code, message, details
    return None


def api_exception_handler(exc, context):
    """DRF exception handler that answers in the one error shape."""
    from rest_framework.response import Response

    classified = classify_exception(exc)
    if classified is None:
        view = context.get("view")
        logger.exception("Unhandled error in %s", type(view).__name__ if view else "API view")
        classified = (500, INTERNAL, "Internal error.", {})
    status, code, message, details = classified
    request = context.get("request")
    if isinstance(exc, drf_exceptions.MethodNotAllowed) and request is not None:
        details = {"method": request.method}
    headers = {}
    if isinstance(exc, drf_exceptions.Throttled) and exc.wait is not None:
        headers["Retry-After"] = str(int(exc.wait))
    if status == 503:
        headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    if isinstance(exc, drf_exceptions.NotAuthenticated | drf_exceptions.AuthenticationFailed):
        headers["WWW-Authenticate"] = "Token"
    return Response(error_body(code, message, details), status=status, headers=headers)


def is_api_path(path: str) -> bool:
    """Return whether a request path belongs to the JSON API."""
    return path.startswith(tuple(settings.API_PATH_PREFIXES))


class ApiErrorMiddleware:
    """Answer in the error shape for API paths that never reach a DRF handler."""

    # Headers of the replaced response that the error shape must keep (RFC 9110).
    KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")

    def __init__(self, get_response):
        self.get_response = get_response
        got_request_exception.connect(remember_exception, dispatch_uid="config.errors.remember")

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 500 and is_database_down(
            getattr(request, "_unhandled_exception", None)
        ):
            # Raised where no handler of ours ran (middleware, or a plain view in DEBUG).
            return unavailable_response(request)
        if not is_api_path(request.path) or response.status_code < 400:
            return response
        content_type = response.get("Content-Type", "")
        if content_type.startswith("application/json") or content_type.startswith(
            "text/event-stream"
        ):
            return response
        status = response.status_code
        code = {
            400: INVALID_ARGUMENT,
            401: UNAUTHENTICATED,
            403: PERMISSION_DENIED,
            404: NOT_FOUND,
            405: INVALID_ARGUMENT,
            409: CONFLICT,
            413: PAYLOAD_TOO_LARGE,
            429: RATE_LIMITED,
        }.get(status, INTERNAL if status >= 500 else INVALID_ARGUMENT)
        message = {
            404: f"No API endpoint at {request.path}.",
            405: f"Method {request.method} is not allowed on {request.path}.",
        }.get(status, response.reason_phrase or "Error.")
        details = {"method": request.method} if status == 405 else {}
        converted = error_response(code, message, status, details)
        for header in self.KEPT_HEADERS:
            if header in response:
                converted[header] = response[header]
        return converted

    def process_exception(self, request, exc):
        if not is_api_path(request.path):
            return None
        classified = classify_exception(exc)
        if classified is None:
            logger.exception("Unhandled error on %s", request.path)
            return error_response(INTERNAL, "Internal error.", 500)
        status, code, message, details = classified
        response = error_response(code, message, status, details)
        if status == 503:
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


def remember_exception(sender, request=None, **kwargs) -> None:
    """Keep the exception Django is about to turn into a 500 on the request (see the middleware)."""
    if request is not None:
        request._unhandled_exception = sys.exc_info()[1]


UNAVAILABLE_PAGE = (
    '<!doctype html><html><head><meta charset="utf-8"><title>503 Service Unavailable</title>'
    "</head><body><h1>Service unavailable</h1><p>The service cannot reach its database right "
    "now. Please try again in a few seconds.</p></body></html>"
)


def unavailable_response(request):
    """Answer 503 while the database is down: the error shape on API paths, else a plain page."""
    if is_api_path(request.path):
        response = error_response(
            UNAVAILABLE, "The database is unavailable; try again shortly.", 503
        )
    else:
        response = HttpResponse(UNAVAILABLE_PAGE, status=503, content_type="text/html")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def json_body(request) -> dict:
    """Parse a JSON object from a plain Django request under the input rules (config.inputs).

    Raise PayloadTooLarge over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, InvalidArgument otherwise.
    """
    try:
        raw = request.body
    except RequestDataTooBig:
        raise PayloadTooLarge(body_limit_message()) from None
    try:
        data = load_json(raw or b"{}")
    except InputError as exc:
        raise InvalidArgument(exc.message) from None
    if not isinstance(data, dict):
        raise InvalidArgument("The request body must be a JSON object.")
    return data


def handler404(request, exception=None):
    """Answer unknown API URLs in the error shape; HTML elsewhere."""
    if is_api_path(request.path):
        return error_response(NOT_FOUND, f"No API endpoint at {request.path}.", 404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def handler500(request):
    """Answer server errors on API URLs in the error shape; HTML elsewhere (503 for faults)."""
    if is_database_down(sys.exc_info()[1]):
        return unavailable_response(request)
    if is_api_path(request.path):
        return error_response(INTERNAL, "Internal error.", 500)
    from django.views.defaults import server_error

    return server_error(request)
