"""The search response built directly (``search_output``) is what ``SearchOutputSerializer``,
the schema of ``POST /rag/search``, writes: same keys, order and values."""

from __future__ import annotations

import pytest
from rest_framework.renderers import JSONRenderer

from activities.search import activities_search
from activities.serializers import (
    SearchOutputSerializer,
    SearchResultSerializer,
    search_output,
    search_result_output,
)

# The searches rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = [pytest.mark.django_db, pytest.mark.real_model]

PEOPLES_SQUARE = {"lat": 31.2304, "lng": 121.4737}


def rendered(body) -> bytes:
    return JSONRenderer().render(body)


@pytest.mark.parametrize(
    "request_body",
    [
        {"semantic_query": "周末想找个安静的地方看书", "limit": 10},
        {
            "semantic_query": "附近能玩水的活动",
            "filters": {"location": {**PEOPLES_SQUARE, "radiusInKm": 30}},
        },
        {"semantic_query": "", "filters": {"location": PEOPLES_SQUARE}, "limit": 5},
        {"semantic_query": "桌游", "filters": {"type": "桌游"}},
        {"semantic_query": "asdfghjkl"},
        {"semantic_query": "这周六晚上想去喝一杯", "limit": 5},
        {"semantic_query": "附近安静的地方", "filters": {"location": PEOPLES_SQUARE}},
    ],
)
def test_search_output_renders_as_the_serializer_does(demo_activities, request_body):
    result = activities_search(**request_body)
    assert result["results"] or result["meta"]["reason"]
    assert rendered(search_output(result)) == rendered(SearchOutputSerializer(result).data)


def test_the_shared_meta_serializer_renders_each_search_on_its_own(demo_activities):
    first = activities_search(semantic_query="周末想找个安静的地方看书", limit=10)
    second = activities_search(semantic_query="asdfghjkl")
    expected = rendered(SearchOutputSerializer(first).data)
    search_output(second)
    assert rendered(search_output(first)) == expected


def test_a_result_with_nulls_renders_as_the_serializer_does():
    item = {
        "id": 7,
        "title": "周六下午桌游局",
        "type": "桌游",
        "startAt": "2026-11-28T14:00:00+08:00",
        "locationName": "",
        "distanceKm": None,
        "similarity": None,
        "boost": 0.0,
        "score": None,
        "matchReason": "符合筛选条件的只有这 1 个。",
        "provenance": {
            "source": {"type": "activity", "id": 7},
            "retrievedBy": "hard_filter_small",
            "hybrid": False,
            "personalised": None,
            "scores": {"similarity": None, "boost": 0.0, "score": None},
        },
    }
    expected = SearchResultSerializer(item).data
    assert list(search_result_output(item)) == list(SearchResultSerializer().fields)
    assert rendered(search_result_output(item)) == rendered(expected)
