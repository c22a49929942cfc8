"""A request made of a time and "what is there" only keeps its window's rows (issue 30,
session 48: docs/RELEVANCE.md, "Requests that name nothing but a time")."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

import pytest

from activities.search import activities_search
from activities.search_relevance import keeps_window
from activities.understanding import read_query

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")


def _window_rows(outcome) -> int:
    """Return how many joinable rows the search counted in the query's time window."""
    assert outcome["meta"]["understood"]["time"]["applied"] == "filter"
    return outcome["meta"]["candidates"]


@pytest.mark.parametrize("query", ["下周有什么好玩的", "what's on next week"])
def test_a_time_and_what_is_there_keeps_every_row_of_the_window_up_to_the_limit(
    demo_activities, query
):
    outcome = activities_search(semantic_query=query, limit=20)
    assert outcome["meta"]["relevance"]["offTopic"] is False
    assert outcome["meta"]["relevance"]["dropped"] == 0
    assert len(outcome["results"]) == min(20, _window_rows(outcome))


def test_a_time_and_what_is_there_stops_at_the_limit(demo_activities):
    outcome = activities_search(semantic_query="下周有什么好玩的", limit=5)
    assert _window_rows(outcome) > 5
    assert len(outcome["results"]) == 5


def test_a_time_and_a_kind_is_still_cut_to_the_rows_of_that_kind(demo_activities):
    vague = activities_search(semantic_query="下周有什么好玩的", limit=20)
    kind = activities_search(semantic_query="下周有什么水上活动", limit=20)
    assert len(kind["results"]) < len(vague["results"])


def test_a_request_of_this_form_judged_off_topic_keeps_nothing():
    now = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)
    understood = read_query("下周有什么好玩的", now=now, tz=SHANGHAI)
    assert keeps_window(understood, {"relevance": {"offTopic": True}}) is False
