"""``activities.search_results``: how the activity search shows a hit and says where it came
from (moved out of activities/search.py unchanged; the search's own tests cover it end to end)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from activities.search_results import provenance, result_of

# A fixed instant: nothing here reads the clock.
START = datetime(2026, 11, 28, 19, 30, tzinfo=UTC)


def _activity(**extra):
    return SimpleNamespace(
        pk=7,
        title="Pottery wheel taster",
        type="workshop",
        start_at=START,
        location_name="Stoneybatter",
        **extra,
    )


def test_a_result_without_a_query_has_no_similarity_or_score():
    result = result_of(_activity())

    assert result["id"] == 7
    assert result["title"] == "Pottery wheel taster"
    assert result["similarity"] is None and result["score"] is None
    assert result["distanceKm"] is None
    assert result["matchReason"] == ""
    assert result["_obj"].pk == 7  # kept for the match reason, popped before the answer


def test_a_result_carries_its_distance_when_the_search_had_a_place():
    result = result_of(_activity(distance_km=1.234567), similarity=0.8, score=0.9)

    assert result["distanceKm"] == 1.23
    assert result["similarity"] is not None and result["score"] is not None


def test_provenance_cites_the_activity_and_the_path_that_found_it():
    result = result_of(_activity(), similarity=0.8, score=0.9)
    meta = {"path": "semantic", "hybrid": True, "personalised": None}

    cited = provenance(result, meta)

    assert cited["source"] == {"type": "activity", "id": 7}
    assert cited["retrievedBy"] == "semantic"
    assert cited["hybrid"] is True
    assert set(cited["scores"]) == {"similarity", "boost", "score"}


def test_provenance_says_not_hybrid_when_the_meta_does_not_say_so():
    cited = provenance(result_of(_activity()), {"path": "hard_filter", "personalised": None})

    assert cited["hybrid"] is False
    assert cited["retrievedBy"] == "hard_filter"
