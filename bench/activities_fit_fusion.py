"""Fit the activities hybrid's order (the learned fusion) and check it by set (issue 30).

The hybrid orders the hits the relevance cut keeps by a linear score over
``activities.search_ranking.FUSION_FEATURES`` of each candidate: its dense score's standard
score among the query's candidates, the share of the query's content words it holds (rarer
words among the candidates weigh more), its kind and mood cues, and what it holds of what the
query refuses (``activities.negation``): the share of its refused words a candidate holds, and
its similarity to the refused phrases (embedded with the query). This bench fits the weights.

The development data are eight sets written apart, all seen already: the old held-out dev+test
(bench/data/activities_heldout_queries.jsonl, set "old"), fresh, fresh2, fresh3, fresh4,
fresh5, fresh6 and fresh7 (two more cities each). Any later split is the test set and is never
read here.

Every query goes through ``activities_search`` once with every per-hit rule and the precision
gate open (``bench.activities_cut_cv.record``, which keeps what the fusion reads of each
candidate). Offline, a pairwise logistic regression (numpy, no intercept, L2 on the
standardised weights, each query weighing 1) is fitted on every pair of candidates of an
on-topic query whose grades differ (grade in the query's window). The list is then replayed as
the service builds it: the shipped cut (``bench.activities_fit_ranker.CUT``), this order, the
shipped precision gate.

Rotations: fit on all sets but one (the weights after :data:`KEPT`), measure on that one, for
each; printed per set and language (nDCG@5, P@10) beside the bare model and the reciprocal-rank
fusion of the dense, lexical and cue ranks the learned order replaced (the ranks replayed from
the same recording, RRF constant 60). Then it fits on all eight sets and prints the weights to
store in activities/search_ranking.py.

    .venv/bin/python bench/activities_fit_fusion.py --save /tmp/fusion.pkl
    .venv/bin/python bench/activities_fit_fusion.py --load /tmp/fusion.pkl
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_cut_cv import recorded  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_fusion"
SETS = DEV_SETS
LANGS = ("zh", "en")
L2 = 1.0  # ridge on the standardised weights
RRF_K = 60  # the fusion constant of the reciprocal-rank fusion replaced (rag's default)
# The first weights kept as shipped while the others are fitted: pool_z, coverage and cues as
# fitted on old dev+test, fresh, fresh2 and fresh3 (refitted with the refusal features on the
# eight sets they reshuffled plain queries: fresh3 en "leatherwork class" 1.00 -> 0.63).
KEPT = (0.874, 2.855, 1.425)


def features(call) -> np.ndarray:
    """Return the service's fusion features of a recorded call's candidates (dense order)."""
    from activities.search_ranking import fusion_features

    lists = call["lists"]
    titles = call["titles"]
    return fusion_features(
        list(call["scores"]),
        [set(lists["held_plain"].get(t, ())) for t in titles],
        lists["terms"],
        [lists["cues_asked"].get(t, 0) for t in titles],
        negated=set(lists["negated"]),
        refused_like=(
            [lists["refused_like"][t] for t in titles] if lists.get("refused_like") else None
        ),
    )


def pairs(records: list[dict]):
    """Return (differences, weights): per on-topic query, every pair of its candidates whose
    grades differ (better minus worse), the query's pairs weighing 1 in all."""
    from bench.activities_fit_ranker import gated_call

    xs, ws = [], []
    for rec in records:
        call = gated_call(rec)
        if call is None or not call.get("lists") or not rec["relevant_kept"]:
            continue
        x = features(call)
        grades = [rec["relevant_kept"].get(t, 0) for t in call["titles"]]
        better = [
            (i, j) for i in range(len(grades)) for j in range(len(grades)) if grades[i] > grades[j]
        ]
        for i, j in better:
            xs.append(x[i] - x[j])
            ws.append(1.0 / len(better))
    return np.asarray(xs), np.asarray(ws)


