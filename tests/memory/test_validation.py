"""A search filter as SQL selects what the ORM filter selects."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from memory.models import ChatMessage, Kind
from memory.validation import apply_filter, filter_sql
from tests.memory.memory_helpers import BASE_TS


@pytest.mark.django_db
@pytest.mark.parametrize(
    "flt",
    [
        {},
        {"role": "user"},
        {"chat_id": "b", "kind": Kind.MESSAGE},
        {"kind": Kind.SUMMARY},
        {"since": BASE_TS + timedelta(minutes=2), "until": BASE_TS + timedelta(minutes=5)},
        {"role": "assistant", "since": BASE_TS + timedelta(minutes=3), "chat_id": "a"},
    ],
)
def test_filter_sql_selects_the_rows_apply_filter_selects(user, flt):
    for i in range(8):
        ChatMessage.objects.create(
            user=user,
            message_id=f"m{i}",
            chat_id="ab"[i % 2],
            ts=BASE_TS + timedelta(minutes=i),
            role="user" if i % 3 else "assistant",
            kind=Kind.SUMMARY if i == 6 else Kind.MESSAGE,
            content=f"turn {i}",
        )
    conditions, params = filter_sql(flt, "m")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT m.id FROM memory_chatmessage m WHERE m.user_id = %s{conditions}",
            [user.pk, *params],
        )
        found = sorted(pk for (pk,) in cursor.fetchall())
    expected = sorted(
        apply_filter(ChatMessage.objects.filter(user=user), flt).values_list("pk", flat=True)
    )
    assert found == expected
    assert found  # every filter here passes some rows: an empty answer would prove nothing
