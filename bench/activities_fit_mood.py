"""Mood requests against the bare model: the stage each loss is at, and query-level depth and
order rules chosen leave one set out (issue 30, sessions 45 and 52).

A mood request ("need to blow off steam", 「累了想放空」) names a state, not a kind; its good
answers are several kinds sharing a character. This bench replays a recording of
``bench.activities_cut_cv.record`` (``bench/activities_fit_floor.py --save``) over the sets of
``bench.activities_heldout.DEV_SETS`` and prints

- ``--stages``: the mood kind's nDCG@5 per set and language after each stage of the service
  (``bench.activities_fit_fusion.stage_lists``: bare; no cut; the cut in dense order; the cut in
  the fused order; the service, gate and floor after, gated as the service gates now:
  ``bench.activities_fit_second.prepared``), and every mood request the service answers below
  the bare model, with the fall summed per stage;
- ``--lean``: for a request of a query-level reading (:data:`LEAN_READINGS`), the fused order
  leant toward the dense one (the words held, cues and kind likeness weighed ``1 - lean``,
  :data:`LEANS`; 1 is the dense order of what the cut keeps) and the gate's threshold
  multiplied (:data:`SCALES`), chosen per held-out set on the others as below, with every other
  kind's pooled nDCG@5 held too; per set beside the bare model, and per kind (session 52);
- otherwise: a rule answering a request of one query-level reading (:data:`READINGS`, nothing
  the search does not read already) with its own pool rule ``poolZ``, ``keepBest`` and gate
  threshold (:data:`GRID`), every other request as shipped. For each held-out set it chooses,
  on the other sets, the rule with the best mood nDCG@5 (pooled, both languages) among those
  whose nDCG@5 and P@10 (means of the sets) fall in neither language by more than
  ``--tolerance`` (default 0), and prints the held-out set before and after, beside the bare
  model. The kind label of a query is read only to report, never to choose.

    .venv/bin/python bench/activities_fit_floor.py --save /tmp/rec.pkl
    .venv/bin/python bench/activities_fit_mood.py --load /tmp/rec.pkl [--stages | --lean]
        [--tolerance 0.02]

A recording's records that open with a query-level probe reading no hits (session 50) are
replayed from their call with hits.
"""

from __future__ import annotations

import itertools
import sys
import zoneinfo
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_fit_crossfusion import service  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_floor"  # the recording's database (bench/activities_fit_floor.py)
SETS = tuple(DEV_SETS)
LANGS = ("zh", "en")
STAGES = ("bare", "no cut", "cut", "cut+fusion", "service")
# A fixed instant for reading the query's kinds and moods (neither depends on the time).
READ_AT = datetime(2026, 1, 10, 12, tzinfo=zoneinfo.ZoneInfo("UTC"))
# Query-level readings a rule may apply to: ``mood``: the query reads a mood and no kind;
# ``noword``: no candidate holds a content word of the query (``Pool.coverage`` all 0, session
# 42's "no word"); ``noword&nokind``: that, and no kind read.
READINGS = ("mood", "noword", "noword&nokind")
# (poolZ, keepBest, gate threshold; None: the shipped THRESHOLD / THRESHOLD_EN), set before any
# replay: deeper (a lower poolZ, more best rows kept, a lower gate) and shallower (a higher gate).
GRID = tuple(
    itertools.product((1.0, 0.5, 0.0), (3, 5), (None, 0.1, 0.15, 0.3, 0.4)),
)


def read(records: list[dict]) -> None:
    """Set each record's query-level readings (``_moods``, ``_kinds``, ``_noword``)."""
    from activities.understanding import read_query

    for rec in records:
        understood = read_query(rec["query"], now=READ_AT, tz=READ_AT.tzinfo)
        call = rec["calls"][0] if rec["calls"] else None
        coverage = call["pool"].coverage if call and call.get("pool") else ()
        rec["_moods"], rec["_kinds"] = bool(understood.moods), bool(understood.kinds)
        rec["_noword"] = not any(c > 0 for c in coverage)


