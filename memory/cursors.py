"""Sortable message ids and opaque, tamper-evident paging cursors.

A generated message id is ``m_`` + the creation time in milliseconds as 10 Crockford base32
characters + a 3-character sequence within the batch + 13 random base32 characters, so ids
made later sort after earlier ones (like a ULID).

A cursor is ``django.core.signing.dumps`` of a small JSON object: base64url(JSON) plus an
HMAC-SHA256 keyed by ``SECRET_KEY`` and a per-kind salt. It also carries a fingerprint of the
query it belongs to, so a cursor cannot be replayed against another user, filter or query.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time

from django.core import signing
from django.utils.translation import gettext

from config.errors import InvalidArgument

_B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _b32(value: int, length: int) -> str:
    out = []
    for _ in range(length):
        out.append(_B32[value & 31])
        value >>= 5
    return "".join(reversed(out))


def new_message_id(now_ms: int | None = None, *, seq: int = 0) -> str:
    """Return a new message id that sorts by creation time (then by ``seq`` within a batch)."""
    ms = int(time.time() * 1000) if now_ms is None else int(now_ms)
    return "m_" + _b32(ms, 10) + _b32(seq, 3) + _b32(secrets.randbits(65), 13)


def fingerprint(*parts) -> str:
    """Return a short stable hash of the query a cursor belongs to."""
    raw = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]


def encode_cursor(kind: str, fp: str, position: list) -> str:
    """Return the signed cursor for a position in the ``kind`` listing of query ``fp``."""
    return signing.dumps({"f": fp, "p": position}, salt=f"memory.cursor.{kind}", compress=False)


def decode_cursor(kind: str, fp: str, cursor: str, types: tuple) -> tuple:
    """Return the position a cursor holds, each part read by its converter in ``types``;
    INVALID_ARGUMENT when forged, malformed or foreign."""
    try:
        data = signing.loads(cursor, salt=f"memory.cursor.{kind}")
    except (signing.BadSignature, ValueError, TypeError):
        raise InvalidArgument(
            gettext("The cursor is malformed or was altered."), details={"field": "cursor"}
        )
    if not isinstance(data, dict) or data.get("f") != fp or not isinstance(data.get("p"), list):
        raise InvalidArgument(
            gettext("The cursor belongs to another query."), details={"field": "cursor"}
        )
    try:
        return tuple(read(part) for read, part in zip(types, data["p"], strict=True))
    except (TypeError, ValueError):
        raise InvalidArgument(gettext("The cursor is malformed."), details={"field": "cursor"})