def fit(x, w, l2: float = L2, fixed=()) -> np.ndarray:
    """Return the weights of a pairwise logistic regression (every difference labelled 1, no
    intercept; Newton steps on the standardised features), on the raw feature scale.
    ``fixed``: the first weights, kept as given (only the others are fitted)."""
    fixed = np.asarray(fixed, dtype=np.float64)
    offset = x[:, : len(fixed)] @ fixed if len(fixed) else np.zeros(len(x))
    x = x[:, len(fixed) :]
    scale = np.sqrt((x**2).mean(axis=0))
    scale[scale < 1e-9] = 1.0
    z = x / scale
    ridge = l2 * w.sum() / len(w)
    beta = np.zeros(z.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(offset + z @ beta)))
        grad = z.T @ (w * (p - 1.0)) + ridge * beta
        hess = (z * (w * p * (1 - p))[:, None]).T @ z + ridge * np.eye(len(beta))
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    return np.concatenate([fixed, beta / scale])


def ordered(rec: dict, order) -> list[str]:
    """Return the list the service gives for ``rec`` with the hybrid's order ``order`` (a
    function of a call giving {title: score}): the shipped cut and precision gate replayed."""
    from activities.search_ranker import INTERCEPT, THRESHOLD, WEIGHTS
    from bench.activities_cut_cv import replay
    from bench.activities_fit_ranker import CUT, gate

    calls = [c for c in (*rec["calls"], rec["wide"]) if c and c.get("lists")]
    saved = [c["fused"] for c in calls]
    for call in calls:
        call["fused"] = order(call)
    try:
        return replay(rec, CUT, gate=gate(WEIGHTS, INTERCEPT, THRESHOLD))
    finally:
        for call, fused in zip(calls, saved, strict=True):
            call["fused"] = fused


def learned(weights):
    def order(call):
        scores = features(call) @ weights
        return dict(zip(call["titles"], scores.tolist(), strict=True))

    return order


def reciprocal_rank(call):
    """The hybrid before the learned fusion: RRF of the dense, lexical and cue ranks."""
    scores: dict[str, float] = {}
    for ranks in (call["lists"]["dense"], call["lists"]["lexical"], call["lists"]["cue"]):
        for rank, title in enumerate(ranks, start=1):
            scores[title] = scores.get(title, 0.0) + 1.0 / (RRF_K + rank)
    return scores


def _cells(fig: dict, sets, against: dict | None = None) -> str:
    cells = []
    for s in sets:
        for lang in LANGS:
            f = fig[(s, lang)]
            cell = f"{s} {lang} {f['ndcg5']:.3f} {f['p10']:.3f}"
            if against is not None:
                cell += f" ({f['ndcg5'] - against[(s, lang)]['ndcg5']:+.3f})"
            cells.append(cell)
    return " | ".join(cells)


def main() -> None:
    records = recorded(__doc__.split("\n")[0], SETS, DB_NAME)
    from activities.search_ranking import FUSION_FEATURES
    from bench.activities_cut_cv import figures

    sets = tuple(SETS)
    print(f"{len(records)} queries recorded; per cell: nDCG@5, P@10 (change against RRF)")
    print(f"{'bare model':22s}", _cells(figures(records, None, halves=sets), sets))
    rrf = figures(records, None, halves=sets, answer=lambda r: ordered(r, reciprocal_rank))
    print(f"{'reciprocal rank':22s}", _cells(rrf, sets))
    held_out_weights = {}
    for held_out in sets:
        weights = fit(*pairs([r for r in records if r["half"] != held_out]), fixed=KEPT)
        held_out_weights[held_out] = weights
        print(f"fit without {held_out}:", np.round(weights, 3).tolist())
    rotated = figures(
        records,
        None,
        halves=sets,
        answer=lambda r: ordered(r, learned(held_out_weights[r["half"]])),
    )
    print(f"{'learned, held out':22s}", _cells(rotated, sets, rrf))
    weights = fit(*pairs(records), fixed=KEPT)
    print("FUSION_WEIGHTS = (" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    print("# " + ", ".join(FUSION_FEATURES))


if __name__ == "__main__":
    main()