def applies(reading: str, rec: dict) -> bool:
    """Return whether ``rec``'s query is of ``reading`` (:data:`READINGS`)."""
    if reading == "mood":
        return rec["_moods"] and not rec["_kinds"]
    if reading == "noword":
        return rec["_noword"]
    return rec["_noword"] and not rec["_kinds"]


def gate_at(threshold):
    """Return a ``replay`` gate: the shipped model and floor, at ``threshold``."""
    from activities.search_ranker import INTERCEPT, WEIGHTS, below_floor, unlikely
    from bench.activities_fit_ranker import recorded_pool

    def apply(call, shown):
        index = {t: i for i, t in enumerate(call["titles"])}
        pool = recorded_pool(call)
        rows = [index[t] for t in shown]
        drop = unlikely(
            pool,
            rows,
            threshold=threshold,
            weights=WEIGHTS,
            intercept=INTERCEPT,
            floor=below_floor(pool),
        )
        return [t for t in shown if index[t] not in drop]

    return apply


def shown_of(rec: dict, rule) -> list[str]:
    """Return the list shown for ``rec`` under ``rule`` ((reading, poolZ, keepBest, gate) or
    None: the service as shipped)."""
    from bench.activities_cut_cv import replay
    from bench.activities_fit_ranker import CUT

    if rule is None or not applies(rule[0], rec):
        return replay(rec, CUT, gate=gate_at(None))
    _, pool_z, keep, threshold = rule
    return replay(rec, {**CUT, "poolZ": pool_z, "keepBest": keep}, gate=gate_at(threshold))


def cells(records: list[dict], rule) -> dict:
    """Return {(set, lang): {measure: values per query}} under ``rule``."""

    out: dict = defaultdict(lambda: defaultdict(list))
    for rec in records:
        count(out, rec, shown_of(rec, rule), every_kind=False)
    return out


def count(out: dict, rec: dict, shown: list[str], *, every_kind: bool) -> None:
    """Add one query's list ``shown`` to its (set, lang) cell of ``out``: off-topic or labelled
    answered empty, nDCG@5, P@10 and the bare model's nDCG@5, also under its kind (every kind,
    or only mood)."""
    from bench.activities_relevance import ndcg_at

    cell = out[(rec["half"], rec["lang"])]
    if rec.get("offTopic"):
        cell["off"].append(not shown)
        return
    cell["empty"].append(not shown)
    relevant = rec["relevant_kept"]
    if not relevant:
        return
    good = sum(1 for t in shown if relevant.get(t, 0) >= 1)
    values = {
        "ndcg": ndcg_at(shown, relevant),
        "p10": good / len(shown) if shown else 0.0,
        "bare": ndcg_at(rec["bare"], relevant),
    }
    for key, value in values.items():
        cell[key].append(value)
        if every_kind or rec["kind"] == "mood":
            cell[f"{rec['kind']} {key}"].append(value)


def set_mean(fig: dict, sets, lang: str, key: str) -> float:
    return float(np.mean([np.mean(fig[(s, lang)][key]) for s in sets]))


def pooled(fig: dict, sets, lang: str, key: str) -> float:
    return float(np.mean([v for s in sets for v in fig[(s, lang)][key]]))


