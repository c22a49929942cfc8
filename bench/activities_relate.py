"""Relate the activities candidates to each other: does it decide rows 2-5? (issue 30, session 40,
round 2).

Session 40's floor found the plain-query loss against the bare dense order to be rows 2-3 after
a dominant first hit, where a relevant row and an irrelevant neighbour get the same
probability from every feature the search holds of a row alone. This bench asks whether
features relating the candidates to each other tell them apart, read from the candidates'
stored vectors (which the recording reads apart; the service defers them): each candidate's
cosine to the fused first, its standard score and its rank among the candidates, the first's
rank among the candidate's own neighbours (mutual nearness), and its cosine to the centroid of
the other rows the shipped list shows.

Two uses, each fitted and chosen leave one set out over ``DEV_SETS`` (the shipped list is
``bench.activities_fit_floor.answer()``: the cut, the fused order, the gate and the floor):

- ``diag``: per kind (plain, mood, audience, ...), nDCG@5 of the bare order, the shipped list,
  and the shipped list's rows in dense order; and the within-query AUC of each relational
  feature among the fused places 2-5 (relevant against irrelevant candidates of one query).
- ``model``: a logistic model over the floor's eleven features plus the relational ones,
  fitted on the fused places 2..``ZONE`` of every on-topic labelled query; the list becomes the
  shipped list plus the zone's candidates at ``p >= add`` minus its rows (no kind, mood or
  audience cue of the query) at ``p < drop``; (add, drop) chosen on the training sets by the
  sum of the nDCG@5 and P@10 changes (lower language each), or by the nDCG@5 change among
  choices losing at most ``P10_SLACK`` of P@10, measured on the set left out.

Also printed: per kind, how often a query reads a cue its candidates hold and how much more
often such rows are relevant (``cue_evidence``), and the small path's figures (``small_path``).
Findings: docs/RELEVANCE.md "Relating the candidates to each other".

    .venv/bin/python bench/activities_relate.py --load /tmp/rec.pkl
    (a recording of ``bench/activities_fit_floor.py --save``)
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_fit_floor import by_kind, print_by_kind  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_relate"
LANGS = ("zh", "en")
KINDS = ("plain", "mood", "audience", "crosslingual", "time", "negation")
ZONE = 5  # fused places 2..ZONE: where the plain queries lose their rows (the floor's finding)
ADDS = (0.5, 0.6, 0.7, 0.8, 1.01)  # 1.01: add nothing
DROPS = (0.0, 0.1, 0.15, 0.2, 0.25)  # 0.0: drop nothing
P10_SLACK = 0.002
RELATIONAL = ("cos first", "z cos first", "log rank by first", "log first's rank", "cos shown")


def relational(call: dict, order: list[int], shown_idx: list[int]) -> np.ndarray:
    """Return one row of :data:`RELATIONAL` per candidate of ``call`` (dense order); ``order``:
    the fused order (indices), ``shown_idx``: the rows the shipped list shows."""
    e = np.asarray(call["embeddings"], dtype=np.float64)
    e = e / (np.linalg.norm(e, axis=1, keepdims=True) + 1e-12)
    sim = e @ e.T
    n = len(e)
    first = order[0]
    to_first = sim[:, first]
    others = np.delete(to_first, first) if n > 1 else to_first
    z = (to_first - others.mean()) / (others.std() + 1e-9)
    rank_by_first = np.empty(n)
    rank_by_first[np.argsort(-to_first, kind="stable")] = np.arange(n)  # first itself: 0
    masked = sim - 2.0 * np.eye(n)
    firsts_rank = (masked > masked[:, [first]]).sum(axis=1).astype(float)
    shown = np.zeros(n)
    for i in range(n):
        rows = [j for j in shown_idx if j != i]
        if rows:
            centroid = e[rows].mean(axis=0)
            shown[i] = float(e[i] @ centroid / (np.linalg.norm(centroid) + 1e-12))
    return np.column_stack([to_first, z, np.log1p(rank_by_first), np.log1p(firsts_rank), shown])


def zone_rows(rec: dict, shipped):
    """Return (call, rows in the zone, X of floor + relational features, the shipped list,
    cue flags of the rows) of an on-topic record the gate reads, or None."""
    from activities.search_ranker import floor_features
    from bench.activities_fit_floor import candidates_of

    found = candidates_of(rec)
    if found is None:
        return None
    call, pool = found
    if "embeddings" not in call:
        return None
    base = floor_features(pool)
    order = list(np.argsort(-base[:, -1], kind="stable"))
    shown = shipped(rec)
    index = {t: i for i, t in enumerate(call["titles"])}
    shown_idx = [index[t] for t in shown if t in index]
    x = np.column_stack([base, relational(call, order, shown_idx)])
    rows = order[1:ZONE]
    cue = [pool.asked[i] > 0 if pool.asked else False for i in rows]
    return call, rows, x, shown, cue


def build(records, shipped) -> dict:
    """Return {id(rec): zone_rows(rec)} over the labelled on-topic records."""
    out = {}
    for rec in records:
        if rec.get("offTopic") or not rec["relevant_kept"]:
            continue
        found = zone_rows(rec, shipped)
        if found is not None:
            out[id(rec)] = found
    return out


def dataset(records, zones, columns):
    xs, ys, ws = [], [], []
    for rec in records:
        z = zones.get(id(rec))
        if z is None or not z[1]:
            continue
        call, rows, x, _, _ = z
        xs.append(x[rows][:, columns])
        ys.append([rec["relevant_kept"].get(call["titles"][i], 0) >= 1 for i in rows])
        ws.append(np.full(len(rows), 1.0 / len(rows)))
    return np.vstack(xs), np.concatenate(ys).astype(float), np.concatenate(ws)


def answer_of(zones, shipped, weights, intercept, columns, add, drop):
    def shown_of(rec):
        base = shipped(rec)
        z = zones.get(id(rec))
        if z is None:
            return base
        call, rows, x, shown, cue = z
        if not rows:
            return base
        p = 1.0 / (1.0 + np.exp(-(x[rows][:, columns] @ weights + intercept)))
        titles = call["titles"]
        zone = {titles[i]: (pi, c) for i, pi, c in zip(rows, p, cue, strict=True)}
        kept = [t for t in base if not (t in zone and zone[t][0] < drop and not zone[t][1])]
        extra = [titles[i] for i, pi in zip(rows, p, strict=True) if pi >= add]
        fused = call.get("fused") or {}
        merged = kept + [t for t in extra if t not in kept]
        if fused:
            merged.sort(key=lambda t: -fused.get(t, 0.0))
        return merged[:10]

    return shown_of


def within_auc(records, zones, col: int) -> float:
    """Mean over queries (with both classes in the zone) of the AUC of feature ``col``."""
    aucs = []
    for rec in records:
        z = zones.get(id(rec))
        if z is None:
            continue
        call, rows, x, _, _ = z
        y = [rec["relevant_kept"].get(call["titles"][i], 0) >= 1 for i in rows]
        pos = [x[i, col] for i, good in zip(rows, y, strict=True) if good]
        neg = [x[i, col] for i, good in zip(rows, y, strict=True) if not good]
        if pos and neg:
            pairs = [(p > q) + 0.5 * (p == q) for p in pos for q in neg]
            aucs.append(float(np.mean(pairs)))
    return float(np.mean(aucs)) if aucs else float("nan"), len(aucs)


def diag(records, zones, shipped) -> None:
    from activities.search_ranker import FLOOR_FEATURES

    def dense_order(rec):
        shown = set(shipped(rec))
        calls = rec["calls"]
        titles = calls[0]["titles"] if calls else rec["bare"]
        return [t for t in titles if t in shown] or shipped(rec)

    bare = by_kind(records, lambda rec: rec["bare"])
    ship = by_kind(records, shipped)
    dense = by_kind(records, dense_order)
    print("per kind, all sets (nDCG@5 bare / shipped / shipped rows in dense order; P@10):")
    for kind in KINDS:
        for lang in LANGS:
            if (kind, lang) in ship:
                b, s, d = bare[(kind, lang)], ship[(kind, lang)], dense[(kind, lang)]
                print(
                    f"  {kind:12s} {lang} n {s[2]:3d}: {b[0]:.3f} / {s[0]:.3f} / {d[0]:.3f};"
                    f" P@10 {b[1]:.3f} / {s[1]:.3f}"
                )
    names = list(FLOOR_FEATURES) + list(RELATIONAL)
    for kinds in (("plain",), ("mood",), ("audience",), KINDS):
        subset = [r for r in records if r["kind"] in kinds]
        cells = []
        for col, name in enumerate(names):
            auc, n = within_auc(subset, zones, col)
            cells.append(f"{name} {auc:.2f}")
        print(f"within-query AUC, fused places 2-{ZONE}, {'+'.join(kinds)} (n {n}):")
        print("  " + "; ".join(cells))


def cue_evidence(records) -> None:
    """Per kind: how many labelled queries read a kind, mood or audience cue some candidate of
    the dense top 20 holds, and how often such a row is relevant against a row holding none."""
    out = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for rec in records:
        if rec.get("offTopic") or not rec["relevant_kept"] or not rec["calls"]:
            continue
        call = rec["calls"][0]
        if not call.get("lists"):
            continue
        asked, rel = call["lists"]["cues_asked"], rec["relevant_kept"]
        cell = out[(rec["kind"], rec["lang"])]
        cell[0] += 1
        if not any(v > 0 for v in asked.values()):
            continue
        cell[1] += 1
        for title in call["titles"][:20]:
            good = rel.get(title, 0) >= 1
            at = 2 if asked.get(title, 0) > 0 else 4
            cell[at] += 1
            cell[at + 1] += good
    print("cues read (queries with a cue some top-20 row holds; relevant share with / without):")
    for (kind, lang), (n, read, nc, gc, nn, gn) in sorted(out.items()):
        print(
            f"  {kind:12s} {lang} {read:3d} of {n:3d}; rows holding it {nc:4d}: "
            f"{gc / max(nc, 1):.2f}; rows without {nn:4d}: {gn / max(nn, 1):.2f}"
        )


def small_path(records) -> None:
    """Per kind: the labelled queries answered by the small path (no per-result cut)."""
    from bench.activities_relevance import ndcg_at

    cells = defaultdict(list)
    for rec in records:
        if rec["path"] != "hard_filter_small" or rec.get("offTopic") or not rec["relevant_kept"]:
            continue
        shown, rel = rec["results"], rec["relevant_kept"]
        good = sum(1 for t in shown if rel.get(t, 0) >= 1)
        cells[(rec["kind"], rec["lang"])].append(
            (ndcg_at(shown, rel), good / len(shown) if shown else 0.0, len(shown))
        )
    print("small path (nDCG@5, P@10, rows):")
    for (kind, lang), values in sorted(cells.items()):
        n, p, size = np.mean(values, axis=0)
        print(f"  {kind:12s} {lang} n {len(values):3d}: {n:.3f} / {p:.3f} / {size:.1f}")


def rotations(records, zones, shipped, columns, label: str, objective: str = "sum") -> None:
    """``objective``: "sum" (the nDCG@5 and P@10 changes, lower language each) or "ndcg" (the
    nDCG@5 change of the lower language, among choices whose P@10 falls by at most
    ``P10_SLACK`` in either language)."""
    from bench.activities_cut_cv import figures
    from bench.activities_fit_ranker import fit

    present = {r["half"] for r in records}
    sets = tuple(s for s in DEV_SETS if s in present)
    before = figures(records, None, halves=sets, answer=shipped)
    bare = figures(records, None, halves=sets)
    print(f"\n## {label}, objective {objective}: held out (add, drop chosen on the other sets)")
    print("| held out | lang | bare nDCG@5 | nDCG@5 before -> after | P@10 before -> after |")
    print("|---|---|---|---|---|")
    held = {}
    for out in sets:
        train = [r for r in records if r["half"] != out]
        weights, intercept = fit(*dataset(train, zones, columns))
        train_sets = tuple(s for s in sets if s != out)
        best = None
        for add in ADDS:
            for drop in DROPS:
                shown_of = answer_of(zones, shipped, weights, intercept, columns, add, drop)
                fig = figures(train, None, halves=train_sets, answer=shown_of)
                change = {
                    key: min(
                        np.mean([fig[(s, lang)][key] - before[(s, lang)][key] for s in train_sets])
                        for lang in LANGS
                    )
                    for key in ("ndcg5", "p10")
                }
                if objective == "sum":
                    gain = change["ndcg5"] + change["p10"]
                elif change["p10"] >= -P10_SLACK:
                    gain = change["ndcg5"]
                else:
                    continue
                if best is None or gain > best[0] + 1e-9:
                    best = (gain, add, drop)
        _, add, drop = best
        shown_of = answer_of(zones, shipped, weights, intercept, columns, add, drop)
        held[out] = shown_of
        fig = figures(
            [r for r in records if r["half"] == out], None, halves=(out,), answer=shown_of
        )
        for lang in LANGS:
            b, a, z = before[(out, lang)], fig[(out, lang)], bare[(out, lang)]
            print(
                f"| {out} ({add}, {drop}) | {lang} | {z['ndcg5']:.3f} | {b['ndcg5']:.3f} -> "
                f"{a['ndcg5']:.3f} | {b['p10']:.3f} -> {a['p10']:.3f} |",
                flush=True,
            )
    b = by_kind(records, shipped)
    a = by_kind(records, lambda rec: held[rec["half"]](rec))
    print("per kind, pooled, held out (nDCG@5 / P@10 before -> after):")
    print_by_kind(b, a, KINDS)


def main() -> None:
    from bench.activities_cut_cv import recorded

    records = recorded(__doc__.split("\n")[0], DEV_SETS, DB_NAME)
    from activities.search_ranker import FLOOR_FEATURES
    from bench.activities_fit_floor import answer

    sets = {r["half"] for r in records}
    print(f"{len(records)} queries recorded, sets: {sorted(sets)}")
    shipped_answer = answer()
    cache: dict = {}

    def shipped(rec):
        if id(rec) not in cache:
            cache[id(rec)] = shipped_answer(rec)
        return cache[id(rec)]

    zones = build(records, shipped)
    diag(records, zones, shipped)
    cue_evidence(records)
    small_path(records)
    n_floor = len(FLOOR_FEATURES)
    every = list(range(n_floor + len(RELATIONAL)))
    for objective in ("sum", "ndcg"):
        rotations(records, zones, shipped, list(range(n_floor)), "floor only", objective)
        rotations(records, zones, shipped, every, "floor + relational", objective)


if __name__ == "__main__":
    main()
