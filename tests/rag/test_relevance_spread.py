"""The relevance cut's z rules: each hit read against the query's own level over the corpus."""

from __future__ import annotations

import numpy as np
import pytest
from django.core.exceptions import ValidationError

from rag import live, relevance
from rag.relevance import Background, Cut, Spread, decide

BG = Background(mean=0.0, high=0.0)  # the margin gates pass every positive score below
OPEN = {"gate": -1.0, "ratio": None}


def test_z_is_the_distance_from_the_query_mean_in_standard_deviations():
    spread = Spread(mean=0.80, std=0.02)
    assert spread.z(0.86) == pytest.approx(3.0)
    assert spread.z(0.79) == pytest.approx(-0.5)


def test_a_best_hit_that_does_not_stand_out_from_the_query_level_is_off_topic():
    # High raw similarity, but every listing is about as close: no answer.
    flat = Spread(mean=0.88, std=0.02)
    decision = decide([0.90, 0.89, 0.89], BG, Cut(**OPEN, z_gate=2.0), spread=flat)
    assert decision.off_topic and decision.keep == [False, False, False]
    assert decision.reason == relevance.SPREAD_REASON
    assert decision.meta()["topZ"] == pytest.approx(1.0)


def test_the_same_scores_stand_out_against_a_lower_level():
    low = Spread(mean=0.80, std=0.02)
    decision = decide([0.90, 0.89, 0.89], BG, Cut(**OPEN, z_gate=2.0), spread=low)
    assert not decision.off_topic and decision.keep == [True, True, True]


def test_z_floor_drops_hits_that_do_not_stand_out():
    spread = Spread(mean=0.80, std=0.02)  # z: 5, 2.5, 1
    decision = decide([0.90, 0.85, 0.82], BG, Cut(**OPEN, z_floor=2.0), spread=spread)
    assert decision.keep == [True, True, False] and decision.dropped == 1


def test_z_depth_drops_hits_far_below_the_best_hit():
    spread = Spread(mean=0.80, std=0.02)  # z: 5, 4, 2.5
    decision = decide([0.90, 0.88, 0.85], BG, Cut(**OPEN, z_depth=1.5), spread=spread)
    assert decision.keep == [True, True, False]


def test_a_lone_strong_hit_keeps_only_itself_under_the_depth():
    spread = Spread(mean=0.80, std=0.02)
    decision = decide([0.92, 0.84, 0.83], BG, Cut(**OPEN, z_depth=1.0), spread=spread)
    assert decision.keep == [True, False, False]


def test_a_time_window_is_judged_by_the_depth_alone():
    # Anything on tomorrow evening: nothing in the window stands out from every listing, and
    # nothing needs to; the depth still stops the list where its hits fall away.
    spread = Spread(mean=0.80, std=0.02)  # z: 0.5, 0, -2
    cut = Cut(**OPEN, z_gate=1.0, z_floor=1.0, z_depth=1.0)
    decision = decide([0.81, 0.80, 0.76], BG, cut, spread=spread, narrowed=True)
    assert not decision.off_topic and decision.keep == [True, True, False]
    assert decide([0.81, 0.80, 0.76], BG, cut, spread=spread).off_topic


def test_without_a_spread_the_z_rules_do_not_apply():
    decision = decide([0.90, 0.50], BG, Cut(**OPEN, z_gate=9.0, z_floor=9.0))
    assert not decision.off_topic and decision.keep == [True, True]
    assert decision.top_z is None


def test_the_margin_gate_still_decides_before_the_z_rules():
    spread = Spread(mean=0.50, std=0.02)
    decision = decide(
        [0.70], Background(mean=0.7, high=0.8), Cut(gate=0.0, ratio=None, z_gate=2.0), spread=spread
    )
    assert decision.off_topic and decision.reason == relevance.OFF_TOPIC_REASON


def test_spread_of_reads_the_query_against_the_sample():
    sample = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    spread = relevance.spread_of([2.0, 0.0], sample)  # similarities 1 and 0
    assert (spread.mean, spread.std, spread.rows) == pytest.approx((0.5, 0.5, 2))


@pytest.fixture
def sampled(monkeypatch):
    """A registered test surface whose sampler counts its calls and whose rows can change."""
    state = {"calls": 0, "rows": 40, "token": 1}
    rng = np.random.default_rng(0)

    def sampler(model, n):
        state["calls"] += 1
        return rng.normal(size=(min(n, state["rows"]), 8)).tolist()

    monkeypatch.setitem(relevance._samplers, "test-surface", (sampler, lambda: state["token"]))
    relevance.forget_sample()
    yield state
    relevance.forget_sample()


def test_the_sample_is_drawn_once_while_the_rows_stay_the_same(sampled):
    first = relevance.corpus_sample("test-surface")
    again = relevance.corpus_sample("test-surface")
    assert first is again and sampled["calls"] == 1
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0)


def test_the_sample_is_drawn_again_when_rows_are_added_or_forgotten(sampled):
    relevance.corpus_sample("test-surface")
    sampled["token"] = 2
    relevance.corpus_sample("test-surface")
    relevance.forget_sample("test-surface")
    relevance.corpus_sample("test-surface")
    assert sampled["calls"] == 3


def test_too_few_rows_give_no_spread(sampled):
    sampled["rows"] = relevance.SPREAD_MIN_ROWS - 1
    assert relevance.spread_for("test-surface", [1.0] * 8) is None


def test_a_surface_without_a_sampler_gives_no_spread():
    assert relevance.spread_for("no-such-surface", [1.0, 0.0]) is None


@pytest.mark.django_db
def test_stored_z_rules_are_read_back():
    row = live.get_settings()
    key = relevance.model_key()
    stored = {"gate": -0.06, "ratio": None, "zGate": 2.5, "zFloor": 1.0, "zDepth": 2.0}
    row.relevance_cuts = {key: {"activities": stored}}
    row.full_clean()
    row.save()
    live.invalidate()
    cut = relevance.cut_for("activities")
    assert (cut.z_gate, cut.z_floor, cut.z_depth) == (2.5, 1.0, 2.0) and cut.uses_spread


@pytest.mark.parametrize(
    "params", [{"zGate": "high"}, {"zFloor": 99}, {"zDepth": -1}, {"zDepth": True}]
)
@pytest.mark.django_db
def test_live_settings_reject_malformed_z_rules(params):
    row = live.get_settings()
    row.relevance_cuts = {"m": {"activities": {"gate": 0.0, **params}}}
    with pytest.raises(ValidationError) as info:
        row.full_clean()
    assert "relevance_cuts" in info.value.message_dict


def test_a_best_hit_under_the_floor_is_nothing_fits_said_as_such():
    spread = Spread(mean=0.80, std=0.02)  # z: 1, 0.5
    decision = decide([0.82, 0.81], BG, Cut(**OPEN, z_floor=1.5), spread=spread)
    assert decision.off_topic and decision.reason == relevance.SPREAD_REASON
