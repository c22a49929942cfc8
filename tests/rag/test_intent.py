"""Reading a query against example requests for the surface and for something else."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rag import intent


def _unit(*rows):
    matrix = np.asarray(rows, dtype=np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


ON = _unit([1.0, 0.0, 0.0], [0.8, 0.6, 0.0])
OFF = _unit([0.0, 0.0, 1.0], [0.0, 0.6, 0.8])


def test_a_query_near_a_request_for_something_else_has_a_positive_margin():
    assert intent.intent_margin([0.0, 0.1, 1.0], ON, OFF) > 0


def test_a_query_near_a_request_for_the_surface_has_a_negative_margin():
    assert intent.intent_margin([1.0, 0.1, 0.0], ON, OFF) < 0


def test_the_margin_does_not_depend_on_the_query_vector_length():
    assert intent.intent_margin([0.0, 0.1, 1.0], ON, OFF) == pytest.approx(
        intent.intent_margin([0.0, 5.0, 50.0], ON, OFF)
    )


def test_example_files_skip_comments_and_blank_lines(tmp_path):
    path = tmp_path / "examples.txt"
    path.write_text("# a comment\n\nfirst request\n  second request  \n", encoding="utf-8")
    assert intent.example_texts(path) == ["first request", "second request"]


def _weights_file(tmp_path, key, weights, bias):
    path = tmp_path / "learned.json"
    entry = {"fittedOn": ["dev"], "weights": weights, "bias": bias}
    path.write_text(json.dumps({"about": "test", "models": {key: entry}}), encoding="utf-8")
    return path


def test_the_learned_score_reads_the_active_models_weights(tmp_path, monkeypatch):
    monkeypatch.setattr(intent, "model_key", lambda: "local:m@3")
    path = _weights_file(tmp_path, "local:m@3", [0.0, 0.0, 2.0], -1.0)
    intent.reset()
    assert intent.learned_score([0.0, 0.0, 5.0], path) == pytest.approx(1.0)
    assert intent.learned_score([5.0, 0.0, 0.0], path) == pytest.approx(-1.0)


def test_a_model_the_file_holds_no_weights_for_reads_none(tmp_path, monkeypatch):
    monkeypatch.setattr(intent, "model_key", lambda: "hosted:other@3")
    path = _weights_file(tmp_path, "local:m@3", [0.0, 0.0, 2.0], -1.0)
    intent.reset()
    assert intent.learned_score([0.0, 0.0, 5.0], path) is None


def test_weights_of_another_length_than_the_vector_read_none(tmp_path, monkeypatch):
    monkeypatch.setattr(intent, "model_key", lambda: "local:m@3")
    path = _weights_file(tmp_path, "local:m@3", [0.0, 2.0], -1.0)
    intent.reset()
    assert intent.learned_score([0.0, 0.0, 5.0], path) is None
