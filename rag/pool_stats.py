"""Where a score stands among a query's candidates: the statistics the relevance rules read.

Business-agnostic and model-agnostic: standard scores over the query's own best candidates,
which are as spread or as compressed as the model and the query make them
(``rag.relevance``'s pool rule and the rare-word rescue, the activities ranker's features).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# The pool rule reads a hit against the mean and spread of the query's best this many candidates
# (fewer when fewer passed the filters), so the rule does not change with the ``limit`` that
# sized the candidate pool (the activities search reads at least this many, whatever the
# limit). The activities search's pool at its benchmarks' limit 10, where the rule was fitted
# (docs/RELEVANCE.md, "Pool rule").
STAT_POOL = 20
# Fewer candidates than this are what a filter left, not a crowd read by similarity: the pool
# rule does not apply to them (a type filter leaving five water activities keeps all five).
# Not fitted: half of STAT_POOL.
POOL_MIN = 10


def standout(scores: Sequence[float]) -> float:
    """Return how many standard deviations the best of ``scores`` stands above the others'
    mean (0.0 with fewer than three scores or no spread among the others)."""
    ordered = np.sort(np.asarray(scores, dtype=np.float64))[::-1]
    if len(ordered) < 3:
        return 0.0
    spread = float(ordered[1:].std())
    if spread < 1e-9:
        return 0.0
    return (float(ordered[0]) - float(ordered[1:].mean())) / spread


def pool_scores(margins: Sequence[float]) -> list[float]:
    """Return each margin's standard score over the best :data:`STAT_POOL` of ``margins``:
    how many standard deviations it stands above their mean (all 0.0 when they do not spread).
    """
    best = np.sort(np.asarray(margins, dtype=np.float64))[::-1][:STAT_POOL]
    spread = float(best.std())
    if spread < 1e-9:
        return [0.0] * len(margins)
    mean = float(best.mean())
    return [(float(m) - mean) / spread for m in margins]
