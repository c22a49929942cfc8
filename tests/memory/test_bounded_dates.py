"""Message dates stay in 1970..2100; rows stored out of range before that are repaired.

A ``ts`` past year 10000 UTC (``9999-12-31T23:59:59-14:00``) was stored, and then every read of
that user failed (psycopg cannot read such a timestamp) and the user could not be erased. The
migration ``0005_bounded_dates`` clamps such rows; after it the user's reads and erasure work.
"""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from memory.models import ChatMessage
from memory.services import messages_write

pytestmark = pytest.mark.django_db

REPAIR_SQL = importlib.import_module("memory.migrations.0005_bounded_dates").REPAIR_SQL


@pytest.fixture
def broken_row(user):
    """A message of ``user`` whose ``ts`` was stored in year 10000 UTC, as before the bound."""
    messages_write(
        user=user,
        items=[
            {"message_id": "ok", "ts": "2024-05-01T12:00:00Z", "role": "user", "content": "火锅"},
            {"message_id": "bad", "ts": "2024-05-01T12:00:01Z", "role": "user", "content": "火锅"},
        ],
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE memory_chatmessage SET ts = TIMESTAMPTZ '10000-01-01 09:59:59+00', "
            "covers_until_ts = TIMESTAMPTZ '0149-03-30 02:28:19+00' WHERE message_id = 'bad'"
        )
    return "bad"


def repair():
    with connection.cursor() as cursor:
        for statement in REPAIR_SQL:
            cursor.execute(statement)


def test_repair_clamps_dates_into_range(broken_row):
    repair()
    row = ChatMessage.objects.get(message_id=broken_row)
    assert row.ts.isoformat() == "2099-12-31T23:59:59+00:00"
    assert row.covers_until_ts.isoformat() == "1970-01-01T00:00:00+00:00"
    assert ChatMessage.objects.get(message_id="ok").ts.year == 2024


def test_repair_leaves_in_range_rows_alone(user):
    messages_write(
        user=user,
        items=[{"message_id": "a", "ts": "2099-12-31T23:00:00Z", "role": "user", "content": "x"}],
    )
    before = list(ChatMessage.objects.values_list("ts", flat=True))
    repair()
    assert list(ChatMessage.objects.values_list("ts", flat=True)) == before


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/v1/users/alice/messages", None),
        ("get", "/v1/users/alice/chats/default/context", None),
        ("post", "/v1/messages/lexical_search", {"user_id": "alice", "query_text": "火锅"}),
        (
            "post",
            "/v1/messages/semantic_search",
            {"user_id": "alice", "query_embedding": [0.05] * 384, "min_score": -1},
        ),
        ("delete", "/v1/users/alice", None),
    ],
)
def test_after_the_repair_reads_and_erasure_of_that_user_answer_200(
    broken_row, api_client, method, path, body
):
    repair()
    response = getattr(api_client, method)(path, body, format="json")
    assert response.status_code == 200, response.content[:300]


def test_the_model_refuses_an_out_of_range_ts(user):
    """The admin's forms run the model's validators: year 10000 UTC is refused there too."""
    from datetime import UTC, datetime

    row = ChatMessage(
        user=user,
        message_id="m",
        chat_id="c",
        ts=datetime(2100, 1, 1, tzinfo=UTC),
        role="user",
        kind="message",
        content="x",
    )
    with pytest.raises(ValidationError) as caught:
        row.full_clean()
    assert "ts" in caught.value.message_dict