def stages(records: list[dict]) -> None:
    """Print the mood kind per stage, set and language, and each mood loss to the bare model."""
    from bench.activities_fit_fusion import stage_lists
    from bench.activities_fit_second import prepared
    from bench.activities_relevance import ndcg_at

    # The service as it gates now (a Chinese query's gate reads the likeness to the first row,
    # session 50), not stage_lists' one model at THRESHOLD.
    served = {id(item["rec"]): service(item) for item in prepared(records)}
    per: dict = defaultdict(lambda: defaultdict(list))
    fall: dict = defaultdict(float)
    for rec in records:
        if rec.get("offTopic") or not rec["relevant_kept"] or rec["kind"] != "mood":
            continue
        lists = {**stage_lists(rec), "service": served[id(rec)]}
        score = {s: ndcg_at(lists[s], rec["relevant_kept"]) for s in STAGES}
        for s in STAGES:
            per[(rec["half"], rec["lang"])][s].append(score[s])
        if score["service"] < score["bare"] - 1e-9:
            for before, after in itertools.pairwise(STAGES):
                fall[after] += score[after] - score[before]
            figures = " ".join(f"{score[s]:.2f}" for s in STAGES)
            print(f"  loss {rec['half']:7s} {rec['lang']} {figures} {rec['query']}")
    print("fall summed per stage:", {s: round(v, 2) for s, v in fall.items()})
    print("mood nDCG@5:", " / ".join(STAGES))
    for lang in LANGS:
        for s in SETS:
            cell = per[(s, lang)]
            print(f"  {s:7s} {lang} n {len(cell['bare']):2d}: ", end="")
            print(" / ".join(f"{np.mean(cell[k]):.3f}" for k in STAGES))
        every = {k: [v for s in SETS for v in per[(s, lang)][k]] for k in STAGES}
        print(f"  pooled  {lang} n {len(every['bare'])}: ", end="")
        print(" / ".join(f"{np.mean(every[k]):.3f}" for k in STAGES))


def rotations(records: list[dict], tolerance: float) -> None:
    """Choose a rule on all sets but one, print the one left out (see the module docstring)."""
    rules = [None] + [(r, *g) for r in READINGS for g in GRID if g != (1.0, 3, None)]
    figs = {rule: cells(records, rule) for rule in rules}
    base = figs[None]
    chosen = {}
    for held in SETS:
        train = [s for s in SETS if s != held]
        best, score = None, -1.0
        for rule, fig in figs.items():
            keeps = all(
                set_mean(fig, train, lang, key) >= set_mean(base, train, lang, key) - tolerance
                for lang in LANGS
                for key in ("ndcg", "p10")
            )
            mood = sum(pooled(fig, train, lang, "mood ndcg") for lang in LANGS)
            if keeps and mood > score + 1e-9:
                best, score = rule, mood
        chosen[held] = best
    print(
        "| held out | lang | rule | bare nDCG@5 | nDCG@5 | P@10 | mood bare | mood nDCG@5 | "
        "mood P@10 | off-topic empty | labelled empty |"
    )
    after = defaultdict(list)
    for held in SETS:
        for lang in LANGS:
            b, a = base[(held, lang)], figs[chosen[held]][(held, lang)]
            for key in ("ndcg", "p10", "mood ndcg", "mood p10"):
                after[(lang, key)].extend(a[key])
            print(
                f"| {held} | {lang} | {chosen[held]} | {np.mean(b['bare']):.3f} | "
                f"{np.mean(b['ndcg']):.3f} -> {np.mean(a['ndcg']):.3f} | "
                f"{np.mean(b['p10']):.3f} -> {np.mean(a['p10']):.3f} | "
                f"{np.mean(b['mood bare']):.3f} | "
                f"{np.mean(b['mood ndcg']):.3f} -> {np.mean(a['mood ndcg']):.3f} | "
                f"{np.mean(b['mood p10']):.3f} -> {np.mean(a['mood p10']):.3f} | "
                f"{np.mean(b['off']):.2f} -> {np.mean(a['off']):.2f} | "
                f"{sum(b['empty'])} -> {sum(a['empty'])} |"
            )
    for lang in LANGS:
        held_out = {s: figs[chosen[s]][(s, lang)] for s in SETS}
        print(
            f"{lang}: nDCG@5 (mean of sets) bare {set_mean(base, SETS, lang, 'bare'):.3f}, "
            f"{set_mean(base, SETS, lang, 'ndcg'):.3f} -> "
            f"{np.mean([np.mean(held_out[s]['ndcg']) for s in SETS]):.3f}; P@10 "
            f"{set_mean(base, SETS, lang, 'p10'):.3f} -> "
            f"{np.mean([np.mean(held_out[s]['p10']) for s in SETS]):.3f}; mood (pooled) bare "
            f"{pooled(base, SETS, lang, 'mood bare'):.3f}, "
            f"{pooled(base, SETS, lang, 'mood ndcg'):.3f} -> "
            f"{np.mean(after[(lang, 'mood ndcg')]):.3f}, P@10 "
            f"{pooled(base, SETS, lang, 'mood p10'):.3f} -> "
            f"{np.mean(after[(lang, 'mood p10')]):.3f}"
        )
    print("in sample, every rule (nDCG@5 / P@10 means of sets; mood pooled):")
    print_in_sample(figs, width=34, digits=3)


