"""The fit of the relevance cut (rag/calibration.py): the gates it chooses, the graded labels."""

from __future__ import annotations

from rag import calibration
from rag.background import Background
from rag.calibration import Labelled

BG = Background(mean=0.70, high=0.80)  # margin(s) = (s - 0.8) / 0.2


def _item(query, scores, relevant, evidence=True):
    return Labelled(
        query=query, scores=scores, relevant=set(relevant), background=BG, evidence=evidence
    )


def test_fit_puts_the_gate_between_off_topic_and_on_topic_best_margins():
    items = [
        _item("on1", {"a": 0.9, "b": 0.86, "x": 0.81}, ["a", "b"]),
        _item("on2", {"c": 0.88, "x": 0.80}, ["c"]),
        _item("off1", {"a": 0.82, "x": 0.80}, []),
        _item("off2", {"b": 0.81, "x": 0.79}, []),
    ]
    result = calibration.fit(items, k=3)
    assert result.off_topic_empty == 1.0 and result.relevant_lost == 0.0
    assert 0.1 < result.gate < 0.4  # between off-topic best (0.1) and on-topic best (0.4)
    assert result.precision > result.precision_before


def test_fit_never_exceeds_the_loss_limit():
    # The off-topic query scores above an on-topic one: emptying it would lose relevant hits.
    items = [
        _item("on", {"a": 0.83}, ["a"]),
        _item("off", {"b": 0.9}, []),
    ]
    result = calibration.fit(items, k=1, max_lost=0.0)
    assert result.relevant_lost == 0.0 and result.off_topic_empty == 0.0


def test_fit_sets_a_bare_gate_when_queries_without_evidence_separate():
    # "off" (no evidence, margin 0.3) beats "on_words" (margin 0.2): one gate cannot empty it
    # without losing a relevant hit, a gate for queries without evidence can.
    items = [
        _item("on_words", {"a": 0.84}, ["a"], evidence=True),
        _item("off", {"b": 0.86}, [], evidence=False),
        _item("on_bare", {"c": 0.90}, ["c"], evidence=False),
    ]
    result = calibration.fit(items, k=1, max_lost=0.0)
    assert result.gate <= 0.2 and 0.3 < result.bare_gate < 0.5
    assert result.off_topic_empty == 1.0 and result.relevant_lost == 0.0


def test_fit_leaves_the_bare_gate_unset_when_it_empties_nothing_more():
    items = [
        _item("on", {"a": 0.9}, ["a"], evidence=False),
        _item("off", {"b": 0.81}, [], evidence=True),
    ]
    result = calibration.fit(items, k=1)
    assert result.bare_gate is None and result.off_topic_empty == 1.0


def test_graded_labels_count_from_grade_two():
    assert calibration.relevant_keys({"a": 3, "b": 2, "c": 1}) == {"a", "b"}
    assert calibration.relevant_keys(["a"]) == {"a"}
