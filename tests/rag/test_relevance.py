"""The relevance cut: decisions from margins over the background, stored parameters."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from config import live
from rag import cut_rules, pool_stats, relevance
from rag.background import Background, model_key
from rag.relevance import Cut, decide
from rag.selectors import rag_settings_get

BG = Background(mean=0.70, high=0.80)  # margin(s) = (s - 0.8) / 0.2


def test_margin_is_the_share_of_the_way_from_the_background_to_a_perfect_match():
    assert BG.margin(0.9) == pytest.approx(0.5)
    assert BG.margin(0.78) == pytest.approx(-0.1)


def test_query_whose_best_hit_is_under_the_gate_is_off_topic_and_keeps_nothing():
    decision = decide([0.81, 0.80, 0.79], BG, Cut(gate=0.1, ratio=None))
    assert decision.off_topic and decision.keep == [False, False, False]
    assert decision.reason and decision.dropped == 3


def test_on_topic_query_without_ratio_keeps_every_hit():
    decision = decide([0.9, 0.75, 0.70], BG, Cut(gate=0.1, ratio=None))
    assert not decision.off_topic and decision.keep == [True, True, True]
    assert decision.reason is None


def test_ratio_drops_hits_far_below_the_best_relative_to_the_background():
    # best margin 0.5; ratio 0.5 keeps margins >= 0.25, i.e. scores >= 0.85
    decision = decide([0.9, 0.86, 0.84], BG, Cut(gate=0.0, ratio=0.5))
    assert decision.keep == [True, True, False] and decision.dropped == 1


def test_depth_drops_hits_more_than_it_below_the_best_margin():
    # margins 0.5, 0.4, 0.3: depth 0.15 keeps those within 0.15 of the best
    decision = decide([0.9, 0.88, 0.86], BG, Cut(gate=0.0, ratio=None, depth=0.15))
    assert decision.keep == [True, True, False] and decision.dropped == 1


def test_keep_best_keeps_that_many_best_hits_whatever_the_per_hit_cut():
    # margins 0.5, 0.1, 0.05, 0.0 (given out of order): depth 0.15 alone keeps only the best
    decision = decide(
        [0.82, 0.9, 0.8, 0.81], BG, Cut(gate=0.0, ratio=None, depth=0.15), keep_best=3
    )
    assert decision.keep == [True, True, False, True] and decision.dropped == 1


def test_keep_best_never_answers_an_off_topic_query():
    decision = decide([0.81, 0.80], BG, Cut(gate=0.1, ratio=None), keep_best=3)
    assert decision.off_topic and decision.keep == [False, False]


# Scores whose margins over BG are 0.5, 0.45, then eighteen rows at 0.1: the pool's mean is 0.14
# and its spread 0.11, so the two best stand 3.2 and 2.8 deviations above it, the rest -0.33.
CROWD = [0.9, 0.89] + [0.82] * 18


def test_pool_rule_keeps_the_hits_standing_out_of_the_querys_own_candidates():
    decision = decide(CROWD, BG, Cut(gate=0.0, ratio=None, pool_z=1.0))
    assert decision.keep == [True, True] + [False] * 18


def test_pool_rule_keeps_good_hits_behind_an_exact_best_one():
    # margins 0.9, 0.4, 0.35, then seventeen at 0.0: a share of the best (0.5 x 0.9) drops the
    # two good rows behind the exact one; against the crowd they stand out (z 1.5, 1.2).
    scores = [0.98, 0.88, 0.87] + [0.80] * 17
    decision = decide(scores, BG, Cut(gate=0.0, ratio=None, pool_z=1.0))
    assert decision.keep == [True, True, True] + [False] * 17
    assert decide(scores, BG, Cut(gate=0.0, ratio=0.5)).keep[1:3] == [False, False]


def test_pool_rule_asks_less_of_a_hit_naming_a_word_of_the_query():
    # margins 0.5, then 0.15 (above the mean 0.12, z 0.3) and 0.1 (below it), the rest 0.1
    scores = [0.9, 0.83] + [0.82] * 18
    evidence = [True, True, True] + [False] * 17
    cut = Cut(gate=0.0, ratio=None, pool_z=1.0, pool_z_evidence=0.0)
    decision = decide(scores, BG, cut, hit_evidence=evidence)
    assert decision.keep == [True, True] + [False] * 18
    assert decide(scores, BG, Cut(gate=0.0, ratio=None, pool_z=1.0)).keep[1] is False


def test_hits_in_the_other_language_read_their_margins_higher():
    # The model scores a query against text in the other language lower: the gates read such
    # a hit's margin CROSS_LIFT higher (best margin 0.08 under a gate of 0.1, not under it).
    cut = Cut(gate=0.1, ratio=None)
    scores = [0.816, 0.81, 0.80]
    assert decide(scores, BG, cut).off_topic
    crossing = decide(scores, BG, cut, crossing=[True] * 3)
    assert not crossing.off_topic
    assert crossing.top_margin == pytest.approx(0.08 + relevance.CROSS_LIFT)


def test_the_foreign_gate_reads_margins_without_the_lift():
    # An English query's margins over the Chinese sample are what the foreign gate was fitted
    # on: a pool of Chinese rows (other language) clears it by its raw margin, not by the lift
    # (best margin 0.08 under a foreign gate of 0.1 stays off-topic, lifted or not).
    cut = Cut(gate=0.0, ratio=None, foreign_gate=0.1)
    scores = [0.816, 0.81, 0.80]
    assert decide(scores, BG, cut, foreign=True, crossing=[True] * 3).off_topic
    assert not decide(scores, BG, Cut(gate=0.1, ratio=None), crossing=[True] * 3).off_topic


def test_keep_best_reads_the_best_hits_by_margin_with_the_lift():
    # Audit, session 42: in a pool of both languages the hit of the other language stands first
    # by its lifted margin (0.225 + CROSS_LIFT over 0.25); keep_best keeps it, not the hit first
    # by raw score, which the depth rule (0) drops.
    cut = Cut(gate=0.0, ratio=None, depth=0.0)
    decision = decide([0.85, 0.845], BG, cut, crossing=[False, True], keep_best=1)
    assert decision.keep == [False, True]


def test_pool_rule_reads_the_spread_of_the_best_twenty_candidates_only():
    # Forty more rows far below change the mean and spread of all the hits, not of the best 20.
    decision = decide(CROWD + [0.5] * 40, BG, Cut(gate=0.0, ratio=None, pool_z=1.0))
    assert decision.keep == [True, True] + [False] * 58


def test_with_the_pool_rule_keep_best_keeps_only_hits_above_the_pool_mean():
    decision = decide(CROWD, BG, Cut(gate=0.0, ratio=None, pool_z=5.0), keep_best=3)
    assert decision.keep == [True, True] + [False] * 18


def test_pool_rule_keeps_the_best_of_hits_that_do_not_spread():
    decision = decide([0.9] * 10, BG, Cut(gate=0.0, ratio=None, pool_z=1.0), keep_best=3)
    assert decision.keep == [True] * 3 + [False] * 7


def test_a_few_candidates_a_filter_left_are_cut_by_the_ratio_not_the_pool_rule():
    # Five rows (fewer than POOL_MIN): all close to the best, all kept, though three stand
    # below the five's mean; the ratio still drops one far below the best.
    cut = Cut(gate=0.0, ratio=0.5, pool_z=1.0)
    assert pool_stats.POOL_MIN > 5
    decision = decide([0.9, 0.9, 0.88, 0.88, 0.84], BG, cut)
    assert decision.keep == [True, True, True, True, False]


@pytest.mark.django_db
def test_stored_pool_rule_is_read_back():
    row = rag_settings_get()
    key = model_key()
    row.relevance_cuts = {key: {"activities": {"gate": 0.0, "poolZ": 1.0, "poolZEvidence": 0.0}}}
    row.full_clean()
    row.save()
    live.invalidate()
    cut = relevance.cut_for("activities")
    assert (cut.pool_z, cut.pool_z_evidence) == (1.0, 0.0)
    assert cut.as_meta()["poolZ"] == 1.0


def test_a_hit_without_evidence_of_its_own_gets_the_bare_depth():
    cut = Cut(gate=0.0, ratio=None, depth=0.25, bare_depth=0.05)
    decision = decide([0.9, 0.88, 0.88], BG, cut, hit_evidence=[True, True, False])
    assert decision.keep == [True, True, False]


def test_no_hits_is_not_off_topic():
    decision = decide([], BG, Cut(gate=0.5, ratio=None))
    assert decision.keep == [] and not decision.off_topic


def test_a_vouched_query_skips_the_margin_gates_but_not_noise_or_intent():
    # The surface read from the query's words that it asks for what a best hit holds (an
    # audience a listing states, session 44): the best margin, below every gate, does not empty it.
    cut = Cut(gate=0.5, ratio=None, bare_gate=0.6, intent_gate=0.0)
    assert decide([0.81, 0.80], BG, cut).off_topic
    vouched = decide([0.81, 0.80], BG, cut, vouched=True, keep_best=1)
    assert not vouched.off_topic and vouched.keep[0]
    assert decide([0.81, 0.80], BG, cut, vouched=True, noise=True).off_topic
    assert decide([0.81, 0.80], BG, cut, vouched=True, intent=0.1).off_topic


def test_query_without_evidence_must_clear_the_bare_gate():
    cut = Cut(gate=0.1, ratio=None, bare_gate=0.3)  # best margin 0.25: between the two
    with_words = decide([0.85, 0.8], BG, cut, evidence=True)
    without = decide([0.85, 0.8], BG, cut, evidence=False)
    assert not with_words.off_topic and with_words.keep == [True, True]
    assert without.off_topic and without.keep == [False, False]
    assert without.reason == relevance.BARE_REASON
    assert without.meta()["evidence"] is False


def test_a_bare_gate_below_the_gate_changes_nothing():
    decision = decide([0.83], BG, Cut(gate=0.1, ratio=None, bare_gate=0.0), evidence=False)
    assert not decision.off_topic  # margin 0.15 clears the gate, the higher of the two


def test_keyboard_noise_is_off_topic_whatever_its_scores():
    decision = decide([0.99, 0.98], BG, Cut(gate=0.0, ratio=None), noise=True)
    assert decision.off_topic and decision.keep == [False, False]
    assert decision.reason == relevance.NOISE_REASON and decision.meta()["noise"] is True


@pytest.mark.django_db
def test_model_without_fitted_parameters_uses_the_uncalibrated_relative_rule():
    row = rag_settings_get()
    row.relevance_cuts = {}
    row.save()
    live.invalidate()
    cut = relevance.cut_for("activities")
    assert (cut.gate, cut.ratio, cut.calibrated) == (0.0, None, False)


@pytest.mark.django_db
def test_stored_bare_gate_is_read_back():
    relevance.store_cut("activities", gate=0.04, ratio=None, bare_gate=0.12)
    cut = relevance.cut_for("activities")
    assert (cut.gate, cut.bare_gate) == (0.04, 0.12)


@pytest.mark.django_db
def test_a_new_fit_keeps_the_parameters_it_does_not_fit():
    row = rag_settings_get()
    key = model_key()
    row.relevance_cuts = {
        key: {"activities": {"gate": 0.0, "ratio": None, "depth": 0.3, "intentGate": 0.0082}}
    }
    row.full_clean()
    row.save()
    entry = relevance.store_cut("activities", gate=0.04, ratio=0.2)
    assert entry == {"gate": 0.04, "ratio": 0.2, "depth": 0.3, "intentGate": 0.0082}
    cut = relevance.cut_for("activities")
    assert (cut.gate, cut.ratio, cut.depth) == (0.04, 0.2, 0.3)


@pytest.mark.django_db
def test_stored_depth_is_read_back():
    row = rag_settings_get()
    key = model_key()
    row.relevance_cuts = {key: {"activities": {"gate": 0.0, "ratio": None, "depth": 0.12}}}
    row.full_clean()
    row.save()
    live.invalidate()
    cut = relevance.cut_for("activities")
    assert (cut.depth, cut.bare_depth) == (0.12, None)


@pytest.mark.django_db
def test_stored_foreign_gate_is_read_back():
    row = rag_settings_get()
    key = model_key()
    row.relevance_cuts = {key: {"activities": {"gate": 0.0, "ratio": None, "foreignGate": -0.15}}}
    row.full_clean()
    row.save()
    live.invalidate()
    assert relevance.cut_for("activities").foreign_gate == -0.15


@pytest.mark.django_db
def test_stored_intent_gate_is_read_back():
    row = rag_settings_get()
    key = model_key()
    row.relevance_cuts = {key: {"activities": {"gate": 0.0, "ratio": None, "intentGate": 0.01}}}
    row.full_clean()
    row.save()
    live.invalidate()
    assert relevance.cut_for("activities").intent_gate == 0.01


@pytest.mark.django_db
def test_stored_cut_is_read_back_for_the_active_model():
    relevance.store_cut("memory", gate=0.07, ratio=0.3, fit={"queries": 3})
    cut = relevance.cut_for("memory")
    assert (cut.gate, cut.ratio, cut.calibrated) == (0.07, 0.3, True)
    stored = rag_settings_get().relevance_cuts[model_key()]["memory"]
    assert stored["fit"] == {"queries": 3}


@pytest.mark.parametrize(
    "value",
    [
        [],
        {"m": []},
        {"m": {"activities": {"ratio": 0.1}}},
        {"m": {"activities": {"gate": "x"}}},
        {"m": {"activities": {"gate": 2}}},
        {"m": {"activities": {"gate": 0.1, "ratio": 3}}},
        {"m": {"activities": {"gate": True}}},
        {"m": {"activities": {"gate": 0.1, "bareGate": "high"}}},
        {"m": {"activities": {"gate": 0.1, "bareGate": 1.5}}},
        {"m": {"activities": {"gate": 0.1, "depth": -0.1}}},
        {"m": {"activities": {"gate": 0.1, "bareDepth": "deep"}}},
        {"m": {"activities": {"gate": 0.1, "foreignGate": "low"}}},
        {"m": {"activities": {"gate": 0.1, "foreignGate": -1.5}}},
        {"m": {"activities": {"gate": 0.1, "foreignGate": True}}},
        {"m": {"activities": {"gate": 0.1, "intentGate": "wide"}}},
        {"m": {"activities": {"gate": 0.1, "intentGate": 1.5}}},
    ],
)
@pytest.mark.django_db
def test_live_settings_reject_malformed_relevance_cuts(value):
    row = rag_settings_get()
    row.relevance_cuts = value
    with pytest.raises(ValidationError) as info:
        row.full_clean()
    assert "relevance_cuts" in info.value.message_dict


def test_a_foreign_query_is_read_with_the_foreign_gate_alone():
    # The reference sample is Chinese: an English query's margin over it means less.
    cut = Cut(gate=0.1, ratio=None, bare_gate=0.3, foreign_gate=-0.2)  # best margin -0.1
    assert decide([0.78], BG, cut, evidence=False).off_topic
    english = decide([0.78], BG, cut, evidence=False, foreign=True)
    assert not english.off_topic and english.keep == [True]


def test_a_foreign_query_under_the_foreign_gate_is_off_topic():
    cut = Cut(gate=0.1, ratio=None, foreign_gate=0.0)
    decision = decide([0.78], BG, cut, foreign=True)
    assert decision.off_topic and decision.reason == relevance.OFF_TOPIC_REASON


def test_without_a_foreign_gate_a_foreign_query_clears_the_usual_gates():
    cut = Cut(gate=0.1, ratio=None, bare_gate=0.3)
    assert decide([0.85], BG, cut, evidence=False, foreign=True).reason == relevance.BARE_REASON


def test_a_query_reading_as_a_request_for_something_else_is_off_topic_whatever_its_scores():
    decision = decide([0.99, 0.95], BG, Cut(gate=0.0, ratio=None, intent_gate=0.0), intent=0.02)
    assert decision.off_topic and decision.keep == [False, False]
    assert decision.reason == relevance.INTENT_REASON
    assert decision.meta()["intentMargin"] == 0.02


def test_a_request_for_something_else_is_answered_when_a_hit_is_close():
    # best margin 0.95: at or above intent_close, a listing is close (a budgeting class for a
    # money question), so the intent margin alone does not make the query off-topic.
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.0, intent_close=0.3)
    decision = decide([0.99, 0.95], BG, cut, intent=0.02)
    assert not decision.off_topic and decision.keep == [True, True]


def test_a_request_for_something_else_with_no_close_hit_stays_off_topic():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.0, intent_close=0.3)
    decision = decide([0.85, 0.82], BG, cut, intent=0.02)  # best margin 0.25 < 0.3
    assert decision.off_topic and decision.reason == relevance.INTENT_REASON


def test_a_query_the_learned_gate_reads_as_elsewhere_is_off_topic_under_the_intent_gate():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.01, intent_close=0.3)
    decision = decide([0.85, 0.82], BG, cut, intent=0.0, learned=0.5)  # best margin 0.25
    assert decision.off_topic and decision.reason == relevance.INTENT_REASON
    assert decision.meta()["intentLearned"] == 0.5


def test_a_query_the_learned_gate_reads_as_elsewhere_is_answered_when_a_hit_is_close():
    # the slope adds nothing for it: past the gate by the learned score alone, intent_close holds
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.01, intent_close=0.3, intent_slope=100.0)
    decision = decide([0.9, 0.85], BG, cut, intent=0.0, learned=0.5)  # best margin 0.5
    assert not decision.off_topic


def test_a_learned_score_at_or_under_zero_leaves_the_intent_margin_to_decide():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.01, intent_close=0.3)
    assert not decide([0.85, 0.82], BG, cut, intent=0.0, learned=-0.5).off_topic


def test_a_query_whose_words_ask_is_not_read_by_the_learned_gate():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.01, intent_close=0.3)
    assert not decide([0.85, 0.82], BG, cut, intent=0.0, learned=0.5, asked=True).off_topic


def test_the_further_a_request_reads_as_one_for_something_else_the_closer_a_hit_must_be():
    # best margin 0.5 (score 0.9 over BG): enough just past the gate (0.3 + 5 x 0.01 = 0.35),
    # not far past it (0.3 + 5 x 0.1 = 0.8): a weather question beside a rainy-day listing.
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.0, intent_close=0.3, intent_slope=5.0)
    assert not decide([0.9], BG, cut, intent=0.01).off_topic
    far = decide([0.9], BG, cut, intent=0.1)
    assert far.off_topic and far.reason == relevance.INTENT_REASON


@pytest.mark.django_db
def test_stored_intent_close_and_slope_are_read_back():
    row = rag_settings_get()
    key = model_key()
    row.relevance_cuts = {
        key: {
            "activities": {
                "gate": 0.0,
                "intentGate": 0.01,
                "intentClose": 0.2,
                "intentSlope": 6.0,
            }
        }
    }
    row.full_clean()
    row.save()
    live.invalidate()
    cut = relevance.cut_for("activities")
    assert (cut.intent_close, cut.intent_slope) == (0.2, 6.0)
    assert cut.as_meta()["intentSlope"] == 6.0


@pytest.mark.django_db
def test_a_negative_intent_slope_is_refused():
    row = rag_settings_get()
    key = model_key()
    row.relevance_cuts = {key: {"activities": {"gate": 0.0, "intentSlope": -1.0}}}
    with pytest.raises(ValidationError):
        row.full_clean()


def test_a_query_reading_as_a_request_for_the_surface_clears_the_intent_gate():
    decision = decide([0.9, 0.85], BG, Cut(gate=0.0, ratio=None, intent_gate=0.0), intent=-0.02)
    assert not decision.off_topic and decision.keep == [True, True]


def test_a_measured_intent_under_the_gate_lifts_the_margin_gates():
    cut = Cut(gate=0.0, ratio=None, bare_gate=0.1, intent_gate=0.0)
    decision = decide([0.7], BG, cut, evidence=False, intent=-0.03)  # best margin -0.5
    assert not decision.off_topic and decision.keep == [True]


def test_a_time_windows_rows_keep_the_margin_gates_whatever_the_intent():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.0)
    decision = decide([0.7], BG, cut, intent=-0.03, window=True)
    assert decision.off_topic and decision.reason == relevance.OFF_TOPIC_REASON


def test_an_unmeasured_intent_leaves_the_margin_gates_in_place():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.0)
    decision = decide([0.7], BG, cut, intent=None)
    assert decision.off_topic and decision.reason == relevance.OFF_TOPIC_REASON


def test_a_query_whose_words_ask_is_kept_from_the_intent_gate():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.0)
    decision = decide([0.9], BG, cut, intent=0.05, asked=True)  # best margin 0.5
    assert not decision.off_topic


def test_a_query_whose_words_ask_reads_its_measured_intent_for_the_margin_gates():
    cut = Cut(gate=0.0, ratio=None, bare_gate=0.1, intent_gate=0.0)
    lifted = decide([0.7], BG, cut, evidence=False, intent=-0.03, asked=True)
    gated = decide([0.7], BG, cut, evidence=False, intent=0.03, asked=True)
    assert not lifted.off_topic and gated.off_topic


def test_a_measured_intent_under_the_gate_does_not_lift_the_question_rule():
    cut = Cut(gate=0.0, ratio=None, intent_gate=0.0)
    assert decide([0.7], BG, cut, question=True, intent=-0.03).off_topic


def test_without_an_intent_gate_the_intent_margin_decides_nothing():
    decision = decide([0.9], BG, Cut(gate=0.0, ratio=None), intent=0.5)
    assert not decision.off_topic


def test_a_request_for_something_else_is_off_topic_even_with_no_candidate():
    decision = decide([], BG, Cut(gate=0.0, ratio=None, intent_gate=0.0), intent=0.02)
    assert decision.off_topic and decision.reason == relevance.INTENT_REASON


def test_judge_reads_the_intent_margin_only_when_the_cut_has_an_intent_gate(monkeypatch):
    asked = []

    def margin():
        asked.append(True)
        return 0.5

    monkeypatch.setattr(relevance, "background_of", lambda vector: BG)
    monkeypatch.setattr(relevance, "cut_for", lambda surface: Cut(gate=0.0, ratio=None))
    assert not relevance.judge([1.0], [0.9], "activities", intent=margin).off_topic
    assert asked == []
    gated = Cut(gate=0.0, ratio=None, intent_gate=0.0)
    monkeypatch.setattr(relevance, "cut_for", lambda surface: gated)
    assert relevance.judge([1.0], [0.9], "activities", intent=margin).off_topic
    assert asked == [True]


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"gate": 0.0, "ratio": 1.5}, "m.activities.ratio: use null or a number from -2 to 1."),
        (
            {"gate": 0.0, "bareRatio": True},
            "m.activities.bareRatio: use null or a number from -2 to 1.",
        ),
        ({"gate": 0.0, "depth": -0.1}, "m.activities.depth: use null or a number from 0 to 2."),
        (
            {"gate": 0.0, "bareGate": "x"},
            "m.activities.bareGate: use null or a number from -1 to 1.",
        ),
        (
            {"gate": 0.0, "intentGate": 2},
            "m.activities.intentGate: use null or a number from -1 to 1.",
        ),
        ({"gate": 1.5}, "m.activities.gate: use a number from -1 to 1."),
        ({"gate": 0.0, "poolZ": 6}, "m.activities.poolZ: use null or a number from -5 to 5."),
    ],
)
def test_a_cut_parameter_out_of_its_range_is_named(params, error):
    assert cut_rules.validate_cuts({"m": {"activities": params}}) == error


def test_a_cut_with_every_parameter_in_range_is_valid():
    params = {"gate": 0.0, "ratio": None, "bareRatio": 0.7, "depth": 0.3, "intentGate": 0.0082}
    assert cut_rules.validate_cuts({"m": {"activities": params}}) is None


# Twenty scores: the best far above nineteen that spread a little (standout about 8).
STANDING_OUT = [0.95] + [0.80 + 0.002 * n for n in range(19)]
EVEN = [0.95, 0.949, 0.948] + [0.80 + 0.002 * n for n in range(17)]


def test_a_rare_word_named_by_a_standing_out_hit_answers_a_query_past_the_intent_gate():
    cut = Cut(gate=-1.0, ratio=None, intent_gate=0.0, intent_close=0.9)
    decision = decide(STANDING_OUT, BG, cut, intent=0.02, learned=-0.5, named_rare=True)
    assert not decision.off_topic and decision.meta()["namedRare"] is True


def test_a_rare_word_named_by_a_hit_among_equals_leaves_the_query_off_topic():
    cut = Cut(gate=-1.0, ratio=None, intent_gate=0.0, intent_close=0.9)
    decision = decide(EVEN, BG, cut, intent=0.02, learned=-0.5, named_rare=True)
    assert decision.off_topic and decision.reason == relevance.INTENT_REASON


def test_a_rare_word_named_does_not_answer_a_query_the_learned_gate_reads_elsewhere():
    cut = Cut(gate=-1.0, ratio=None, intent_gate=0.0, intent_close=0.9)
    decision = decide(STANDING_OUT, BG, cut, intent=0.02, learned=0.5, named_rare=True)
    assert decision.off_topic and decision.reason == relevance.INTENT_REASON


def test_without_a_rare_word_named_a_standing_out_hit_leaves_the_query_off_topic():
    cut = Cut(gate=-1.0, ratio=None, intent_gate=0.0, intent_close=0.9)
    assert decide(STANDING_OUT, BG, cut, intent=0.02, learned=-0.5).off_topic


def test_standout_reads_nothing_from_two_scores_or_equal_others():
    assert pool_stats.standout([0.9, 0.5]) == 0.0
    assert pool_stats.standout([0.9, 0.5, 0.5, 0.5]) == 0.0


def test_a_rare_word_named_does_not_answer_a_query_no_learned_gate_read():
    # another model, no learned weights: the rule was judged only with the learned gate's veto
    cut = Cut(gate=-1.0, ratio=None, intent_gate=0.0, intent_close=0.9)
    assert decide(STANDING_OUT, BG, cut, intent=0.02, named_rare=True).off_topic