def print_in_sample(figs: dict, *, width: int, digits: int) -> None:
    """Print each rule's figures on all the sets: nDCG@5 and P@10 (means of the sets, to
    ``digits``) and the mood kind's pooled nDCG@5 and P@10, per language."""
    for rule, fig in figs.items():
        print(f"  {rule!s:{width}s}", end="")
        for lang in LANGS:
            print(
                f" {lang} {set_mean(fig, SETS, lang, 'ndcg'):.{digits}f} / "
                f"{set_mean(fig, SETS, lang, 'p10'):.{digits}f} mood "
                f"{pooled(fig, SETS, lang, 'mood ndcg'):.3f} / "
                f"{pooled(fig, SETS, lang, 'mood p10'):.3f}",
                end="",
            )
        print()


# ``--lean``: for a request read as mood only (``applies("mood", rec)``: moods read, no kind),
# the fused order's words held, cues and kind likeness (FUSION_FEATURES 1, 2 and 5) multiplied
# by 1 - lean (1: the dense order of what the cut keeps, the refusal features kept), and the
# gate's threshold multiplied by ``scale`` (1: the shipped; lower keeps more rows). Set before
# any replay (session 52).
LEANS = (0.0, 0.25, 0.5, 0.75, 1.0)
SCALES = (1.0, 0.75, 0.5)
LEANED = [1, 2, 5]  # the FUSION_FEATURES a lean weakens
LEAN_READINGS = ("mood", "noword&nokind")  # of READINGS
KINDS = ("plain", "crosslingual", "time", "negation", "audience", "mood")


def lean_fused(rec: dict, lean: float) -> None:
    """Give each call of ``rec`` the fused order the service gives it (the shipped trust of the
    words and cues over the other language, ``activities.search_ranking.evidence_trust``), with
    the :data:`LEANED` features multiplied by ``1 - lean``."""
    from activities.search_ranking import (
        FUSION_OVER_CHINESE,
        FUSION_OVER_OTHER_SCRIPT,
        FUSION_WEIGHTS,
        fusion_features,
    )

    for call in (*rec["calls"], rec.get("wide")):
        if not call or not call.get("fused") or not call.get("lists"):
            continue
        if "_fused" not in call:
            call["_fused"] = call["fused"]
        lists, titles, pool = call["lists"], call["titles"], call["pool"]
        refused_like, meta = lists.get("refused_like"), lists.get("meta_like")
        x = fusion_features(
            list(call["scores"]),
            [set(lists["held_plain"].get(t, ())) for t in titles],
            lists["terms"],
            [lists["cues_asked"].get(t, 0) for t in titles],
            negated=set(lists["negated"]),
            refused_like=[refused_like[t] for t in titles] if refused_like else None,
            meta_like=[meta[t] for t in titles] if meta else None,
        )
        if pool.chinese_listings:
            trust = (FUSION_OVER_CHINESE[0], 1.0) if not rec["_kinds"] else FUSION_OVER_CHINESE
        elif pool.other_script:
            trust = FUSION_OVER_OTHER_SCRIPT
        else:
            trust = (1.0, 1.0)
        x[:, 1:3] *= trust
        x[:, LEANED] *= 1.0 - lean
        scores = 1.0 / (1.0 + np.exp(-(x @ np.asarray(FUSION_WEIGHTS))))
        call["fused"] = dict(zip(titles, scores.tolist(), strict=True))


