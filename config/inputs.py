"""Bound and clean every input at the edge, in one place (README, "Input limits").

- Bodies: at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (413 PAYLOAD_TOO_LARGE), UTF-8 JSON
  nested at most :data:`MAX_JSON_DEPTH` deep, no ``NaN``/``Infinity`` (nor ``1e400``).
- Text: no NUL (``\\x00``) and no lone UTF-16 surrogate (``\\ud800``-``\\udfff`` unpaired), in
  any string of a JSON body (keys and values, at any depth), of a form or multipart body
  (which must be UTF-8, also inside percent-escapes), in the query string and in the path.
  PostgreSQL cannot store either, so they are rejected (400 INVALID_ARGUMENT), never cleaned.
- Media types: JSON, and urlencoded forms where a view takes them. A multipart body is refused
  here (415 UNSUPPORTED_MEDIA_TYPE) before anything reads it: Django would write its files to
  temporary files on disk, outside every limit above; no endpoint takes a file.
- Dates: :data:`MIN_DATETIME` <= value < :data:`MAX_DATETIME`, a range a user could mean, so
  every stored value renders as RFC 3339 and reads back into Python.

Messages are in the request's language (config/errors.py; ``locale/zh_Hans``); field names are
not translated.
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from urllib.parse import parse_qsl

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest, QueryDict
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions as drf_exceptions
from rest_framework.parsers import FormParser, JSONParser

from config.errors import (
    INVALID_ARGUMENT,
    PAYLOAD_TOO_LARGE,
    UNSUPPORTED_MEDIA_TYPE,
    body_limit_message,
    error_response,
    is_api_path,
)

MAX_JSON_DEPTH = 32
MIN_DATETIME = datetime(1970, 1, 1, tzinfo=UTC)
MAX_DATETIME = datetime(2100, 1, 1, tzinfo=UTC)
DATETIME_RANGE_TEXT = (
    "between 1970-01-01T00:00:00Z (inclusive) and 2100-01-01T00:00:00Z (exclusive)"
)
# Bounds of PostgreSQL's integer and bigint columns.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
BIGINT_MAX = 2**63 - 1

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
# A JSON string (skipped whole, so brackets inside it do not count) or a bracket.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class InputError(ValueError):
    """A bad input; the message names where it is (``items[3].content: ...``)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def bad_text_reason(text: str) -> str | None:
    """Return why ``text`` cannot be stored (NUL or lone surrogate), or None when it can."""
    match = _BAD_CHARS.search(text)
    if match is None:
        return None
    if match.group() == "\x00":
        return _("contains a NUL character (\\u0000)")
    return _("contains a lone UTF-16 surrogate (\\ud800-\\udfff)")


def check_text(text: str, *, field: str) -> str:
    """Return ``text`` or raise :class:`InputError` when it holds NUL or a lone surrogate."""
    reason = bad_text_reason(text)
    if reason:
        raise InputError(f"{field or 'text'}: {reason}.")
    return text


def _json_depth(text: str) -> int:
    depth = deepest = 0
    for token in _JSON_TOKENS.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_JSON_DEPTH:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


# Python's reasons for malformed JSON, translated; another reason is left out of the message.
JSON_REASONS = {
    "Expecting value": gettext_lazy("a value was expected"),
    "Expecting ',' delimiter": gettext_lazy("a comma was expected"),
    "Expecting ':' delimiter": gettext_lazy("a colon was expected"),
    "Expecting property name enclosed in double quotes": gettext_lazy(
        "a key in double quotes was expected"
    ),
    "Unterminated string starting at": gettext_lazy("a string is not closed"),
    "Invalid control character at": gettext_lazy("a control character inside a string"),
    "Invalid \\escape": gettext_lazy("an invalid escape in a string"),
    "Invalid \\uXXXX escape": gettext_lazy("an invalid \\u escape in a string"),
    "Extra data": gettext_lazy("more data after the JSON value"),
    "Illegal trailing comma before end of object": gettext_lazy("a trailing comma"),
    "Illegal trailing comma before end of array": gettext_lazy("a trailing comma"),
}


def _reject_constant(name: str):
    raise InputError(_("%(constant)s is not valid JSON.") % {"constant": name})


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise InputError(_("The number %(number)s does not fit a double.") % {"number": text})
    return value


def malformed_json_message(exc: json.JSONDecodeError) -> str:
    """Return where and (when known) why a JSON text is malformed, in the request's language."""
    place = {"line": exc.lineno, "column": exc.colno}
    reason = JSON_REASONS.get(exc.msg)
    if reason is None:
        return _("Malformed JSON at line %(line)d, column %(column)d.") % place
    return _("Malformed JSON at line %(line)d, column %(column)d: %(reason)s.") % {
        **place,
        "reason": reason,
    }


