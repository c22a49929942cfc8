"""Exports and chat streams: a cap per user and in all, a wall-clock limit each."""

from __future__ import annotations

import json
import socket

import pytest
from django.core.signals import request_finished
from django.db import close_old_connections, connection

from config.streams import CappedStream, stream_slot

pytestmark = pytest.mark.django_db

JSONL = "application/x-ndjson"


@pytest.fixture(autouse=True)
def caps(settings):
    """One stream per user, ten in all; slots a failing test left held are given back."""
    settings.STREAM_MAX_PER_USER = 1
    settings.STREAM_MAX_TOTAL = 10
    yield settings
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock_all()")


def export(client, username):
    return client.get(f"/v1/users/{username}/export", HTTP_ACCEPT=JSONL)


def close(response):
    """Close a response unread, as the server does when its client goes away.

    The test's database connection stays open (what the test client does when it closes).
    """
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def read_lines(response) -> list[dict]:
    body = b"".join(response.streaming_content).decode()  # the test client closes it at the end
    return [json.loads(line) for line in body.splitlines()]


def assert_refused(response):
    assert response.status_code == 429
    error = response.json()["error"]
    assert (error["code"], set(error)) == ("RATE_LIMITED", {"code", "message", "details"})
    assert int(response["Retry-After"]) > 0


def test_a_second_export_of_a_user_is_refused_while_the_first_streams(api_client, user):
    first = export(api_client, user.username)
    assert first.status_code == 200

    assert_refused(export(api_client, user.username))
    close(first)


def test_another_user_is_not_held_back_by_a_users_cap(api_client, other_client, user, other_user):
    first = export(api_client, user.username)

    second = export(other_client, other_user.username)

    assert second.status_code == 200
    close(first)
    close(second)


def test_the_cap_in_all_refuses_a_stream_of_anyone(
    api_client, other_client, user, other_user, caps
):
    caps.STREAM_MAX_TOTAL = 1
    first = export(api_client, user.username)

    assert_refused(export(other_client, other_user.username))
    close(first)


def test_a_chat_stream_shares_the_users_cap_with_exports(api_client, user):
    first = export(api_client, user.username)

    response = api_client.post(
        "/api/agent/chat/stream",
        {"message": "你好"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )

    assert_refused(response)
    close(first)


def test_a_finished_export_gives_its_slot_back(api_client, user):
    lines = read_lines(export(api_client, user.username))
    assert lines[-1]["type"] == "end"

    assert export(api_client, user.username).status_code == 200


def test_an_export_closed_unread_gives_its_slot_back(api_client, user):
    close(export(api_client, user.username))  # the client went away before the first byte

    assert export(api_client, user.username).status_code == 200


def test_an_export_past_its_wall_clock_limit_ends_with_an_error_line(api_client, user, caps):
    caps.EXPORT_MAX_SECONDS = 1e-9

    lines = read_lines(export(api_client, user.username))

    assert lines[-1]["type"] == "error"
    assert lines[-1]["error"]["code"] == "UNAVAILABLE"
    assert all(line["type"] != "end" for line in lines)


def test_a_slow_reader_can_block_a_write_for_the_time_left_at_most(user):
    server_side, client_side = socket.socketpair()
    with server_side, client_side:
        stream = CappedStream(
            iter([b"x" * 10]),
            stream_slot(user.pk),
            max_seconds=30,
            on_deadline=b"",
            environ={"gunicorn.socket": server_side},
        )
        assert next(iter(stream)) == b"x" * 10
        # The server's sendall of this chunk fails after the time left, not never.
        assert 0 < server_side.gettimeout() <= 30
        stream.close()
