"""``rag.db.InlineVectors``: the searched vector columns are stored in their rows."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "table", ["activities_activity", "memory_chatmessage", "writing_childchunk"]
)
def test_every_searched_vector_column_has_main_storage_and_a_whole_page_target(table):
    # The table itself, or each of its partitions (memory's messages: memory migration 0013).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.attstorage, c.reloptions FROM pg_attribute a "
            "JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE a.attname = 'embedding' AND c.relkind = 'r' AND c.oid IN "
            "(SELECT %s::regclass UNION SELECT relid FROM pg_partition_tree(%s) WHERE isleaf)",
            [table, table],
        )
        rows = cursor.fetchall()
    assert rows
    for storage, options in rows:
        assert storage == "m"
        assert "toast_tuple_target=8160" in (options or [])
