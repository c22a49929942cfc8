"""Export everything the service holds about a user, as JSON Lines, from the user-data registry.

The same declarations that erasure runs (:mod:`config.userdata`) say what to export, so an export
is complete by construction and its manifest carries exactly the counts of the erasure report:
export, then erase, and the two can be checked against each other.

The stream, one JSON object per line:

1. ``{"type": "manifest", "format": 1, "user": {...}, "generated_at": ..., "counts": {...},
   "kinds": [{"name", "app", "model", "rows", "description"}, ...]}``: ``counts`` is
   ``user_data_count`` (the erasure report's keys and numbers); ``kinds[].rows`` says whether
   the kind's rows follow (a kind another kind erases, such as the vectors on message rows, is
   counted only: its rows are the other kind's rows).
2. ``{"type": "row", "kind": <name>, "model": <app.Model>, "data": {...}}`` per row: every
   concrete column, relations as ids, times in RFC 3339; vector columns are left out (they
   are derived from the texts and re-made on import), and so are the columns a kind declares
   ``left_out`` (credentials such as a webhook's secret); the manifest names both.
3. ``{"type": "end", "rows": {kind: n, ...}}``: the rows written per kind, so a client can
   tell a complete export from a cut connection.

Everything is read in one REPEATABLE READ, READ ONLY transaction: a write during the export
cannot make the counts and the rows disagree.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import uuid
from collections.abc import Iterator

from django.db import connection, models
from django.utils import timezone

from config.fields import response_datetime
from config.replicas import read_snapshot
from config.userdata import CACHE_KIND, kinds, user_data_count

FORMAT = 1
CHUNK_SIZE = 500


def _is_vector(field) -> bool:
    """Return whether ``field`` is a pgvector column (vector, halfvec, sparsevec)."""
    db_type = (field.db_type(connection) or "").lower()
    return db_type.startswith(("vector", "halfvec", "sparsevec"))


def _value(value):
    if isinstance(value, datetime.datetime):
        return response_datetime(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode()
    return value


def row_data(obj: models.Model) -> dict:
    """Return a row's concrete columns as JSON values (relations as ids, no vectors)."""
    data = {}
    for field in obj._meta.concrete_fields:
        if _is_vector(field):
            continue
        data[field.attname] = _value(getattr(obj, field.attname))
    return data


def vector_columns(model) -> list[str]:
    """Return the vector columns of ``model`` (left out of the export)."""
    return [f.attname for f in model._meta.concrete_fields if _is_vector(f)]


def _user_line(user) -> dict:
    return {
        "id": user.pk,
        "user_id": user.get_username(),
        "date_joined": _value(getattr(user, "date_joined", None)),
    }


def user_data_export(*, user) -> Iterator[dict]:
    """Yield the export of ``user``: a manifest, a line per row, an end line (see the module)."""
    with read_snapshot():
        counts = user_data_count(user=user)
        declared = kinds()
        yield {
            "type": "manifest",
            "format": FORMAT,
            "generated_at": response_datetime(timezone.now()),
            "user": _user_line(user),
            "counts": counts,
            "kinds": [
                {
                    "name": k.name,
                    "app": k.model._meta.app_label,
                    "model": k.model._meta.label,
                    "rows": not k.erased_with,
                    "count": counts[k.name],
                    "description": k.description
                    or (f"part of {k.erased_with}" if k.erased_with else ""),
                    "left_out_columns": vector_columns(k.model) + list(k.left_out),
                }
                for k in declared
            ]
            + [
                {
                    "name": CACHE_KIND,
                    "app": "rag",
                    "model": "rag.EmbeddingCache",
                    "rows": False,
                    "count": counts[CACHE_KIND],
                    "description": "cached vectors of the user's texts (derived, not exported)",
                    "left_out_columns": [],
                }
            ],
        }
        written = {}
        for kind in declared:
            if kind.erased_with:
                continue
            n = 0
            label = kind.model._meta.label
            for obj in kind.rows(user).order_by("pk").iterator(chunk_size=CHUNK_SIZE):
                n += 1
                data = row_data(obj)
                for column in kind.left_out:
                    data.pop(column, None)
                yield {"type": "row", "kind": kind.name, "model": label, "data": data}
            written[kind.name] = n
        yield {"type": "end", "rows": written}
