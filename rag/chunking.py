"""Chunking primitives: sentence spans, semantic cliffs, parent splitting and child packing.

All functions are pure and work on character offsets (:class:`Span`, end exclusive) so callers
can slice the original text without copying or re-normalising it.

Sentence boundaries
    :func:`split_sentences` cuts after Chinese terminators ``。！？；…`` (runs such as ``……`` or
    ``！？`` stay together), after newlines, and after English ``. ! ?`` when followed by
    whitespace or the end of the text (``!``/``?`` also when followed by a CJK character). A ``.``
    does not end a sentence after a known abbreviation (``e.g.``, ``Dr.``, ``U.S.``) or when the
    next word starts lowercase. Closing quotes and brackets right after the terminator stay with
    the sentence, and the whitespace that follows is attached to it, so the spans tile the text.

Semantic cliffs
    ``sims[i]`` is the cosine similarity of sentences ``i`` and ``i + 1``; a boundary index ``i``
    means "cut between sentence i and i + 1". :func:`find_cliffs` has two modes:

    * ``drop`` (default): min-max scale the similarities of this text to [0, 1],
      ``s'_i = (s_i - min) / (max - min)``; if ``max - min < 1e-6`` there is no cliff. The
      reference of boundary ``i`` is the mean of its neighbours' scaled similarities
      (``s'_{i-1}`` and ``s'_{i+1}``, whichever exist); with a single similarity there is no
      cliff. ``drop_i = reference_i - s'_i``; cut where ``drop_i > threshold``. Scaling makes the
      threshold comparable across models whose raw cosine ranges differ (e.g. 0.80-0.92 for
      multilingual-e5-small).
    * ``percentile``: distance ``d_i = 1 - s_i``; cut where ``d_i`` is greater than the given
      percentile of all ``d`` (``numpy.percentile``, linear interpolation). Needs at least three
      similarities, otherwise there is no cliff.

    ``threshold`` must lie in [0, 1] and ``percentile`` in [0, 100].

Parents and children
    :func:`split_parent` splits an over-long block recursively at its lowest-similarity sentence
    boundary that leaves both sides at least ``min_chars`` long. :func:`pack_sentences` greedily
    packs sentences into child chunks of ``min_chars``..``max_chars`` characters (never more than
    ``hard_max``), closing early at semantic cuts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple

import numpy as np

__all__ = [
    "Span",
    "adjacent_similarities",
    "child_hard_max",
    "find_cliffs",
    "pack_sentences",
    "span_text",
    "split_parent",
    "split_sentences",
]


class Span(NamedTuple):
    """A half-open character range ``[start, end)`` of a text."""

    start: int
    end: int

    @property
    def length(self) -> int:
        """Return the number of characters covered (``len()`` stays the tuple length, 2)."""
        return self.end - self.start


def span_text(text: str, span: Span) -> str:
    """Return the part of text covered by span."""
    return text[span.start : span.end]


# --- sentences ------------------------------------------------------------------------------

_CJK_TERMINATORS = "。！？；…"
_EN_TERMINATORS = ".!?"
_CLOSERS = "”’」』）)]》〉】\"'"
_ABBREVIATION_TEXT = (
    "mr mrs ms dr prof sr jr st vs etc e.g i.e cf al approx fig no vol dept inc ltd co"
)
_ABBREVIATIONS = frozenset(_ABBREVIATION_TEXT.split())
_WORD_BEFORE_DOT = re.compile(r"([A-Za-z](?:[A-Za-z.]*[A-Za-z])?)$")


def _is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def _is_abbreviation(text: str, dot: int) -> bool:
    """Return whether the "." at index dot ends an abbreviation rather than a sentence."""
    # A bounded look-back keeps this O(1) per dot on long texts.
    match = _WORD_BEFORE_DOT.search(text, max(0, dot - 24), dot)
    if match is None:
        return False
    word = match.group(1).lower()
    # "U.S." / "e.g." style: letters separated by dots.
    return word in _ABBREVIATIONS or ("." in word and all(len(p) == 1 for p in word.split(".")))


def split_sentences(text: str) -> list[Span]:
    """Split text into sentence spans that cover it exactly, in order, with no empty span."""
    n = len(text)
    spans: list[Span] = []
    start = i = 0
    while i < n:
        ch = text[i]
        end = None
        if ch == "\n":
            end = i + 1
        elif ch in _CJK_TERMINATORS:
            end = i + 1
            while end < n and text[end] in _CJK_TERMINATORS + "!?":
                end += 1
        elif ch in _EN_TERMINATORS:
            end = i + 1
            while end < n and text[end] in _EN_TERMINATORS:
                end += 1
            after = end
            while after < n and text[after] in _CLOSERS:
                after += 1
            nxt = text[after] if after < n else ""
            if nxt and not nxt.isspace() and not (ch in "!?" and _is_cjk(nxt)):
                end = None  # "3.14", "a.b", "Yahoo!Inc": not a sentence end
            elif ch == "." and end == i + 1 and nxt:
                word_after = text[after:].lstrip()
                if _is_abbreviation(text, i) or word_after[:1].islower():
                    end = None
        if end is None:
            i += 1
            continue
        if ch != "\n":  # after a newline a quote opens the next line instead of closing this one
            while end < n and text[end] in _CLOSERS:
                end += 1
        while end < n and text[end].isspace():
            end += 1
        spans.append(Span(start, end))
        start = i = end
    if start < n:
        spans.append(Span(start, n))
    return spans


# --- similarities and cliffs ----------------------------------------------------------------


def adjacent_similarities(vectors) -> list[float]:
    """Return the cosine similarity of each pair of consecutive vectors (0.0 for zero vectors)."""
    matrix = np.asarray(vectors, dtype=np.float64)
    if matrix.ndim != 2 or len(matrix) < 2:
        return []
    norms = np.linalg.norm(matrix, axis=1)
    norms[norms == 0] = 1.0  # a zero vector has similarity 0 with everything, not NaN
    unit = matrix / norms[:, None]
    return [float(x) for x in np.einsum("ij,ij->i", unit[:-1], unit[1:])]


def find_cliffs(
    sims: Sequence[float],
    *,
    threshold: float = 0.3,
    mode: str = "drop",
    percentile: float = 90.0,
) -> list[int]:
    """Return boundary indices i ("cut between sentence i and i + 1"); see the module docstring."""
    if mode not in ("drop", "percentile"):
        raise ValueError(f"unknown cliff mode {mode!r}; expected 'drop' or 'percentile'")
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be within [0, 1], got {threshold!r}")
    if not 0.0 <= percentile <= 100.0:
        raise ValueError(f"percentile must be within [0, 100], got {percentile!r}")
    values = np.asarray(list(sims), dtype=np.float64)
    if not np.all(np.isfinite(values)):
        raise ValueError("similarities must be finite numbers")
    if mode == "percentile":
        if len(values) < 3:
            return []
        distances = 1.0 - values
        limit = np.percentile(distances, percentile)
        return [int(i) for i in np.flatnonzero(distances > limit)]
    if len(values) < 2:
        return []
    spread = float(values.max() - values.min())
    if spread < 1e-6:
        return []
    scaled = (values - values.min()) / spread
    cuts = []
    for i, value in enumerate(scaled):
        neighbours = scaled[max(i - 1, 0) : i + 2]
        reference = (neighbours.sum() - value) / (len(neighbours) - 1)
        if reference - value > threshold:
            cuts.append(i)
    return cuts


# --- character-level splitting --------------------------------------------------------------

_SOFT_BREAKS = "，、,;；:：)）]】"


def _choose_cut(lo: int, hi: int, ideal: int, boundaries: Sequence[int], text: str | None) -> int:
    """Return a cut position in [lo, hi], preferring sentence ends, then commas, then spaces."""
    candidates = [b for b in boundaries if lo <= b <= hi]
    if not candidates and text is not None:
        candidates = [
            p for p in range(lo, hi + 1) if 0 < p <= len(text) and text[p - 1] in _SOFT_BREAKS
        ]
        if not candidates:
            candidates = [
                p for p in range(lo, hi + 1) if 0 < p <= len(text) and text[p - 1].isspace()
            ]
    if not candidates:
        return ideal
    return min(candidates, key=lambda p: (abs(p - ideal), -p))


def _split_even(
    start: int,
    end: int,
    pieces: int,
    lo: int,
    hi: int,
    *,
    boundaries: Sequence[int] = (),
    text: str | None = None,
) -> list[Span]:
    """Split [start, end) into exactly `pieces` spans, each lo..hi long, near equal sizes.

    The caller guarantees ``pieces * lo <= end - start <= pieces * hi``; every cut keeps the rest
    splittable, so moving a cut to a nicer position can never break a later piece.
    """
    total = end - start
    out = []
    prev = start
    for j in range(1, pieces):
        left = pieces - j  # pieces still to come after this cut
        window_lo = max(prev + lo, end - left * hi)
        window_hi = min(prev + hi, end - left * lo)
        ideal = min(max(start + round(j * total / pieces), window_lo), window_hi)
        cut = _choose_cut(window_lo, window_hi, ideal, boundaries, text)
        out.append(Span(prev, cut))
        prev = cut
    out.append(Span(prev, end))
    return out


def _split_region(
    start: int,
    end: int,
    min_chars: int,
    max_chars: int,
    *,
    boundaries: Sequence[int] = (),
    text: str | None = None,
) -> list[Span]:
    """Split a region longer than max_chars into pieces of min..max chars, else min..2*min.

    Prefer the fewest pieces no longer than max_chars; when those would be shorter than
    min_chars (max_chars < 2 * min_chars), use as many pieces of at least min_chars as fit,
    which are then shorter than 2 * min_chars.
    """
    total = end - start
    pieces = math.ceil(total / max_chars)
    if min_chars > 0 and total // pieces < min_chars:
        pieces = max(1, total // min_chars)
        hi = math.ceil(total / pieces)
    else:
        hi = max_chars
    lo = max(1, min(min_chars, total // pieces))  # never an empty piece
    return _split_even(start, end, pieces, lo, hi, boundaries=boundaries, text=text)


# --- parents --------------------------------------------------------------------------------


def _check_contiguous(spans: Sequence[Span]) -> None:
    for a, b in pairwise(spans):
        if a.end != b.start:
            raise ValueError(f"spans must be contiguous, got {a} followed by {b}")


def split_parent(
    spans: list[Span],
    sims: list[float],
    *,
    max_chars: int = 1500,
    min_chars: int = 150,
    text: str | None = None,
) -> list[Span]:
    """Split the block covered by sentence spans into parent spans of at most max_chars.

    While a piece is too long, cut it at the boundary with the lowest similarity among those
    leaving both sides at least min_chars long (ties: nearest the middle), else at the boundary
    nearest the middle; a single over-long sentence is split at character positions (after a
    comma or space when text is given).
    """
    if max_chars < 1 or min_chars < 0:
        raise ValueError("max_chars must be positive and min_chars non-negative")
    if not spans:
        return []
    if len(sims) != len(spans) - 1:
        raise ValueError(f"expected {len(spans) - 1} similarities, got {len(sims)}")
    _check_contiguous(spans)
    out: list[Span] = []
    # Explicit stack instead of recursion: a long block of tiny sentences would recurse deeply.
    stack = [(0, len(spans) - 1)]
    while stack:
        first, last = stack.pop()
        start, end = spans[first].start, spans[last].end
        if end - start <= max_chars:
            out.append(Span(start, end))
            continue
        if first == last:
            out.extend(_split_region(start, end, 1, max_chars, text=text))
            continue
        middle = (start + end) / 2
        candidates = range(first, last)  # boundary b cuts after sentence b
        balanced = [
            b
            for b in candidates
            if spans[b].end - start >= min_chars and end - spans[b].end >= min_chars
        ]
        if balanced:
            cut = min(balanced, key=lambda b: (sims[b], abs(spans[b].end - middle)))
        else:
            cut = min(candidates, key=lambda b: abs(spans[b].end - middle))
        stack.append((cut + 1, last))  # pushed first so the left half is emitted first
        stack.append((first, cut))
    return out


# --- children -------------------------------------------------------------------------------


def child_hard_max(min_chars: int, max_chars: int) -> int:
    """Return the longest child :func:`pack_sentences` makes by default for these sizes.

    A short tail is merged into the previous chunk, so a chunk may exceed ``max_chars``;
    ``2 * min_chars`` leaves room for that merge.
    """
    return max(max_chars, 2 * min_chars)


def pack_sentences(
    spans: list[Span],
    *,
    min_chars: int = 200,
    max_chars: int = 300,
    hard_max: int | None = None,
    cuts: Iterable[int] = (),
    text: str | None = None,
) -> list[Span]:
    """Pack contiguous sentence spans greedily into chunks covering them exactly, in order.

    A chunk closes at a cut boundary (index i: between sentence i and i + 1) once it holds
    min_chars, and before a sentence that would push it past max_chars once it holds min_chars.
    Over-long sentences are split at character positions (after a comma or space when text is
    given). A final chunk shorter than min_chars is merged into the previous one and the result
    re-split in two if it exceeds hard_max. Every chunk is at most hard_max long and at least
    min_chars long, unless the whole text is shorter than min_chars (then there is one chunk).
    """
    if hard_max is None:
        hard_max = child_hard_max(min_chars, max_chars)
    if not (0 <= min_chars <= max_chars <= hard_max and max_chars >= 1):
        raise ValueError("need 0 <= min_chars <= max_chars <= hard_max and max_chars >= 1")
    if hard_max < 2 * min_chars:
        raise ValueError("hard_max must be at least 2 * min_chars so a short tail can be merged")
    if not spans:
        return []
    _check_contiguous(spans)
    cut_set = set(cuts)
    boundaries = [s.end for s in spans[:-1]]
    chunks: list[Span] = []
    cur = spans[0].start

    def split(start: int, end: int) -> None:
        chunks.extend(
            _split_region(start, end, min_chars, max_chars, boundaries=boundaries, text=text)
        )

    for i, sentence in enumerate(spans):
        held = sentence.start - cur
        if held > 0 and held >= min_chars and held + sentence.length > max_chars:
            chunks.append(Span(cur, sentence.start))
            cur = sentence.start
        if sentence.length > max_chars or sentence.end - cur > hard_max:
            # Too long for one chunk even with what is held (< min_chars): split by characters.
            split(cur, sentence.end)
            cur = sentence.end
        elif i in cut_set and sentence.end > cur and sentence.end - cur >= min_chars:
            chunks.append(Span(cur, sentence.end))
            cur = sentence.end
    end = spans[-1].end
    if cur < end:
        if end - cur >= min_chars or not chunks:
            chunks.append(Span(cur, end))
        else:
            last = chunks.pop()
            if end - last.start <= hard_max:
                chunks.append(Span(last.start, end))
            else:
                # Two pieces always fit: min_chars * 2 <= hard_max < merged < hard_max * 2.
                chunks.extend(
                    _split_even(
                        last.start, end, 2, min_chars, hard_max, boundaries=boundaries, text=text
                    )
                )
    return chunks
