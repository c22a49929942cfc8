"""The JSON shape of a message in every listing and search answer, and field trimming."""

from __future__ import annotations

from config.errors import InvalidArgument

MESSAGE_FIELDS = (
    "message_id",
    "user_id",
    "chat_id",
    "ts",
    "role",
    "kind",
    "content",
    "summarised",
    "embed_state",
    "edited_at",
    "stale",
)


def message_item(row) -> dict:
    """Return the public fields of a ChatMessage (the user is named by its username)."""
    return {
        "message_id": row.message_id,
        "user_id": row.user.get_username(),
        "chat_id": row.chat_id,
        "ts": row.ts.isoformat().replace("+00:00", "Z"),
        "role": row.role,
        "kind": row.kind,
        "content": row.content,
        "summarised": row.summarised,
        "embed_state": row.embed_state,
        "edited_at": (row.edited_at.isoformat().replace("+00:00", "Z") if row.edited_at else None),
        "stale": row.stale,
    }


def clean_return_fields(fields) -> list[str] | None:
    """Return the requested message fields; INVALID_ARGUMENT names any unknown one."""
    if fields is None:
        return None
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise InvalidArgument("return_fields: send a list of field names.")
    unknown = [f for f in fields if f not in MESSAGE_FIELDS]
    if unknown:
        raise InvalidArgument(
            f"return_fields: unknown field(s) {', '.join(unknown)}; "
            f"choose from {', '.join(MESSAGE_FIELDS)}.",
            details={"field": "return_fields", "unknown": unknown},
        )
    return fields


def trim(item: dict, fields: list[str] | None, *, keep: tuple[str, ...] = ()) -> dict:
    """Keep only ``fields`` of a message item (plus ``keep``, e.g. its scores)."""
    if fields is None:
        return item
    wanted = set(fields) | set(keep)
    return {k: v for k, v in item.items() if k in wanted}
