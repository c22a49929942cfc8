"""What a search query asks *not* to have, for this app's ranking (issue 30).

「不要户外的，室内玩点什么」, "exercise but no running", "something creative that doesn't
involve drawing": the negated word is a content word of the query like any other, so before
this the hybrid counted a row holding it (the outdoor walk, the 5K run, the life-drawing class)
as naming the query and put it first. ``rag.understand.negation`` reads the stretches of a query
under a negation (:func:`negated_spans`, the one grammar of refusal); the hybrid's order
(``activities.search_ranking``) then counts the words and cues there apart, with their own
fitted weight (``FUSION_WEIGHTS``), instead of as asked for.
"""

from __future__ import annotations

import re

import numpy as np

from rag.understand.listing_negation import mentions_plainly
from rag.understand.negation import asked_text, inside, negated_spans
from rag.understand.negation_refused import refused_phrases

__all__ = [
    "asked_part",
    "away_from_refused",
    "inside",
    "mentions_plainly",
    "negated_spans",
    "negated_terms",
    "refused_phrases",
]

# How much of what a query refuses, apart from what it asks besides, is taken out of its vector
# before the vector search and the relevance cut (:func:`away_from_refused`): 0 leaves it, 1
# takes out the whole component. Measured by the mean nDCG@5 of the refusing queries of the
# eleven development sets (old .. fresh10, 118 queries, multilingual-e5-small), leaving each set
# out: with the refused direction made orthogonal to the asked text's, the other ten chose 1.0
# of the grid 0.35 / 0.7 / 1.0 in all eleven rotations (in sample 0.7 and 1.0 within 0.01); 1.0
# lowered the demo set (bench/activities_search.py, 「一个人也能参加、不用跟人聊天」 0.63 -> 0.43,
# nDCG@5 0.926 -> 0.923), 0.7 keeps it: 0.7 (issue 30, session 41; docs/RELEVANCE.md
# "Refusals, again").
REFUSED_AWAY = 0.7

# Below this share of its own length, what is left of the refused direction once made
# orthogonal to the asked text is rounding noise (~1e-16 when the two are the same text), not a
# direction: nothing is moved. Numerical, not fitted (audit, session 41).
LEFT_NOISE = 1e-6


def negated_terms(text: str, terms: list[str]) -> set[str]:
    """Return the ``terms`` of ``text`` found only under a negation (each occurrence of the
    term, case-insensitive, within a span of :func:`negated_spans`)."""
    spans = negated_spans(text)
    if not spans:
        return set()
    lowered = (text or "").lower()
    out = set()
    for term in terms:
        key = term.lower()
        starts = [m.start() for m in re.finditer(re.escape(key), lowered)]
        if starts and all(inside((s, s + len(key)), spans) for s in starts):
            out.add(term)
    return out


def asked_part(query: str) -> list[str]:
    """Return what ``query`` asks for besides its refusals (its refusals blanked), as a list of
    one text to embed with it, or none when it asks for nothing else."""
    asked = asked_text(query).strip()
    return [asked] if asked else []


def away_from_refused(vector, refused, *, asked=None, weight: float | None = None):
    """Return the query's ``vector`` with ``weight`` (default :data:`REFUSED_AWAY`) of its
    component along what it refuses taken out, renormalised: 「吃东西的活动 不是夜宵」 holds 夜宵
    in its own vector and is nearest the night rows until it is. ``refused``: the vectors of
    :func:`refused_phrases`, their mean direction the one taken out; ``asked``: the vector of
    :func:`asked_part`, or None. The direction taken out is first made orthogonal to what the
    query asks besides: "food thing but no meat" refuses meat, not food, though "meat" is near
    food. All embedded in the query's own call (no call is added). Nothing refused, or nothing
    of it apart from what is asked (:data:`LEFT_NOISE`): ``vector`` itself."""
    weight = REFUSED_AWAY if weight is None else weight
    if not len(refused) or weight <= 0:
        return vector
    query = np.asarray(vector, dtype=np.float64)
    phrases = np.asarray(refused, dtype=np.float64)
    phrases /= np.linalg.norm(phrases, axis=1, keepdims=True).clip(1e-9)
    direction = phrases.mean(axis=0)
    whole = float(np.linalg.norm(direction))
    if asked is not None:
        kept = np.asarray(asked, dtype=np.float64)
        kept /= np.linalg.norm(kept) or 1.0
        direction -= float(direction @ kept) * kept
    left = float(np.linalg.norm(direction))
    if left <= LEFT_NOISE * whole:
        return vector  # what is refused is what is asked ("辣 不要辣"): nothing apart to take out
    direction /= left
    moved = query - weight * float(query @ direction) * direction
    moved /= np.linalg.norm(moved) or 1.0
    return moved.tolist()
