"""activities 0006: activity vectors stay in the table rows, not in the TOAST table."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def _toast_bytes(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = %s", [table]
        )
        return cursor.fetchone()[0]


def test_a_wide_activity_keeps_its_vector_inline(make_activity):
    # A 2.5 kB row: with pgvector's EXTERNAL storage its 1.5 kB vector went to the TOAST table.
    # Compared with the size before: rows of earlier tests, rolled back, leave their TOAST pages
    # until a vacuum (the order of tests differs with CHECK_WORKERS).
    toast_before = _toast_bytes("activities_activity")
    activity = make_activity(description="安静的读书会，" * 40)
    activity.embedding = [0.05] * 384
    activity.save(update_fields=["embedding"])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_size(t.*) FROM activities_activity t WHERE id = %s", [activity.pk]
        )
        assert cursor.fetchone()[0] > 2100
    assert _toast_bytes("activities_activity") == toast_before
