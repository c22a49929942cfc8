"""The DRF fields every input serializer uses (README, "Input limits").

DRF's own fields are lenient where JSON is concerned: ``CharField`` turns ``0`` into ``"0"``,
``IntegerField`` takes ``"12"`` and ``true``, and neither knows a column's range. These take a
JSON value only of their own type and keep it within what the column behind it can store.
Query-parameter serializers keep DRF's fields (a query string has only strings). Messages are
in the request's language (``locale/zh_Hans``).

:func:`response_datetime` is the one time-zone convention of every response (README, "Time"):
an instant is given in the service's ``TIME_ZONE`` with its offset (``2026-05-01T09:30:00+08:00``),
as DRF's ``DateTimeField`` gives it; code that builds a response by hand calls it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.conf import settings
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from config.inputs import BIGINT_MAX, INT_MAX, INT_MIN, datetime_range_error

# Free text a user writes (an activity description, a chat message, a context entry).
MAX_TEXT_CHARS = 20_000


class StrictCharField(serializers.CharField):
    """A CharField that takes only a JSON string (``{"title": 0}`` is 400, not ``"0"``)."""

    default_error_messages = {"invalid": gettext_lazy("Not a valid string: send a JSON string.")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class RegexField(serializers.RegexField):
    """A RegexField that takes only a JSON string."""

    default_error_messages = {"type": gettext_lazy("Not a valid string: send a JSON string.")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("type")
        return super().to_internal_value(data)


class TextField(StrictCharField):
    """Free text of at most :data:`MAX_TEXT_CHARS` characters unless told otherwise."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", MAX_TEXT_CHARS)
        super().__init__(**kwargs)


class QueryTextField(StrictCharField):
    """A search or query text: at most ``settings.RAG_QUERY_MAX_CHARS`` characters.

    The bound is read when the serializer is instantiated, so a changed setting applies.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", settings.RAG_QUERY_MAX_CHARS)
        super().__init__(**kwargs)


class IntegerField(serializers.IntegerField):
    """A JSON integer within a PostgreSQL ``integer`` column unless other bounds are given.

    Strings and booleans are refused (``"12"``, ``true``); ``1.0`` is still 1.
    """

    default_error_messages = {
        "invalid": gettext_lazy("A valid integer is required: send a JSON number.")
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", INT_MIN)
        kwargs.setdefault("max_value", INT_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class IdField(IntegerField):
    """The id of a row (a ``bigint`` primary key): 1 to 2**63-1."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", BIGINT_MAX)
        super().__init__(**kwargs)


class FloatField(serializers.FloatField):
    """A JSON number (not a string, not a boolean); NaN and infinities never parse."""

    default_error_messages = {
        "invalid": gettext_lazy("A valid number is required: send a JSON number.")
    }

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class DateTimeField(serializers.DateTimeField):
    """An RFC 3339 date-time between 1970-01-01T00:00:00Z and 2100-01-01T00:00:00Z (exclusive).

    The range is checked on the value as sent, before any time-zone conversion, so
    ``9999-12-31T23:59:59-14:00`` is a clear 400 rather than an overflow; values render as
    RFC 3339 (in UTC when the zone's offset is not a whole minute, as for old LMT offsets).
    """

    default_error_messages = {
        "range": gettext_lazy(
            "Use a date-time between 1970-01-01T00:00:00Z (inclusive) and "
            "2100-01-01T00:00:00Z (exclusive)."
        )
    }

    def to_internal_value(self, value):
        if isinstance(value, str):
            try:
                parsed = parse_datetime(value.strip())
            except ValueError:
                parsed = None
            if parsed is not None and datetime_range_error(parsed):
                self.fail("range")
        elif not isinstance(value, datetime):
            self.fail("invalid", format="RFC 3339")
        result = super().to_internal_value(value)
        if isinstance(result, datetime) and datetime_range_error(result):
            self.fail("range")
        return result

    def to_representation(self, value):
        text = super().to_representation(value)
        if isinstance(value, datetime) and isinstance(text, str):
            offset = self.enforce_timezone(value).utcoffset()
            if offset is not None and offset.seconds % 60:
                return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
        return text


class ListField(serializers.ListField):
    """A JSON array of at most ``max_length`` items (required: every array is bounded)."""

    def __init__(self, *, max_length: int, **kwargs):
        super().__init__(max_length=max_length, **kwargs)


# Sent by a browser form rendered with {% csrf_token %}: part of the request, not of the data.
FORM_ONLY_KEYS = frozenset({"csrfmiddlewaretoken"})


def refuse_body(request) -> None:
    """Raise INVALID_ARGUMENT when an operation that takes no body is sent data in one.

    ``{}``, an empty body and a browser form's CSRF token alone are no data.
    """
    data = request.data
    if hasattr(data, "keys"):
        extra = sorted(set(data.keys()) - FORM_ONLY_KEYS)
    else:
        extra = [_("(a body that is not an object)")] if data not in (None, "", []) else []
    if extra:
        message = _("Unknown field; this operation takes no body.")
        raise serializers.ValidationError({key: [message] for key in extra})


# A request-body serializer that refuses keys it does not declare (INVALID_ARGUMENT).
# DRF drops unknown keys, so a misspelt field (``filter`` for ``filters``, ``timeRange.from``
# for ``start``) would be answered as if it had not been sent: an unfiltered search that looks
# filtered. Nested serializers of this kind check their own level; the schema says the same
# (``additionalProperties: false``, ``config.schema.AutoSchema``). Query-string serializers
# stay open: a cache-busting ``?_=...`` must not fail a read. No docstring on purpose:
# drf-spectacular would show it as the description of every request object without its own.
class ClosedSerializer(serializers.Serializer):
    def to_internal_value(self, data):
        if hasattr(data, "keys"):
            unknown = sorted(set(data.keys()) - set(self.fields) - FORM_ONLY_KEYS)
            if unknown:
                message = _("Unknown field; this object takes: %(known)s.") % {
                    "known": ", ".join(self.fields)
                }
                raise serializers.ValidationError({key: [message] for key in unknown})
        return super().to_internal_value(data)


def validated(serializer_class, data, **kwargs):
    """Return the data ``serializer_class`` validates from ``data`` (else raise: 400)."""
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def response_datetime(value: datetime | None) -> str | None:
    """Return an instant as every response gives it: RFC 3339 in ``TIME_ZONE``, with its offset.

    DRF's ``DateTimeField`` (what every serializer uses) is the rule: the current time zone,
    the service's ``TIME_ZONE``, so a stored UTC instant reads ``...T09:30:00+08:00``.
    """
    return None if value is None else serializers.DateTimeField().to_representation(value)
