"""Replay the personal boost over the pools bench/activities_personalization.py recorded.

Each recorded (simulated user, generic query) holds the candidates the relevance cut judged,
those it kept, whether any of them names the query (``evidence``), every candidate's fused
score (the hybrid's order) and its MaxSim to the user's three likes. The search is replayed
without the database: ``score = fused * (1 + boost)`` (or ``fused + boost`` for the additive
rules), ordered as the search orders (rounded score, then id), the first ``limit`` kept. The
precision gate after the order is not replayed (it kept every row of these generic queries:
the replay of the shipped rule is checked against the ids the search showed).

Rules (``boost`` from the MaxSim's pool z-score, as activities.personalize.pool_boosts):

- ``cut``: the boost over the rows the cut kept only (up to session 47: ``KEPT``);
  its z-scores read over those rows (three for a request naming no topic);
- ``cand``: the same rows boosted, their z-scores read over every candidate the cut judged
  (shipped from session 48 with the same parameters: ``SHIPPED``);
- ``few``: when no candidate names the query and the cut kept only its best few, those few
  are chosen from every candidate the cut judged by the boosted order (the same number);
- ``mul c a-b``: multiplicative, cap ``c``, z from ``a`` to ``b`` (shipped: 0.2, 1-2);
- ``add w a-b``: additive, ``w`` robust spreads (MAD x 1.4826) of the pool's fused scores at
  full boost: the boost keeps its reach in the order whatever spreads the fused scores.

Figures per (user, query), over every pair (a boost may bring a like in) and over the pairs
whose anonymous answer holds a held-out like (``reach``, the figures of the bench's table):
MRR of the first held-out like in the list, share of the list's rows that are held-out likes
(``liked``), recall@10 of the reachable likes. Parameters are chosen on the dev users only
(by MRR over every pair); test users are reported beside none and the shipped rule.

    .venv/bin/python bench/activities_fit_personal.py /tmp/pools.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import markdown_table  # noqa: E402

MAD_TO_SIGMA = 1.4826
MIN_SPREAD = 0.01  # activities.personalize.MIN_SPREAD
TOP = 10


def in_language(pairs: list[dict], language: str) -> list[dict]:
    """Return the pairs of ``language`` ("zh", "en", or "all"), by their corpus."""
    return [
        p for p in pairs if language == "all" or p["corpus"].endswith("_en") == (language == "en")
    ]


def z_ramp(sims: list[float], floor: float, start: float, full: float) -> list[float]:
    """Return each candidate's share of the full boost, in [0, 1] (pool_boosts / cap)."""
    known = np.asarray(sims, dtype=np.float64)
    centre = float(np.median(known))
    spread = max(MAD_TO_SIGMA * float(np.median(np.abs(known - centre))), MIN_SPREAD)
    width = max(full - start, 1e-9)
    return [
        0.0 if s <= floor else min(1.0, max(0.0, ((s - centre) / spread - start) / width))
        for s in sims
    ]


def replay(pool: dict, rule: tuple, limit: int, stated: bool = False) -> list[int]:
    """Return the ids the search would show for this pool under ``rule``.

    ``stated``: the user stated a liking for its taste's types instead of having liked three
    activities: a candidate of those types (a held-out like) has half the full boost
    (Personalizer.preference_boost: 0.5 for the type), the others none.
    """
    scope, kind, weight, start, full = rule
    candidates, kept = pool["candidates"], set(pool["kept"])
    fused = pool.get("fused") or dict(zip(candidates, pool["dense"], strict=True))
    fused = {int(pk): v for pk, v in fused.items()}
    sim_of = dict(zip(candidates, pool["maxsim"], strict=True))
    few = scope == "few" and not pool["evidence"] and 0 < len(kept) < len(candidates) and weight > 0
    rows = candidates if few else [pk for pk in candidates if pk in kept]
    if not rows:
        return []
    floor = pool.get("floor") or 0.0
    if stated:
        heldout = set(pool["heldout"])
        ramp = [0.5 if pk in heldout else 0.0 for pk in rows]
    elif scope == "cand":  # the z-scores read over every candidate, the boost on the kept
        every = dict(zip(candidates, z_ramp(pool["maxsim"], floor, start, full), strict=True))
        ramp = [every[pk] for pk in rows]
    else:
        ramp = z_ramp([sim_of[pk] for pk in rows], floor, start, full)
    values = np.asarray([fused[pk] for pk in rows], dtype=np.float64)
    spread = MAD_TO_SIGMA * float(np.median(np.abs(values - np.median(values))))
    scored = []
    for pk, share in zip(rows, ramp, strict=True):
        if kind == "mul":
            score = fused[pk] * (1.0 + weight * share)
        else:
            score = fused[pk] + weight * spread * share
        scored.append((-round(score, 4), pk))
    scored.sort()
    keep = len(kept) if few else limit
    return [pk for _, pk in scored[: min(keep, limit)]]


def figures(pools: list[dict], rule: tuple, limit: int, stated: bool = False) -> dict:
    mrr, liked, recall, reach_mrr, reach = [], [], [], [], 0
    for pool in pools:
        shown = replay(pool, rule, limit, stated)
        heldout = set(pool["heldout"])
        first = next((i for i, pk in enumerate(shown) if pk in heldout), None)
        rr = 1.0 / (first + 1) if first is not None else 0.0
        mrr.append(rr)
        liked.append(sum(pk in heldout for pk in shown) / len(shown) if shown else 0.0)
        reachable = heldout & set(pool["kept"])
        if reachable:
            reach += 1
            reach_mrr.append(rr)
            recall.append(len(set(shown[:TOP]) & reachable) / len(reachable))
    return {
        "pairs": len(pools),
        "mrr": float(np.mean(mrr)) if mrr else 0.0,
        "liked": float(np.mean(liked)) if liked else 0.0,
        "reach": reach,
        "reach_mrr": float(np.mean(reach_mrr)) if reach_mrr else 0.0,
        "recall10": float(np.mean(recall)) if recall else 0.0,
    }


