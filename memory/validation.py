"""Validate the items of a message write and the filters of a search (the one place of both).

Errors name the offending item (``items[3].ts``) so a client can fix a batch of 500. Every
surface (REST, MCP, the agent) calls these; the serializers only describe the same bounds in the
schema, reading them from here.
"""

from __future__ import annotations

import re
from datetime import datetime

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from config.errors import InvalidArgument
from config.inputs import datetime_range_error
from memory.models import Kind, Role

MAX_ITEMS = 500
MAX_CONTENT_CHARS = 20_000
MAX_MESSAGE_ID_CHARS = 100
MESSAGE_ID_RE = re.compile(rf"^[A-Za-z0-9_.:\-]{{1,{MAX_MESSAGE_ID_CHARS}}}$")
MAX_CHAT_ID_CHARS = 200
MAX_SPEAKER_CHARS = 100  # memory.models.ChatMessage.speaker
# Messages sent without a chat_id belong to this chat (addressable by the context endpoint).
DEFAULT_CHAT_ID = "default"


def parse_ts(value, *, field: str) -> datetime:
    """Return an aware datetime from an RFC 3339 string in the accepted range (config.inputs).

    Raise INVALID_ARGUMENT otherwise: a year-9999 value would be stored past 10000 UTC, which
    PostgreSQL keeps but Python cannot read back.
    """
    parsed = None
    if isinstance(value, str):
        try:
            parsed = parse_datetime(value.strip())
        except ValueError:
            parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise InvalidArgument(
            gettext(
                "%(field)s: use an RFC 3339 timestamp with a time zone (2024-05-01T12:00:00+08:00)."
            )
            % {"field": field},
            details={"field": field},
        )
    why = datetime_range_error(parsed)
    if why:
        raise InvalidArgument(f"{field}: {why}", details={"field": field})
    return parsed


ITEM_KEYS = ("message_id", "ts", "role", "content", "chat_id", "speaker")
BATCH_KEYS = ("items",)
FILTER_KEYS = ("time_range", "role", "chat_id", "kind")
TIME_RANGE_KEYS = ("since", "until")


def refuse_unknown_keys(raw: dict, allowed, *, field: str) -> None:
    """Raise INVALID_ARGUMENT naming ``field`` when ``raw`` has a key outside ``allowed``.

    A key the service does not know would otherwise be dropped and the request answered as if
    it had not been sent (``config.fields.ClosedSerializer`` says the same for serializers).
    """
    unknown = sorted(set(raw) - set(allowed))
    if unknown:
        raise InvalidArgument(
            gettext("%(field)s: unknown keys %(unknown)s; use %(choices)s.")
            % {"field": field, "unknown": unknown, "choices": ", ".join(allowed)},
            details={"field": field},
        )


def _item_error(index: int, field: str, message: str) -> InvalidArgument:
    """Return the error of one item's field; ``message`` is translated already."""
    return InvalidArgument(
        f"items[{index}].{field}: {message}", details={"index": index, "field": field}
    )


def clean_speaker(raw) -> str:
    """Return a speaker as stored: blank when absent or null, stripped of surrounding spaces.

    Raise ``ValueError`` with the reason a person reads (the caller names the field) when it
    is not a string of at most :data:`MAX_SPEAKER_CHARS` characters once stripped. The one
    rule for a speaker, on write and on correction.
    """
    speaker = raw or ""
    if not isinstance(speaker, str) or len(speaker.strip()) > MAX_SPEAKER_CHARS:
        raise ValueError(
            gettext("a string of at most %(max)d characters") % {"max": MAX_SPEAKER_CHARS}
        )
    return speaker.strip()


