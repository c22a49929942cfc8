"""The learned precision gate of the activity search: a hit that can only be called "similar"
and is unlikely to be relevant is dropped.

Issue 30 asks for methods fitted on data rather than word lists, and notes that a result whose
reason can only say "similar" is a sign it should not be there. After the relevance cut
(rag/relevance.py) and the fused order, each hit after the first that names nothing of the
query (none of its words, kinds or moods: ``activities.search_ranking.naming_pks``) is read
by a logistic model (:data:`WEIGHTS`, :data:`INTERCEPT`) over a few features of where it
stands among the query's candidates (:data:`FEATURES`): its margin over the query's
background, its standard score among the candidates, how far below the best hit it stands,
its dense rank, and whether the query is English. Under :data:`THRESHOLD` it is dropped. The
order is left as it is (a learned order was no better than the fused one), and a hit naming
the query is never dropped here (docs/RELEVANCE.md, "Learned precision gate"). Refit with
``bench/activities_fit_ranker.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from activities.search_relevance import foreign_query
from rag import relevance

FEATURES = ("margin", "pool_z", "below_best", "dense_rank", "english")
# Fitted by bench/activities_fit_ranker.py (2026-11-26, multilingual-e5-small) on the hits
# naming nothing of the query of every on-topic query of the three development sets: old
# dev+test, fresh and fresh2 (bench/data/activities_*_queries.jsonl), L2 1.0, each query
# weighing 1. THRESHOLD: the best precision@10 whose nDCG@5 stays within 0.005 of the cut
# without the gate in each language, on the same three sets; fitted and chosen on two sets,
# each rotation raised P@10 on the third (docs/RELEVANCE.md, "Learned precision gate").
WEIGHTS = (1.3594, -0.1678, -9.3697, -0.7263, -0.2983)  # in FEATURES order
INTERCEPT = 0.7223
THRESHOLD = 0.1
# The first hit of an on-topic list always stays: no labelled query answered empty.
KEEP_FIRST = 1


@dataclass(frozen=True)
class Pool:
    """What the gate reads of one query's candidates (dense order), as plain data."""

    margins: tuple[float, ...]  # each candidate's margin over the query's background
    named: tuple[bool, ...]  # whether each candidate names a word, kind or mood of the query
    english: bool  # the query is read as English


def pool_of(hits: list, margins: list[float], *, named: set, understood) -> Pool:
    """Return the :class:`Pool` of ``hits`` (dense order) with their ``margins``; ``named``:
    the pks of the hits naming the query (``activities.search_ranking.naming_pks``)."""
    return Pool(
        margins=tuple(float(m) for m in margins),
        named=tuple(hit.obj.pk in named for hit in hits),
        english=foreign_query(understood),
    )


def features(pool: Pool) -> np.ndarray:
    """Return one row of :data:`FEATURES` per candidate of ``pool``."""
    if not pool.margins:
        return np.zeros((0, len(FEATURES)))
    z = relevance.pool_scores(list(pool.margins))
    top = max(pool.margins)
    english = 1.0 if pool.english else 0.0
    return np.asarray(
        [
            [margin, z[i], top - margin, math.log1p(i), english]
            for i, margin in enumerate(pool.margins)
        ],
        dtype=np.float64,
    )


def unlikely(pool: Pool, shown: list[int], *, threshold=None, weights=None, intercept=None) -> set:
    """Return the candidates (indices into ``pool``) of ``shown`` (the list in its final order)
    to drop: after the first :data:`KEEP_FIRST`, those naming nothing of the query whose
    probability is under ``threshold``. Defaults: the fitted :data:`THRESHOLD`,
    :data:`WEIGHTS` and :data:`INTERCEPT` (the bench passes its own while fitting)."""
    threshold = THRESHOLD if threshold is None else threshold
    weights = np.asarray(WEIGHTS if weights is None else weights, dtype=np.float64)
    intercept = INTERCEPT if intercept is None else intercept
    p = 1.0 / (1.0 + np.exp(-(features(pool) @ weights + intercept)))
    return {
        i for n, i in enumerate(shown) if n >= KEEP_FIRST and not pool.named[i] and p[i] < threshold
    }


def likely_hits(candidates: list, shown: list, vector, *, named: set, understood):
    """Return ``shown`` (the hits of ``candidates`` an on-topic search keeps, in their final
    order) without those :func:`unlikely` to be relevant. ``candidates``: every hit the
    relevance cut judged, dense order (the features read the query's whole pool); ``named``:
    the pks of those naming the query (``activities.search_ranking.naming_pks``)."""
    background = relevance.background_of(vector)  # embedded already by the relevance cut
    margins = [background.margin(hit.score) for hit in candidates]
    pool = pool_of(candidates, margins, named=named, understood=understood)
    index = {hit.obj.pk: i for i, hit in enumerate(candidates)}
    drop = unlikely(pool, [index[hit.obj.pk] for hit in shown])
    return [hit for hit in shown if index[hit.obj.pk] not in drop]
