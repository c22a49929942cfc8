"""The Server-Timing header (config/timing.py)."""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from config import timing
from config.timing import header_value

HYB = "/v1/messages/hybrid_search"


def spans(response) -> dict[str, tuple[float, str | None]]:
    """Return {name: (milliseconds, description)} of a response's Server-Timing header."""
    out = {}
    for part in response["Server-Timing"].split(", "):
        name = part.split(";")[0]
        dur = float(re.search(r"dur=([\d.]+)", part).group(1))
        desc = re.search(r'desc="([^"]*)"', part)
        out[name] = (dur, desc.group(1) if desc else None)
    return out


def test_a_hybrid_search_reports_its_sql_its_embedding_and_its_whole_time(api_client, user):
    # The first search of a process also embeds the relevance reference sample, once.
    api_client.post(HYB, {"user_id": user.username, "query_text": "热身"}, format="json")
    body = {"user_id": user.username, "query_text": "一个新的问题：周末吃什么火锅"}
    with CaptureQueriesContext(connection) as queries:
        response = api_client.post(HYB, body, format="json")

    assert response.status_code == 200
    got = spans(response)
    assert got["db"][1] == f"{len(queries)} queries"
    assert got["embed"][1] == "1 call"
    assert got["app"][0] >= got["db"][0] + got["embed"][0]


def test_a_request_that_embeds_nothing_has_no_embed_span(api_client, user):
    response = api_client.get(f"/v1/users/{user.username}/messages")

    assert response.status_code == 200
    assert "embed" not in spans(response)
    assert "app" in spans(response)


def test_the_header_can_be_turned_off(api_client, user, settings):
    settings.SERVER_TIMING = False

    response = api_client.get(f"/v1/users/{user.username}/messages")

    assert response.status_code == 200
    assert "Server-Timing" not in response


def test_header_value_names_counts_in_words():
    record = timing.Record()
    record.add("db", 0.0021)
    record.add("db", 0.0010)
    record.add("embed", 0.0152)

    assert header_value(record, 40.04) == (
        'db;dur=3.1;desc="2 queries", embed;dur=15.2;desc="1 call", app;dur=40.0'
    )