def name_of(rule: tuple) -> str:
    scope, kind, weight, start, full = rule
    if weight == 0:
        return "none"
    return f"{scope} {kind} {weight:g} z{start:g}-{full:g}"


NONE = ("cut", "mul", 0.0, 1.0, 2.0)
KEPT = ("cut", "mul", 0.2, 1.0, 2.0)  # the rule up to session 47
SHIPPED = ("cand", "mul", 0.2, 1.0, 2.0)  # from session 48
GRID = [
    (scope, kind, weight, start, start + width)
    for scope in ("cut", "cand", "few")
    for kind, weights in (("mul", (0.1, 0.2, 0.5, 1.0)), ("add", (0.5, 1.0, 2.0, 4.0)))
    for weight in weights
    for start in (0.0, 1.0)
    for width in (1.0, 2.0)
]

STATED = ("cut", "mul", 0.1, 1.0, 2.0)  # cap * PREFERENCE_SHARE; the z range is unused
STATED_GRID = [
    (scope, kind, weight, 1.0, 2.0)
    for scope in ("cut", "few")
    for kind, weights in (("mul", (0.1, 0.2, 0.5, 1.0)), ("add", (0.5, 1.0, 2.0, 4.0, 8.0)))
    for weight in weights
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("record", help="the --record file of bench/activities_personalization.py")
    parser.add_argument("--json", help="write every rule's figures here")
    args = parser.parse_args()
    data = json.loads(Path(args.record).read_text())
    limit, pools = data["limit"], data["pools"]
    # The search that recorded the pools ran one of the two (the code of its day).
    agree = [sum(replay(p, r, limit) == p["shown"] for p in pools) for r in (KEPT, SHIPPED)]
    print(
        f"{len(pools)} pools; the replay shows the search's ids in {agree[0]} under the rule up "
        f"to session 47, in {agree[1]} under the shipped one"
    )
    split = {s: [p for p in pools if p["split"] == s] for s in ("dev", "test")}
    rules = [NONE, *[r for r in GRID if r[2] > 0]]
    dev = {name_of(r): figures(split["dev"], r, limit) for r in rules}
    ranked = sorted(rules, key=lambda r: -dev[name_of(r)]["mrr"])
    print("\nDev users, every rule (by MRR over every pair):\n")
    header = ["rule", "pairs", "MRR", "liked", "reach", "MRR reach", "recall@10 reach"]

    def row(name, f):
        return [name, f["pairs"], f["mrr"], f["liked"], f["reach"], f["reach_mrr"], f["recall10"]]

    print(markdown_table(header, [row(name_of(r), dev[name_of(r)]) for r in ranked]))
    scopes = ("cut", "cand", "few")
    best = {scope: next(r for r in ranked if r[0] == scope and r[2] > 0) for scope in scopes}
    # Within the promise that personalisation moves a result by at most 20%.
    capped = next(r for r in ranked if r[0] != "few" and r[1] == "mul" and 0 < r[2] <= 0.2)
    chosen = [NONE, KEPT, SHIPPED, capped, best["cut"], best["cand"], best["few"]]
    out = {}
    print("\nChosen on dev, per split and language:\n")
    rows = []
    for split_name, subset in split.items():
        for language in ("zh", "en", "all"):
            part = in_language(subset, language)
            for r in dict.fromkeys(chosen):
                f = figures(part, r, limit)
                out[f"{split_name} {language} {name_of(r)}"] = f
                rows.append([split_name, language, *row(name_of(r), f)])
    print(markdown_table(["split", "language", *header], rows))
    # A stated liking for the taste's types (no likes): the shipped cap is half the cap.
    stated_rules = [NONE, STATED, *[r for r in STATED_GRID if r != STATED]]
    dev_stated = {name_of(r): figures(split["dev"], r, limit, True) for r in stated_rules}
    ranked = sorted(stated_rules, key=lambda r: -dev_stated[name_of(r)]["mrr"])
    print("\nStated types instead of likes, dev users (by MRR over every pair):\n")
    print(markdown_table(header, [row(name_of(r), dev_stated[name_of(r)]) for r in ranked]))
    best = {
        scope: next(r for r in ranked if r[0] == scope and r[2] > 0) for scope in ("cut", "few")
    }
    rows = []
    for split_name, subset in split.items():
        for language in ("zh", "en", "all"):
            part = in_language(subset, language)
            for r in dict.fromkeys([NONE, STATED, best["cut"], best["few"]]):
                f = figures(part, r, limit, True)
                out[f"stated {split_name} {language} {name_of(r)}"] = f
                rows.append([split_name, language, *row(name_of(r), f)])
    print("\nStated types, chosen on dev, per split and language:\n")
    print(markdown_table(["split", "language", *header], rows))
    if args.json:
        payload = {"dev": dev, "dev_stated": dev_stated, "chosen": out}
        Path(args.json).write_text(json.dumps(payload, indent=1))


if __name__ == "__main__":
    main()