def _check_tree(value, path: str) -> None:
    # Depth is already bounded by MAX_JSON_DEPTH, so recursion is safe.
    if isinstance(value, str):
        check_text(value, field=path or "body")
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if bad_text_reason(key):
                check_text(key, field=f"{path or 'body'} (a key)")
            _check_tree(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_tree(item, f"{path}[{index}]")


def load_json(raw: bytes | str):
    """Parse a JSON body under the input rules; raise :class:`InputError` when it breaks one."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                _("The body is not valid UTF-8 (byte %(position)d).") % {"position": exc.start}
            ) from None
    else:
        text = raw
    if _json_depth(text) > MAX_JSON_DEPTH:
        raise InputError(_("JSON nested deeper than %(depth)d levels.") % {"depth": MAX_JSON_DEPTH})
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except InputError:
        raise
    except json.JSONDecodeError as exc:
        raise InputError(malformed_json_message(exc)) from None
    except (ValueError, RecursionError):
        raise InputError(_("Malformed JSON.")) from None
    _check_tree(data, "")
    return data


class PayloadTooLargeError(drf_exceptions.APIException):
    """A request body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413)."""

    status_code = 413
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "payload_too_large"


def _read_bounded(stream) -> bytes:
    """Read a request body; raise PayloadTooLargeError past ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    raw = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(raw) > limit:
        raise PayloadTooLargeError(body_limit_message())
    return raw


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser under the input rules: size, depth, no NaN, NUL or lone surrogates."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = _read_bounded(stream)
        try:
            return load_json(raw)
        except InputError as exc:
            raise drf_exceptions.ParseError(exc.message) from None


def _check_form(data) -> None:
    """Raise ParseError when a form key or value holds NUL or a lone surrogate (as for JSON)."""
    for key, values in data.lists():
        try:
            check_text(key, field="key")
            for value in values:
                if isinstance(value, str):
                    check_text(value, field=key)
        except InputError as exc:
            raise drf_exceptions.ParseError(exc.message) from None


class BoundedFormParser(FormParser):
    """DRF's form parser under the JSON rules: UTF-8 only, no NUL or lone surrogates.

    Django decodes a form body with ``errors="replace"``: invalid UTF-8 would be stored as
    U+FFFD. Refuse it instead, the same way the JSON parser does.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        raw = _read_bounded(stream)
        try:
            # Percent-escapes must decode to UTF-8 too, not only the raw bytes.
            raw.decode("utf-8")
            parse_qsl(raw.decode("ascii", "ignore"), keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            raise drf_exceptions.ParseError(_("The form body is not valid UTF-8.")) from None
        data = QueryDict(raw, encoding="utf-8")
        _check_form(data)
        return data


def datetime_range_error(value: datetime) -> str | None:
    """Return why an aware datetime is out of the accepted range, or None."""
    if value.tzinfo is None:
        return None
    if not (MIN_DATETIME <= value < MAX_DATETIME):
        return _("use a date-time between %(min)s (inclusive) and %(max)s (exclusive).") % {
            "min": "1970-01-01T00:00:00Z",
            "max": "2100-01-01T00:00:00Z",
        }
    return None


@deconstructible
class DateTimeRangeValidator:
    """Model and form validator: keep a date-time in the accepted range."""

    def __call__(self, value):
        if isinstance(value, datetime):
            message = datetime_range_error(value)
            if message:
                raise ValidationError(message, code="datetime_range")

    def __eq__(self, other):
        return isinstance(other, DateTimeRangeValidator)


validate_datetime_range = DateTimeRangeValidator()


class InputGuardMiddleware:
    """Reject NUL, lone surrogates and over-large bodies before any view sees the request.

    The path and the query string are checked here (Django decodes ``%00`` into them); JSON
    bodies are checked by :class:`BoundedJSONParser`. A
    multipart body is refused on API paths (415) before Django can spool its files to disk.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = self._problem(request)
        if problem is None:
            return self.get_response(request)
        status, code, message = problem
        if is_api_path(request.path):
            details = {"media_type": request.content_type} if status == 415 else {}
            return error_response(code, message, status, details)
        response = HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        response.status_code = status
        return response

    @staticmethod
    def _problem(request) -> tuple[int, str, str] | None:
        reason = bad_text_reason(request.path)
        if reason:
            return 400, INVALID_ARGUMENT, _("The URL path %(reason)s.") % {"reason": reason}
        for key, values in request.GET.lists():
            for text in [key, *values]:
                reason = bad_text_reason(text)
                if reason:
                    message = _("Query parameter %(name)s %(reason)s.")
                    return 400, INVALID_ARGUMENT, message % {"name": repr(key), "reason": reason}
        if request.content_type == "multipart/form-data" and is_api_path(request.path):
            message = _("Multipart bodies are not accepted: send JSON (application/json).")
            return 415, UNSUPPORTED_MEDIA_TYPE, message
        if request.content_type == "multipart/form-data":
            return None  # Pages (the admin): Django bounds the fields of multipart bodies itself.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return 400, INVALID_ARGUMENT, _("The Content-Length header is not a number.")
        if limit is not None and length > limit:
            return 413, PAYLOAD_TOO_LARGE, body_limit_message()
        return None
