"""``rag.search.rrf`` and ``rag.search.maxsim``."""

from __future__ import annotations

import math

import pytest

from rag.search import maxsim, rrf


def scores(fused) -> dict:
    return {f.key: f.score for f in fused}


def test_rrf_sums_reciprocal_ranks_with_the_given_k():
    fused = rrf([["a", "b", "c"], ["c", "d"]], k=10)
    assert scores(fused) == pytest.approx(
        {"a": 1 / 11, "b": 1 / 12, "c": 1 / 13 + 1 / 11, "d": 1 / 12}
    )


def test_rrf_orders_by_score_then_first_appearance():
    fused = rrf([["a", "b", "c"], ["c", "d"]], k=10)
    assert [f.key for f in fused] == ["c", "a", "b", "d"]


def test_rrf_records_the_rank_in_each_list():
    fused = {f.key: f.ranks for f in rrf([["a", "b", "c"], ["c", "d"]], k=10)}
    assert fused == {"a": [1, None], "b": [2, None], "c": [3, 1], "d": [None, 2]}


def test_rrf_k_changes_the_scores():
    assert scores(rrf([["x"], ["x"]], k=1)) == pytest.approx({"x": 1.0})
    assert scores(rrf([["x"], ["x"]], k=60)) == pytest.approx({"x": 2 / 61})


def test_rrf_counts_a_key_once_per_list():
    assert scores(rrf([["a", "a", "b"]], k=0)) == pytest.approx({"a": 1.0, "b": 1 / 3})


def test_rrf_of_no_lists_is_empty():
    assert rrf([], k=60) == [] and rrf([[], []], k=60) == []


@pytest.mark.django_db
def test_rrf_default_k_is_the_live_fusion_k(live_settings):
    live_settings.fusion_k = 5
    live_settings.save()
    assert scores(rrf([["a"]])) == pytest.approx({"a": 1 / 6})


def test_maxsim_returns_the_best_cosine_similarity():
    assert maxsim([1.0, 0.0], [[0.0, 1.0], [1.0, 1.0], [-1.0, 0.0]]) == pytest.approx(
        1 / math.sqrt(2)
    )


def test_maxsim_ignores_vector_lengths():
    assert maxsim([3.0, 0.0], [[0.5, 0.0]]) == pytest.approx(1.0)


def test_maxsim_of_nothing_is_none():
    assert maxsim([1.0, 0.0], []) is None


def test_maxsim_of_a_zero_vector_is_none():
    assert maxsim([0.0, 0.0], [[1.0, 0.0]]) is None
