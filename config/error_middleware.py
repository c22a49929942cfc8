"""What answers outside DRF in the one error shape: the middleware and the 404/500 handlers.

:class:`ApiErrorMiddleware` catches what never reaches DRF's handler (unknown URLs, plain
Django views) under the API path prefixes, so nothing there answers with an HTML page; a
database that cannot be reached, even from a middleware before any view runs, answers 503 (seen
through Django's ``got_request_exception`` signal, the 500 it would answer replaced). Pages
outside the API get a plain 503 page. The shape and the classification are config/errors.py's.
"""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.signals import got_request_exception
from django.http import HttpResponse
from django.urls import is_valid_path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.defaults import page_not_found, server_error

from config.errors import (
    INTERNAL,
    NOT_FOUND,
    RETRY_AFTER_SECONDS,
    UNAVAILABLE,
    classify_or_internal,
    error_response,
    is_api_path,
    is_database_down,
    method_not_allowed_message,
    status_code,
)


def not_found_message(request) -> str:
    """Return the message of an unknown API URL."""
    return _("No API endpoint at %(path)s.") % {"path": request.path}


def slash_path(request) -> str | None:
    """Return the path with a trailing slash when only that one resolves (APPEND_SLASH's case)."""
    path = request.path_info
    if not settings.APPEND_SLASH or path.endswith("/"):
        return None
    urlconf = getattr(request, "urlconf", None)
    if is_valid_path(path, urlconf) or not is_valid_path(f"{path}/", urlconf):
        return None
    return f"{request.path}/"


# Methods whose body CommonMiddleware's APPEND_SLASH redirect (301, GET) would drop.
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


# Messages of statuses a plain Django view may answer with an HTML page on an API path.
STATUS_MESSAGES = {
    400: gettext_lazy("Bad request."),
    401: gettext_lazy("Authentication required."),
    403: gettext_lazy("You do not have permission to perform this action."),
    409: gettext_lazy("Conflict."),
    413: gettext_lazy("The request body is too large."),
    415: gettext_lazy("The request body's media type is not accepted here."),
    429: gettext_lazy("Too many requests; try again later."),
    500: gettext_lazy("Internal error."),
    502: gettext_lazy("A service this one depends on failed."),
    503: gettext_lazy("The service is unavailable; try again shortly."),
}


class ApiErrorMiddleware:
    """Answer in the error shape for API paths that never reach a DRF handler."""

    # Headers of the replaced response that the error shape must keep (RFC 9110).
    KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")

    def __init__(self, get_response):
        self.get_response = get_response
        got_request_exception.connect(
            remember_exception, dispatch_uid="config.error_middleware.remember"
        )

    def __call__(self, request):
        if request.method in BODY_METHODS and is_api_path(request.path):
            # Answer here, not with CommonMiddleware's redirect: a client following a 301
            # repeats the request as a GET without its body (and DEBUG raises a 500).
            with_slash = slash_path(request)
            if with_slash is not None:
                message = _("No API endpoint at %(path)s: use %(slash_path)s.") % {
                    "path": request.path,
                    "slash_path": with_slash,
                }
                return error_response(NOT_FOUND, message, 404, {"use_path": with_slash})
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
        code = status_code(status)
        if status == 404:
            message = not_found_message(request)
        elif status == 405:
            message = method_not_allowed_message(request)
        else:
            message = STATUS_MESSAGES.get(status) or _("The request failed.")
            message = str(message)
        details = {"method": request.method} if status == 405 else {}
        converted = error_response(code, message, status, details)
        for header in self.KEPT_HEADERS:
            if header in response:
                converted[header] = response[header]
        return converted

    def process_exception(self, request, exc):
        if not is_api_path(request.path):
            return None
        status, code, message, details = classify_or_internal(exc, request.path)
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
            UNAVAILABLE, _("The database is unavailable; try again shortly."), 503
        )
    else:
        response = HttpResponse(UNAVAILABLE_PAGE, status=503, content_type="text/html")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def handler404(request, exception=None):
    """Answer unknown API URLs in the error shape; HTML elsewhere."""
    if is_api_path(request.path):
        return error_response(NOT_FOUND, not_found_message(request), 404)
    return page_not_found(request, exception)


def handler500(request):
    """Answer server errors on API URLs in the error shape; HTML elsewhere (503 for faults)."""
    if is_database_down(sys.exc_info()[1]):
        return unavailable_response(request)
    if is_api_path(request.path):
        return error_response(INTERNAL, _("Internal error."), 500)
    return server_error(request)
