"""The learned precision gate of the activity search (activities/search_ranker.py)."""

from __future__ import annotations

import pytest

from activities import search_ranker
from activities.search import activities_search
from activities.search_ranker import Pool, features, unlikely


def _pool(margins, held, *, terms=("玩水",), english=False) -> Pool:
    return Pool(
        margins=tuple(margins),
        held=tuple(frozenset(h) for h in held),
        cues=tuple(0 for _ in margins),
        terms=tuple(terms),
        english=english,
    )


def test_every_candidate_gets_one_row_of_features():
    pool = _pool([0.3, 0.2, 0.05], [{"玩水"}, set(), set()])
    assert features(pool).shape == (3, len(search_ranker.FEATURES))
    assert len(search_ranker.WEIGHTS) == len(search_ranker.FEATURES)


def test_the_first_hit_stays_however_unlikely():
    pool = _pool([0.3, 0.29, 0.28], [set(), set(), set()])
    assert 0 not in unlikely(pool, [0, 1, 2], threshold=1.0)
    assert unlikely(pool, [0, 1, 2], threshold=1.0) == {1, 2}


def test_a_hit_far_below_the_best_naming_nothing_goes_before_one_naming_the_query():
    margins = [0.35, 0.3, 0.28] + [0.05 - 0.002 * i for i in range(17)]
    held = [{"玩水"}, {"玩水"}, {"玩水"}] + [set()] * 17
    drop = unlikely(_pool(margins, held), list(range(20)))
    assert {1, 2}.isdisjoint(drop)
    assert set(range(3, 20)) <= drop


@pytest.mark.django_db
@pytest.mark.real_model
class TestInTheSearch:
    # Relevance: ranked by meaning, so the real model (docs/DEVELOPING.md).

    def test_the_gate_only_drops_rows_and_keeps_the_order(self, demo_activities, monkeypatch):
        gated = [r["title"] for r in activities_search(semantic_query="玩水", limit=10)["results"]]
        monkeypatch.setattr(search_ranker, "THRESHOLD", 0.0)
        ungated = [
            r["title"] for r in activities_search(semantic_query="玩水", limit=10)["results"]
        ]
        assert gated and gated[0] == ungated[0]
        assert gated == [t for t in ungated if t in gated]

    def test_a_list_stops_where_relevance_stops(self, demo_activities, monkeypatch):
        monkeypatch.setattr(search_ranker, "THRESHOLD", 1.0)  # nothing after the first is likely
        results = activities_search(semantic_query="周末想去爬山", limit=10)["results"]
        assert len(results) == 1

    def test_an_off_topic_query_still_answers_nothing(self, demo_activities):
        outcome = activities_search(semantic_query="量子力学考试复习", limit=10)
        assert outcome["results"] == []
        assert outcome["meta"]["relevance"]["offTopic"] is True