def clean_items(items) -> list[dict]:
    """Return validated message items: {message_id|None, ts, role, content, chat_id, speaker}.

    ``speaker`` is optional: blank when absent or null, stripped of surrounding spaces.
    """
    if not isinstance(items, list) or not items:
        raise InvalidArgument(gettext("items: send a non-empty list."), details={"field": "items"})
    if len(items) > MAX_ITEMS:
        raise InvalidArgument(
            gettext("items: at most %(max)d per request.") % {"max": MAX_ITEMS},
            details={"field": "items"},
        )
    cleaned = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise _item_error(i, "item", gettext("must be an object"))
        unknown = sorted(set(item) - set(ITEM_KEYS))
        if unknown:
            raise _item_error(
                i,
                unknown[0],
                gettext("unknown field; use %(choices)s") % {"choices": ", ".join(ITEM_KEYS)},
            )
        message_id = item.get("message_id")
        if message_id is not None and (
            not isinstance(message_id, str) or not MESSAGE_ID_RE.match(message_id)
        ):
            raise _item_error(
                i,
                "message_id",
                gettext("use 1-%(max)s characters of A-Z a-z 0-9 _ . : -")
                % {"max": MAX_MESSAGE_ID_CHARS},
            )
        ts = item.get("ts")
        try:
            ts = parse_ts(ts, field=f"items[{i}].ts")
        except InvalidArgument:
            raise _item_error(
                i,
                "ts",
                gettext(
                    "use an RFC 3339 timestamp with a time zone, between %(min)s (inclusive) "
                    "and %(max)s (exclusive)"
                )
                % {"min": "1970-01-01T00:00:00Z", "max": "2100-01-01T00:00:00Z"},
            ) from None
        role = item.get("role")
        if role not in Role.values:
            raise _item_error(
                i, "role", gettext("use one of %(choices)s") % {"choices": ", ".join(Role.values)}
            )
        content = item.get("content")
        if not isinstance(content, str) or not content.strip():
            raise _item_error(i, "content", gettext("must be a non-empty string"))
        if len(content) > MAX_CONTENT_CHARS:
            raise _item_error(
                i, "content", gettext("at most %(max)d characters") % {"max": MAX_CONTENT_CHARS}
            )
        chat_id = item.get("chat_id") or DEFAULT_CHAT_ID
        if not isinstance(chat_id, str) or len(chat_id) > MAX_CHAT_ID_CHARS:
            raise _item_error(
                i,
                "chat_id",
                gettext("a string of at most %(max)d characters") % {"max": MAX_CHAT_ID_CHARS},
            )
        try:
            speaker = clean_speaker(item.get("speaker"))
        except ValueError as error:
            raise _item_error(i, "speaker", str(error)) from None
        cleaned.append(
            {
                "message_id": message_id,
                "ts": ts,
                "role": role,
                "content": content,
                "chat_id": chat_id,
                "speaker": speaker,
            }
        )
    return cleaned


def clean_filter(raw) -> dict:
    """Return a normalised search filter: {since, until, role, chat_id, kind} (absent = None)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InvalidArgument(gettext("filter: must be an object."), details={"field": "filter"})
    refuse_unknown_keys(raw, FILTER_KEYS, field="filter")
    out = {"since": None, "until": None, "role": None, "chat_id": None, "kind": None}
    time_range = raw.get("time_range")
    time_range = {} if time_range is None else time_range
    if not isinstance(time_range, dict):  # [], "" and false are errors too, not "no range"
        raise InvalidArgument(
            gettext("filter.time_range: must be an object."), details={"field": "filter.time_range"}
        )
    # An unknown key (start/end for since/until) would otherwise search every date silently.
    refuse_unknown_keys(time_range, TIME_RANGE_KEYS, field="filter.time_range")
    for key in ("since", "until"):
        if time_range.get(key) is not None:
            out[key] = parse_ts(time_range[key], field=f"filter.time_range.{key}")
    role = raw.get("role")
    if role is not None and role not in Role.values:
        raise InvalidArgument(
            gettext("filter.role: use one of %(choices)s.") % {"choices": ", ".join(Role.values)},
            details={"field": "filter.role"},
        )
    kind = raw.get("kind")
    if kind is not None and kind not in Kind.values:
        raise InvalidArgument(
            gettext("filter.kind: use one of %(choices)s.") % {"choices": ", ".join(Kind.values)},
            details={"field": "filter.kind"},
        )
    chat_id = raw.get("chat_id")
    if chat_id is not None and (not isinstance(chat_id, str) or len(chat_id) > MAX_CHAT_ID_CHARS):
        raise InvalidArgument(
            gettext("filter.chat_id: must be a string of at most %(max)d characters.")
            % {"max": MAX_CHAT_ID_CHARS},
            details={"field": "filter.chat_id"},
        )
    out.update(role=role, kind=kind, chat_id=chat_id)
    return out


# The filter's conditions, one rule for the ORM and the raw SQL of a search: the key of a
# cleaned filter, its column, the ORM lookup and the same comparison in SQL.
FILTER_CONDITIONS = (
    ("since", "ts", "gte", ">="),
    ("until", "ts", "lt", "<"),
    ("role", "role", "exact", "="),
    ("chat_id", "chat_id", "exact", "="),
    ("kind", "kind", "exact", "="),
)


def apply_filter(queryset, flt: dict):
    """Narrow a ChatMessage queryset by a cleaned filter (:data:`FILTER_CONDITIONS`)."""
    for key, column, lookup, _ in FILTER_CONDITIONS:
        if flt.get(key) is not None:
            queryset = queryset.filter(**{f"{column}__{lookup}": flt[key]})
    return queryset


def filter_sql(flt: dict, alias: str) -> tuple[str, list]:
    """Return :func:`apply_filter`'s conditions on table ``alias`` as SQL (" AND ..." each)
    and their parameters, for the raw queries of a search (memory.stand_ins, memory.search,
    memory.ranking): the same :data:`FILTER_CONDITIONS`.
    """
    sql, params = [], []
    for key, column, _, operator in FILTER_CONDITIONS:
        if flt.get(key) is not None:
            sql.append(f" AND {alias}.{column} {operator} %s")
            params.append(flt[key])
    return "".join(sql), params
