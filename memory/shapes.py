"""The JSON shape of a message in every listing and search answer, and field trimming."""

from __future__ import annotations

from django.utils.translation import gettext

from config.errors import InvalidArgument
from config.fields import response_datetime

MESSAGE_FIELDS = (
    "message_id",
    "user_id",
    "chat_id",
    "ts",
    "role",
    "speaker",
    "kind",
    "content",
    "summarised",
    "embed_state",
    "edited_at",
    "stale",
)


def message_item(row) -> dict:
    """Return the :data:`MESSAGE_FIELDS` of a ChatMessage: the user named by its username,
    the times in RFC 3339."""
    item = {name: getattr(row, name) for name in MESSAGE_FIELDS}
    item["user_id"] = row.user.get_username()
    item["ts"], item["edited_at"] = response_datetime(row.ts), response_datetime(row.edited_at)
    return item


def page(items: list, next_cursor: str | None) -> dict:
    """Return a page of a listing: ``items``, and ``next_cursor`` unless it is the last page."""
    return {"items": items, "next_cursor": next_cursor} if next_cursor else {"items": items}


def clean_return_fields(fields) -> list[str] | None:
    """Return the requested message fields; INVALID_ARGUMENT names any unknown one."""
    if fields is None:
        return None
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise InvalidArgument(gettext("return_fields: send a list of field names."))
    unknown = [f for f in fields if f not in MESSAGE_FIELDS]
    if unknown:
        raise InvalidArgument(
            gettext("return_fields: unknown field(s) %(unknown)s; choose from %(choices)s.")
            % {"unknown": ", ".join(unknown), "choices": ", ".join(MESSAGE_FIELDS)},
            details={"field": "return_fields", "unknown": unknown},
        )
    return fields


def trim(item: dict, fields: list[str] | None) -> dict:
    """Keep only ``fields`` of a message item (all of them when None)."""
    if fields is None:
        return item
    return {k: v for k, v in item.items() if k in fields}


def provenance(row, *, retrieved_by: str, scores: dict) -> dict:
    """Return where a search hit came from and why it was returned, for an agent to cite.

    ``source``: the message (id, chat, time, when last corrected) or the summary (its chat and
    the range it covers: every message of the chat up to ``covers.until``, ``covers.count`` of
    them); ``retrieved_by``: the pass that found it; ``scores``: that pass's scores.
    """
    source = {
        "type": row.kind,
        "message_id": row.message_id,
        "chat_id": row.chat_id,
        "ts": response_datetime(row.ts),
        "edited_at": response_datetime(row.edited_at),
        "covers": None,
    }
    if row.kind == "summary":
        source["covers"] = {
            "until": response_datetime(row.covers_until_ts),
            "count": row.covered_count,
        }
    return {"source": source, "retrieved_by": retrieved_by, "scores": scores}
