"""Tests for rag.chunking (pure, no Django, no database)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.chunking import (
    Span,
    adjacent_similarities,
    find_cliffs,
    pack_sentences,
    span_text,
    split_parent,
    split_sentences,
)


def assert_tiles(spans: list[Span], start: int, end: int) -> None:
    """Assert spans are non-empty and cover [start, end) exactly, in order."""
    assert spans, "expected at least one span"
    assert spans[0].start == start
    assert spans[-1].end == end
    for a, b in zip(spans, spans[1:], strict=False):
        assert a.end == b.start
    assert all(s.end > s.start for s in spans)


def texts(text: str) -> list[str]:
    return [span_text(text, s) for s in split_sentences(text)]


# --- split_sentences ----------------------------------------------------------------------------


def test_span_basics():
    span = Span(2, 5)
    assert span.length == 3
    assert len(span) == 2  # still a plain 2-tuple for numpy/psycopg
    assert span_text("abcdefg", span) == "cde"


def test_chinese_terminators_and_closing_quotes():
    text = "他说：“你好。”然后走了！！真的吗？是的；好吧……最后"
    assert texts(text) == ["他说：“你好。”", "然后走了！！", "真的吗？", "是的；", "好吧……", "最后"]


def test_english_sentences_decimals_and_abbreviations():
    text = "Pi is 3.14 today. See e.g. the docs! Dr. Smith agrees? Yes."
    assert texts(text) == [
        "Pi is 3.14 today. ",
        "See e.g. the docs! ",
        "Dr. Smith agrees? ",
        "Yes.",
    ]


def test_newlines_and_whitespace_attach_to_previous_sentence():
    text = '第一行\n\n第二行。  Third line\n"Quoted" start'
    assert texts(text) == ["第一行\n\n", "第二行。  ", "Third line\n", '"Quoted" start']


def test_mixed_language_punctuation():
    assert texts("真的吗?好的! OK. 结束") == ["真的吗?", "好的! ", "OK. ", "结束"]
    assert texts("Yahoo!Inc 很好") == ["Yahoo!Inc 很好"]  # "!" inside a word does not split


def test_empty_and_whitespace_only():
    assert split_sentences("") == []
    assert split_sentences("   ") == [Span(0, 3)]


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("ab 中文。！？；….!?\n”」）\"'3,"), max_size=80) | st.text()
)
def test_split_sentences_tiles_any_text(text):
    spans = split_sentences(text)
    if text:
        assert_tiles(spans, 0, len(text))
    else:
        assert spans == []


# --- similarities and cliffs --------------------------------------------------------------------


def test_adjacent_similarities():
    sims = adjacent_similarities([[1, 0], [2, 2], [0, 0], [0, 3]])
    assert sims == pytest.approx([np.sqrt(0.5), 0.0, 0.0])
    assert adjacent_similarities([[1, 0]]) == []
    assert adjacent_similarities([]) == []
    normalised = adjacent_similarities(np.eye(3))
    assert normalised == pytest.approx([0.0, 0.0])


def test_find_cliffs_drop_mode_is_scale_free():
    raw = [0.90, 0.85, 0.90, 0.91, 0.82, 0.90]  # e5-small style: a narrow high range
    assert find_cliffs(raw) == [1, 4]
    # The same shape on another model's scale gives the same cuts.
    assert find_cliffs([0.2 + (s - 0.8) * 5 for s in raw]) == [1, 4]
    assert find_cliffs(raw, threshold=1.0) == []


def test_find_cliffs_drop_mode_edges():
    assert find_cliffs([]) == []
    assert find_cliffs([0.1]) == []  # a single similarity has no reference
    assert find_cliffs([0.5, 0.5, 0.5000001]) == []  # flat: max - min < 1e-6
    # Ends use their only neighbour: scaled [0, 1] -> drop at 0 is 1.0.
    assert find_cliffs([0.2, 0.9]) == [0]


def test_find_cliffs_percentile_mode():
    sims = [0.9, 0.8, 0.2, 0.85, 0.95, 0.3]
    assert find_cliffs(sims, mode="percentile", percentile=80) == [2]
    assert find_cliffs(sims, mode="percentile", percentile=50) == [1, 2, 5]
    assert find_cliffs([0.1, 0.9], mode="percentile") == []  # needs at least 3


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mode": "kmeans"},
        {"threshold": -0.1},
        {"threshold": 1.5},
        {"percentile": -1},
        {"percentile": 101, "mode": "percentile"},
    ],
)
def test_find_cliffs_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        find_cliffs([0.1, 0.5, 0.9], **kwargs)


# --- split_parent -------------------------------------------------------------------------------


def _spans(lengths: list[int]) -> list[Span]:
    out, pos = [], 0
    for n in lengths:
        out.append(Span(pos, pos + n))
        pos += n
    return out


def test_split_parent_cuts_at_lowest_similarity():
    spans = _spans([100] * 6)
    parents = split_parent(spans, [0.9, 0.2, 0.9, 0.5, 0.9], max_chars=300, min_chars=100)
    assert parents == [Span(0, 200), Span(200, 400), Span(400, 600)]


def test_split_parent_respects_min_chars_then_falls_back_to_middle():
    spans = _spans([50, 250, 250, 50])
    # The lowest similarities (boundaries 0 and 2) leave a 50-char side, so boundary 1 wins.
    assert split_parent(spans, [0.0, 0.5, 0.1], max_chars=400, min_chars=100) == [
        Span(0, 300),
        Span(300, 600),
    ]
    # No boundary leaves both sides >= min_chars: cut nearest the middle.
    assert split_parent(_spans([300, 300]), [0.9], max_chars=500, min_chars=400) == [
        Span(0, 300),
        Span(300, 600),
    ]


def test_split_parent_splits_single_long_sentence_by_characters():
    text = "一二三四五，" * 100  # 600 chars with commas every 6
    parents = split_parent([Span(0, 600)], [], max_chars=250, min_chars=50, text=text)
    assert_tiles(parents, 0, 600)
    assert all(p.length <= 250 for p in parents)
    assert all(text[p.end - 1] == "，" for p in parents)  # cut after commas


def test_split_parent_validates():
    assert split_parent([], []) == []
    with pytest.raises(ValueError):
        split_parent(_spans([10, 10]), [])
    with pytest.raises(ValueError):
        split_parent([Span(0, 5), Span(6, 9)], [0.5])


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 900), min_size=1, max_size=30),
    data=st.data(),
    max_chars=st.integers(50, 1500),
    min_chars=st.integers(0, 300),
)
def test_split_parent_properties(lengths, data, max_chars, min_chars):
    spans = _spans(lengths)
    sims = data.draw(st.lists(st.floats(-1, 1), min_size=len(spans) - 1, max_size=len(spans) - 1))
    parents = split_parent(spans, sims, max_chars=max_chars, min_chars=min_chars)
    assert_tiles(parents, 0, spans[-1].end)
    assert all(p.length <= max_chars for p in parents)
    # Parents only cut inside a sentence when that sentence alone is too long.
    ends = {s.end for s in spans}
    for p in parents[:-1]:
        if p.end not in ends:
            sentence = next(s for s in spans if s.start < p.end < s.end)
            assert sentence.length > max_chars


# --- pack_sentences -----------------------------------------------------------------------------


def test_pack_closes_at_cut_once_min_reached():
    spans = _spans([120] * 6)
    chunks = pack_sentences(spans, min_chars=200, max_chars=300, cuts=[1])
    assert chunks[0] == Span(0, 240)
    assert_tiles(chunks, 0, 720)


def test_pack_ignores_cut_before_min():
    chunks = pack_sentences(_spans([120] * 4), min_chars=200, max_chars=300, cuts=[0])
    assert chunks == [Span(0, 240), Span(240, 480)]


def test_pack_merges_short_tail_and_resplits_when_too_long():
    # 250 + 50: the tail is merged (300 <= hard_max 400).
    assert pack_sentences(_spans([250, 50]), min_chars=200, max_chars=300) == [Span(0, 300)]
    # 300 + 150 = 450 > hard_max 400: re-split into two pieces within [200, 400].
    chunks = pack_sentences(_spans([300, 150]), min_chars=200, max_chars=300)
    assert_tiles(chunks, 0, 450)
    assert len(chunks) == 2 and all(200 <= c.length <= 400 for c in chunks)


def test_pack_splits_long_sentence_at_soft_breaks():
    text = ("这是一个很长的句子，" * 80) + "完。"
    spans = split_sentences(text)
    chunks = pack_sentences(spans, min_chars=200, max_chars=300, text=text)
    assert_tiles(chunks, 0, len(text))
    assert all(200 <= c.length <= 300 for c in chunks)
    assert all(text[c.end - 1] in "，。" for c in chunks)


def test_pack_short_text_is_one_chunk():
    assert pack_sentences(_spans([30, 40]), min_chars=200, max_chars=300) == [Span(0, 70)]
    assert pack_sentences([]) == []


@pytest.mark.parametrize(
    "kwargs",
    [
        {"min_chars": 300, "max_chars": 200},
        {"min_chars": 200, "max_chars": 300, "hard_max": 250},
        {"min_chars": 200, "max_chars": 300, "hard_max": 399},
        {"min_chars": 0, "max_chars": 0},
    ],
)
def test_pack_validates_bounds(kwargs):
    with pytest.raises(ValueError):
        pack_sentences(_spans([10]), **kwargs)


_words = st.sampled_from(
    ["我们", "今天", "吃", "火锅", "不吃辣", "，", "、", "hello", "world", " ", ", ", "3.14"]
)
_sentence = st.tuples(
    st.lists(_words, min_size=1, max_size=120).map("".join),
    st.sampled_from(["。", "！", "？", ". ", "\n", "……", ""]),
).map("".join)


@st.composite
def packing_cases(draw):
    text = "".join(draw(st.lists(_sentence, min_size=1, max_size=25)))
    spans = split_sentences(text)
    cuts = draw(st.sets(st.integers(-1, len(spans) + 1), max_size=len(spans)))
    min_chars = draw(st.integers(0, 250))
    max_chars = draw(st.integers(max(min_chars, 1), 400))
    slack = draw(st.integers(0, 200))
    hard_max = draw(st.sampled_from([None, max(max_chars, 2 * min_chars) + slack]))
    return text, spans, sorted(cuts), min_chars, max_chars, hard_max


@settings(max_examples=200, deadline=None)
@given(packing_cases(), st.booleans())
def test_pack_sentences_guarantees(case, pass_text):
    text, spans, cuts, min_chars, max_chars, hard_max = case
    chunks = pack_sentences(
        spans,
        min_chars=min_chars,
        max_chars=max_chars,
        hard_max=hard_max,
        cuts=cuts,
        text=text if pass_text else None,
    )
    limit = hard_max if hard_max is not None else max(max_chars, 2 * min_chars)
    assert_tiles(chunks, 0, len(text))
    assert all(c.length <= limit for c in chunks)
    if len(text) < min_chars:
        assert len(chunks) == 1
    else:
        assert all(c.length >= min_chars for c in chunks)
    # A cut is only crossed when one of its sides is too short to stand alone.
    for i in cuts:
        if not 0 <= i < len(spans) - 1:
            continue
        position = spans[i].end
        for chunk in chunks:
            if chunk.start < position < chunk.end:
                assert position - chunk.start < min_chars or len(text) - position < min_chars