def reproduced(records: list[dict]) -> int:
    """Recompute every call's fused order at lean 0; return how many calls' orders differ from
    the recorded ones (0: the replay's fusion is the service's)."""
    differ = 0
    for rec in records:
        lean_fused(rec, 0.0)
        for call in (*rec["calls"], rec.get("wide")):
            if call and "_fused" in call:
                old, new = call["_fused"], call["fused"]
                if sorted(old, key=lambda t: -old[t]) != sorted(new, key=lambda t: -new[t]):
                    differ += 1
    return differ


def lean_cells(items: list[dict], rule) -> dict:
    """Return {(set, lang): {measure: values per query}} with ``rule`` ((lean, scale) for the
    requests read as mood only; None: the service as shipped): nDCG@5, P@10 and the bare
    model's nDCG@5 of every labelled request and per kind, off-topic and labelled empty."""

    out: dict = defaultdict(lambda: defaultdict(list))
    for item in items[None]:
        rec = item["rec"]
        mine = rule is not None and applies(rule[0], rec)
        shown = service(items[rule[:2]][item["i"]], rule[2]) if mine else service(item)
        count(out, rec, shown, every_kind=True)
    return out


def lean_rotations(records: list[dict], tolerance: float) -> None:
    """Choose (reading, lean, scale) on all sets but one, print the one left out (``--lean``):
    the best pooled mood nDCG@5 (both languages) on the other sets among the rules under which
    neither language's nDCG@5 nor P@10 (means of the sets) nor any other kind's pooled nDCG@5
    falls by more than ``tolerance``; None (the shipped service) when none raises mood."""
    from bench.activities_fit_second import prepared

    print("calls whose recomputed fused order differs from the recorded:", reproduced(records))
    items = {None: prepared(records)}
    for i, item in enumerate(items[None]):
        item["i"] = i
    for reading in LEAN_READINGS:
        mine = [rec for rec in records if applies(reading, rec)]
        labels = {k: sum(r["kind"] == k for r in mine) for k in KINDS}
        print(f"read as {reading}: {len(mine)} requests; by label: {labels}")
        for lean in LEANS:
            for rec in mine:
                lean_fused(rec, lean)
            items[(reading, lean)] = prepared(records)
            for rec in mine:
                lean_fused(rec, 0.0)
    rules = [None] + [
        (reading, lean, scale)
        for reading in LEAN_READINGS
        for lean in LEANS
        for scale in SCALES
        if (lean, scale) != (0.0, 1.0)
    ]
    figs = {rule: lean_cells(items, rule) for rule in rules}
    base = figs[None]
    others = [k for k in KINDS if k != "mood"]

    def holds(fig, train):
        for lang in LANGS:
            for key in ("ndcg", "p10"):
                if set_mean(fig, train, lang, key) < set_mean(base, train, lang, key) - tolerance:
                    return False
            for kind in others:
                key = f"{kind} ndcg"
                if pooled(fig, train, lang, key) < pooled(base, train, lang, key) - tolerance:
                    return False
        return True

    chosen = {}
    for held in SETS:
        train = [s for s in SETS if s != held]
        best = None
        score = sum(pooled(base, train, lang, "mood ndcg") for lang in LANGS)
        for rule, fig in figs.items():
            mood = sum(pooled(fig, train, lang, "mood ndcg") for lang in LANGS)
            if rule is not None and holds(fig, train) and mood > score + 1e-9:
                best, score = rule, mood
        chosen[held] = best
    print(
        "| held out | lang | rule | nDCG@5 bare / before -> after | P@10 before -> after | "
        "mood n | mood nDCG@5 bare / before -> after | off-topic empty | labelled empty |"
    )
    for held in SETS:
        for lang in LANGS:
            b, a = base[(held, lang)], figs[chosen[held]][(held, lang)]
            print(
                f"| {held} | {lang} | {chosen[held]} | {np.mean(b['bare']):.3f} / "
                f"{np.mean(b['ndcg']):.3f} -> {np.mean(a['ndcg']):.3f} | "
                f"{np.mean(b['p10']):.3f} -> {np.mean(a['p10']):.3f} | "
                f"{len(b['mood ndcg'])} | {np.mean(b['mood bare']):.3f} / "
                f"{np.mean(b['mood ndcg']):.3f} -> {np.mean(a['mood ndcg']):.3f} | "
                f"{np.mean(b['off']):.2f} -> {np.mean(a['off']):.2f} | "
                f"{sum(b['empty'])} -> {sum(a['empty'])} |"
            )
    for lang in LANGS:
        held_out = {s: figs[chosen[s]][(s, lang)] for s in SETS}

        def out_mean(key, held_out=held_out):
            return np.mean([np.mean(held_out[s][key]) for s in SETS])

        def out_pooled(key, held_out=held_out):
            return np.mean([v for s in SETS for v in held_out[s][key]])

        print(
            f"{lang}: nDCG@5 (mean of sets) bare {set_mean(base, SETS, lang, 'bare'):.3f}, "
            f"{set_mean(base, SETS, lang, 'ndcg'):.3f} -> {out_mean('ndcg'):.3f}; P@10 "
            f"{set_mean(base, SETS, lang, 'p10'):.3f} -> {out_mean('p10'):.3f}"
        )
        for kind in KINDS:
            print(
                f"  {kind:12s} pooled nDCG@5 bare {pooled(base, SETS, lang, kind + ' bare'):.3f}, "
                f"{pooled(base, SETS, lang, kind + ' ndcg'):.3f} -> "
                f"{out_pooled(kind + ' ndcg'):.3f}; P@10 "
                f"{pooled(base, SETS, lang, kind + ' p10'):.3f} -> {out_pooled(kind + ' p10'):.3f}"
            )
    print("in sample, every rule (nDCG@5 / P@10 means of sets; mood pooled nDCG@5 / P@10):")
    print_in_sample(figs, width=12, digits=4)


