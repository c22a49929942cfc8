"""The similarity chart of the staff chapter page."""

from __future__ import annotations

from writing.svg import similarity_chart


def test_chart_without_similarities_says_they_were_not_compared():
    svg = similarity_chart([], [], [])
    assert "not compared" in svg and "<polyline" not in svg


def test_chart_marks_each_cut():
    svg = similarity_chart([0.9, 0.2, 0.8], [1], [])
    assert "cut after sentence 1" in svg
