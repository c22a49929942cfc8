"""The stand-in summaries are found through their own index, not by reading every turn."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from memory.models import ChatMessage, Kind
from memory.stand_ins import stand_in_summaries
from tests.memory.memory_helpers import ts


def _rows_removed(plan: dict) -> int:
    """Return the rows every node of an EXPLAIN ANALYZE plan read and filtered out."""
    removed = plan.get("Rows Removed by Filter", 0)
    return removed + sum(_rows_removed(child) for child in plan.get("Plans", []))


@pytest.mark.django_db
def test_looking_for_stand_in_summaries_reads_no_turn_of_the_user(user, fake_vectors):
    fake_vectors(user, 60, chat_of=lambda i: f"c{i % 3}")
    ChatMessage.objects.create(
        user=user,
        message_id="s1",
        chat_id="c1",
        ts=ts(3),
        role="assistant",
        kind=Kind.SUMMARY,
        content="summary of c1",
        search_text="summary of c1",
        covers_until_ts=ts(2),
        covered_count=1000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_chatmessage")
    queryset_sql = []

    def capture(execute, sql, params, many, context):
        queryset_sql.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        found = stand_in_summaries(user=user, flt={})
    assert len(found) == 1
    ((sql, params),) = queryset_sql
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # the choice a large table makes
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    assert _rows_removed(plan[0]["Plan"]) == 0