def stage_options() -> tuple[bool, bool, float]:
    """Take ``--stages``, ``--lean`` and ``--tolerance T`` out of ``sys.argv`` (``recorded``
    parses ``--save`` / ``--load`` only) and return them."""
    showing, leaning = "--stages" in sys.argv, "--lean" in sys.argv
    tolerance = 0.0
    if showing:
        sys.argv.remove("--stages")
    if leaning:
        sys.argv.remove("--lean")
    if "--tolerance" in sys.argv:
        at = sys.argv.index("--tolerance")
        tolerance = float(sys.argv[at + 1])
        del sys.argv[at : at + 2]
    return showing, leaning, tolerance


def main() -> None:
    from bench.activities_cut_cv import recorded

    showing, leaning, tolerance = stage_options()
    records = recorded(__doc__.split("\n")[0], DEV_SETS, DB_NAME)
    for rec in records:
        # A query-level probe before the search (off-topic forms, session 50) records a call
        # reading no hits; the replay reads the call with hits, and a query the probe emptied
        # has no such call and is answered empty as recorded.
        rec["calls"] = [c for c in rec["calls"] if "titles" in c]
    read(records)
    print(f"{len(records)} queries recorded")
    if showing:
        stages(records)
    elif leaning:
        lean_rotations(records, tolerance)
    else:
        rotations(records, tolerance)


if __name__ == "__main__":
    main()
