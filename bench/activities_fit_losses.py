"""Labelled queries the service ranks well below the bare model: the stage of each loss, counted
per language, and a fitted rule against the most common one chosen leave one set out (issue
30, session 55).

It replays a recording of ``bench.activities_cut_cv.record`` over the sets of
``bench.activities_heldout.DEV_SETS`` (``bench/activities_fit_fusion.py --save``, or any bench
that records through ``bench.activities_cut_cv.recorded``) and prints

- ``--losses``: every labelled on-topic query whose service nDCG@5 is under the bare model's by
  :data:`LOSS` or more, with the stage that loses most (the lists of
  ``bench.activities_fit_fusion.stage_lists``; the service as it gates now,
  ``bench.activities_fit_crossfusion.service``), and within a stage what did it:
  the query level (``window``: a time window read, its small path or its filter; ``empty``:
  answered empty; ``filters``: another query-level decision), the per-hit ``cut``, the fused
  order (which fusion feature group, zeroed, gives back most: ``cues``, ``words`` held,
  ``refusal``, ``kind`` likeness, else ``dense``), the gate (``forced``: a rule dropping the
  row whatever the model says, the floor, the named kind or a refused word; else ``model``),
  counted per language;
- ``--after FILE``: per set and language the service before (the recording) and after (FILE:
  a recording of some sets with a change in place, ``--only S,S --save FILE``; the other sets
  as before), beside the bare model (:func:`compare`);
- otherwise: the rotations of :func:`rotations`: the cut deeper, the dense best spared by the
  gate, the gate's threshold scaled, chosen leave one set out (docs/RELEVANCE.md, "Labelled
  queries the service ranks well under the bare model", session 55).

    .venv/bin/python bench/activities_fit_fusion.py --save /tmp/rec.pkl
    .venv/bin/python bench/activities_fit_losses.py --load /tmp/rec.pkl [--losses]
    .venv/bin/python bench/activities_fit_losses.py --only fresh25 --save /tmp/f25.pkl --losses
        (records only those sets, over their corpora)
    .venv/bin/python bench/activities_fit_losses.py --load /tmp/rec.pkl --after /tmp/f25.pkl
"""

from __future__ import annotations

import pickle
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_cut_cv import recorded  # noqa: E402
from bench.activities_heldout import DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_losses"  # its own database: a recording beside another bench
SETS = tuple(DEV_SETS)
LANGS = ("zh", "en")
STAGES = ("bare", "no cut", "cut", "cut+fusion", "service")
LOSS = 0.2  # a query this far (nDCG@5) under the bare model is a loss (the brief's bar)
# The fusion's feature groups (columns of activities.search_ranking.FUSION_FEATURES), zeroed
# one at a time to say which moved a lost list.
GROUPS = {"words": (1,), "cues": (2,), "refusal": (3, 4), "kind": (5,)}


def _fused_without(call: dict, columns: tuple) -> dict:
    """Return {title: fused score} of ``call`` with the fusion's ``columns`` zeroed (the other
    language's trust as the service reads it)."""
    from activities.search_ranking import (
        FUSION_OVER_CHINESE,
        FUSION_OVER_OTHER_SCRIPT,
        FUSION_WEIGHTS,
    )
    from bench.activities_fit_fusion import features

    x = features(call)
    pool = call.get("pool")
    if pool is not None and pool.chinese_listings:
        x[:, 1:3] *= FUSION_OVER_CHINESE
    elif pool is not None and pool.other_script:
        x[:, 1:3] *= FUSION_OVER_OTHER_SCRIPT
    x[:, list(columns)] = 0.0
    return dict(zip(call["titles"], (x @ np.asarray(FUSION_WEIGHTS)).tolist(), strict=True))


def _with_order(rec: dict, order) -> list[str]:
    """Return the cut's list of ``rec`` in ``order`` (a function of a call), without the gate."""
    from bench.activities_cut_cv import replay
    from bench.activities_fit_ranker import CUT

    calls = [c for c in (*rec["calls"], rec["wide"]) if c and c.get("lists")]
    saved = [c.get("fused") for c in calls]
    for call in calls:
        call["fused"] = order(call)
    try:
        return replay(rec, CUT)
    finally:
        for call, fused in zip(calls, saved, strict=True):
            call["fused"] = fused


def _query_level(rec: dict, served: list[str]) -> str:
    if not served:
        return "empty"
    if rec["path"] == "hard_filter_small" or rec.get("applied") in ("filter", "rank"):
        return "window"
    return "filters"


def _fusion_cause(rec: dict) -> str:
    """Return the fusion feature group whose zeroing gives back most of ``rec``'s nDCG@5."""
    from bench.activities_relevance import ndcg_at

    relevant = rec["relevant_kept"]
    fused = ndcg_at(_with_order(rec, lambda c: c["fused"]), relevant)
    back = {
        name: ndcg_at(_with_order(rec, lambda c, cols=cols: _fused_without(c, cols)), relevant)
        - fused
        for name, cols in GROUPS.items()
    }
    name, gain = max(back.items(), key=lambda kv: kv[1])
    return name if gain > 1e-9 else "dense"


def _gate_cause(item: dict) -> str:
    """Return why the gate dropped the relevant rows it dropped of a prepared record."""
    gated = item["gated"]
    if gated is None:
        return "model"
    kept = set(item["served"])
    causes = Counter()
    for title, forced, y in zip(gated["shown"][1:], gated["forced"], gated["y"], strict=True):
        if y and title not in kept:
            causes["forced" if forced else "model"] += 1
    return causes.most_common(1)[0][0] if causes else "model"


def _cause(stage: str, item: dict) -> str:
    """Return what did the loss of a prepared record at ``stage`` (module docstring)."""
    rec = item["rec"]
    if stage == "no cut":
        return _query_level(rec, item["served"])
    if stage == "cut":
        return "cut"
    if stage == "cut+fusion":
        return _fusion_cause(rec)
    return _gate_cause(item)


def losses(records: list[dict]) -> list[dict]:
    """Return every labelled query's stage scores and, for a loss, its stage and cause."""
    from bench.activities_fit_crossfusion import service
    from bench.activities_fit_fusion import stage_lists
    from bench.activities_fit_second import prepared
    from bench.activities_relevance import ndcg_at

    out = []
    for item in prepared(records):
        rec = item["rec"]
        if rec.get("offTopic") or not rec["relevant_kept"]:
            continue
        item["served"] = service(item)
        lists = {**stage_lists(rec), "service": item["served"]}
        score = {s: ndcg_at(lists[s], rec["relevant_kept"]) for s in STAGES}
        row = {"rec": rec, "score": score, "stage": None, "cause": None}
        if score["service"] <= score["bare"] - LOSS + 1e-9:
            falls = {b: score[a] - score[b] for a, b in zip(STAGES, STAGES[1:], strict=False)}
            stage = max(falls, key=falls.get)
            row["stage"] = stage
            row["cause"] = _cause(stage, item)
        out.append(row)
    return out


def print_losses(rows: list[dict]) -> None:
    """Print each loss and the count per language, stage and cause."""
    counts: Counter = Counter()
    for row in rows:
        if row["stage"] is None:
            continue
        rec, score = row["rec"], row["score"]
        counts[(rec["lang"], row["stage"], row["cause"])] += 1
        figures = " ".join(f"{score[s]:.2f}" for s in STAGES)
        print(
            f"  loss {rec['half']:7s} {rec['lang']} {rec['kind']:12s} {figures} "
            f"{row['stage']:10s} {row['cause']:8s} {rec['query']}"
        )
    print("losses per language, stage and cause:")
    for lang in LANGS:
        total = sum(n for (lg, _, _), n in counts.items() if lg == lang)
        print(f"  {lang}: {total}")
        for (lg, stage, cause), n in sorted(counts.items(), key=lambda kv: -kv[1]):
            if lg == lang:
                print(f"    {stage:10s} {cause:8s} {n}")
    per = defaultdict(list)
    for row in rows:
        per[(row["rec"]["half"], row["rec"]["lang"])].append(row["stage"] is not None)
    print("losses per set (zh / en):")
    for s in SETS:
        print(f"  {s:7s} {sum(per[(s, 'zh')])} / {sum(per[(s, 'en')])}")


# Rules against the two most common stages of the losses (session 55), set before any replay:
# the per-hit cut's pool rule deeper (``poolZ``, ``poolZEvidence``: the shipped (1.0, 0.0) of
# bench.activities_fit_ranker.CUT first); the dense best row the cut kept (the bare model's
# first) spared by the gate's model (``model``) or by every rule of the gate but a refused word
# it names (``all``); the gate's threshold scaled (``scale``); every combination.
CUTS = ((1.0, 0.0), (0.75, 0.0), (0.5, 0.0), (1.0, -0.25))
PROTECT = (None, "model", "all")
SCALES = (1.0, 0.75, 0.5)
RULES = tuple((cut, protect, scale) for cut in CUTS for protect in PROTECT for scale in SCALES)
P10_SLACK = 0.002  # a training P@10 (mean of the sets) this much under the shipped one loses


def served(item: dict, rule) -> list[str]:
    """Return the list shown for a prepared record (prepared under the rule's cut) under
    ``rule`` ((cut, protect, scale); :data:`RULES`' first is the service as shipped)."""
    from activities.search_ranker import (
        INTERCEPT,
        KEEP_FIRST,
        SECOND_INTERCEPT,
        SECOND_THRESHOLD,
        SECOND_WEIGHTS,
        THRESHOLD_EN,
        WEIGHTS,
    )
    from bench.activities_fit_crossfusion import service
    from bench.activities_fit_second import columns

    _, protect, scale = rule
    gated = item["gated"]
    if protect is None or gated is None or not item["rec"]["results"]:
        return service(item, scale)
    shown = gated["shown"]
    if not len(gated["x"]):
        return shown
    if gated["english"]:
        weights, intercept, threshold, cols = WEIGHTS, INTERCEPT, THRESHOLD_EN, columns(())
    else:
        if len(shown) <= KEEP_FIRST:
            return shown
        weights, intercept = SECOND_WEIGHTS, SECOND_INTERCEPT
        threshold, cols = SECOND_THRESHOLD, columns(("first_like",))
    x = gated["x"]
    p = 1.0 / (1.0 + np.exp(-(x[:, cols] @ np.asarray(weights) + intercept)))
    drop = gated["forced"] | (~gated["exempt"] & (p < threshold * scale))
    dense_best = x[:, 3] == 0.0  # log1p of the dense place
    spared = dense_best & ~(gated["refusing"] if protect == "all" else gated["forced"])
    drop &= ~spared
    return shown[:KEEP_FIRST] + [t for t, d in zip(shown[KEEP_FIRST:], drop, strict=True) if not d]


def _refusing(items: list[dict]) -> None:
    """Give each gated item whether each row after the first names a refused word."""
    from activities.search_ranker import KEEP_FIRST
    from bench.activities_cut_cv import replay
    from bench.activities_fit_ranker import CUT, recorded_pool

    for item in items:
        gated = item["gated"]
        if gated is None:
            continue
        seen: list = []
        replay(item["rec"], CUT, gate=lambda call, shown, seen=seen: seen.append(call) or shown)
        call = seen[0]
        index = {t: i for i, t in enumerate(call["titles"])}
        refusing = recorded_pool(call).refusing or (False,) * len(call["titles"])
        gated["refusing"] = np.array(
            [bool(refusing[index[t]]) for t in gated["shown"][KEEP_FIRST:]], dtype=bool
        )


def _cells(items: list[dict], rule) -> dict:
    """Return {(set, lang): measures} of ``rule``: nDCG@5, P@10, off-topic and labelled
    answered empty, losses to the bare model (:data:`LOSS`)."""
    from bench.activities_relevance import ndcg_at

    acc: dict = defaultdict(lambda: defaultdict(list))
    for item in items:
        rec = item["rec"]
        shown = served(item, rule)
        cell = acc[(rec["half"], rec["lang"])]
        if rec.get("offTopic"):
            cell["off"].append(not shown)
            continue
        cell["empty"].append(not shown)
        relevant = rec["relevant_kept"]
        if not relevant:
            continue
        score, bare = ndcg_at(shown, relevant), ndcg_at(rec["bare"], relevant)
        cell["ndcg"].append(score)
        cell["bare"].append(bare)
        cell["p10"].append(sum(relevant.get(t, 0) >= 1 for t in shown) / len(shown) if shown else 0)
        cell["loss"].append(score <= bare - LOSS + 1e-9)
    return {
        key: {
            "ndcg": np.mean(c["ndcg"]),
            "bare": np.mean(c["bare"]),
            "p10": np.mean(c["p10"]),
            "off": np.mean(c["off"]) if c["off"] else float("nan"),
            "empty": int(sum(c["empty"])),
            "loss": int(sum(c["loss"])),
        }
        for key, c in acc.items()
    }


def _mean(fig: dict, sets, lang: str, key: str) -> float:
    return float(np.mean([fig[(s, lang)][key] for s in sets]))


def rotations(records: list[dict]) -> None:
    """Print each rule in sample, then per held-out set the rule chosen on the other sets (the
    best mean nDCG@5 of both languages among rules whose nDCG@5 falls in neither language, P@10
    in neither by more than :data:`P10_SLACK`, and no more labelled query answered empty; else
    the shipped service) beside the bare model and the shipped service."""
    import bench.activities_fit_ranker as ranker
    from bench.activities_fit_second import prepared

    shipped_cut = dict(ranker.CUT)
    records = [rec for rec in records if rec["half"] in SETS]
    present = {rec["half"] for rec in records}
    sets = [s for s in SETS if s in present]  # an older recording holds fewer sets
    figs = {}
    try:
        for cut in CUTS:
            ranker.CUT = {**shipped_cut, "poolZ": cut[0], "poolZEvidence": cut[1]}
            items = prepared(records)
            _refusing(items)
            for rule in RULES:
                if rule[0] == cut:
                    figs[rule] = _cells(items, rule)
    finally:
        ranker.CUT = shipped_cut
    shipped = RULES[0]
    print("in sample (means of the sets): nDCG@5 / P@10 / losses, zh | en")
    for rule, fig in figs.items():
        line = " | ".join(
            f"{_mean(fig, sets, lg, 'ndcg'):.4f} / {_mean(fig, sets, lg, 'p10'):.4f} / "
            f"{sum(fig[(s, lg)]['loss'] for s in sets)}"
            for lg in LANGS
        )
        print(f"  {rule!s:30s} {line}")
    print(
        "held out: set lang n bare | shipped nDCG@5 P@10 losses | chosen -> nDCG@5 P@10 losses"
        " | off-topic empty, labelled empty"
    )
    for held in sets:
        train = [s for s in sets if s != held]

        def holds(rule, train=train):
            return all(
                _mean(figs[rule], train, lg, "ndcg") >= _mean(figs[shipped], train, lg, "ndcg")
                and _mean(figs[rule], train, lg, "p10")
                >= _mean(figs[shipped], train, lg, "p10") - P10_SLACK
                and sum(figs[rule][(s, lg)]["empty"] for s in train)
                <= sum(figs[shipped][(s, lg)]["empty"] for s in train)
                for lg in LANGS
            )

        chosen = max(
            (r for r in RULES if holds(r)),
            key=lambda r: (sum(_mean(figs[r], train, lg, "ndcg") for lg in LANGS), r == shipped),
        )
        for lg in LANGS:
            a, b = figs[shipped][(held, lg)], figs[chosen][(held, lg)]
            print(
                f"  {held:7s} {lg} bare {a['bare']:.3f} | {a['ndcg']:.3f} {a['p10']:.3f} "
                f"{a['loss']} | {chosen!s:30s} {b['ndcg']:.3f} {b['p10']:.3f} {b['loss']} | "
                f"{b['off']:.2f} {b['empty']}"
            )


def compare(records: list[dict], after: list[dict]) -> None:
    """Print per set and language the shipped service replayed on ``records`` and on ``after``
    (a recording of some sets with a change in place; the other sets as in ``records``), beside
    the bare model: nDCG@5, P@10, losses (:data:`LOSS`), off-topic and labelled answered empty."""
    from bench.activities_fit_second import prepared

    redone = {rec["half"] for rec in after}
    kept = [rec for rec in records if rec["half"] not in redone]
    shipped = RULES[0]
    before = _cells(prepared(records), shipped)
    now = _cells(prepared(kept + after), shipped)
    sets = [s for s in SETS if any((s, lg) in before for lg in LANGS)]
    print(
        "set lang | bare | nDCG@5 before -> after | P@10 before -> after | losses | "
        "off-topic empty | labelled empty"
    )
    for s in sets:
        for lg in LANGS:
            a, b = before[(s, lg)], now[(s, lg)]
            print(
                f"  {s:7s} {lg} | {a['bare']:.3f} | {a['ndcg']:.3f} -> {b['ndcg']:.3f} | "
                f"{a['p10']:.3f} -> {b['p10']:.3f} | {a['loss']} -> {b['loss']} | "
                f"{a['off']:.2f} -> {b['off']:.2f} | {a['empty']} -> {b['empty']}"
            )
    for lg in LANGS:
        print(
            f"  mean {lg}: bare {_mean(before, sets, lg, 'bare'):.4f}, nDCG@5 "
            f"{_mean(before, sets, lg, 'ndcg'):.4f} -> {_mean(now, sets, lg, 'ndcg'):.4f}, P@10 "
            f"{_mean(before, sets, lg, 'p10'):.4f} -> {_mean(now, sets, lg, 'p10'):.4f}, losses "
            f"{sum(before[(s, lg)]['loss'] for s in sets)} -> "
            f"{sum(now[(s, lg)]['loss'] for s in sets)}"
        )


def _only(args: list[str]) -> dict | None:
    """Take ``--only S,S`` out of ``args``: record only those sets, over the corpora holding
    their queries (patched into ``bench.activities_heldout.TUNING_CORPORA``); None: every set."""
    import bench.activities_heldout as heldout

    if "--only" not in args:
        return None
    at = args.index("--only")
    names = args[at + 1].split(",")
    del args[at : at + 2]
    halves = {name: DEV_SETS[name] for name in names}
    heldout.TUNING_CORPORA = [
        corpus
        for corpus in heldout.TUNING_CORPORA
        if any(heldout.read_queries(split, corpus) for split in halves.values())
    ]
    return halves


def main() -> None:
    args = sys.argv
    show_losses = "--losses" in args
    if show_losses:
        args.remove("--losses")  # recorded() parses --save / --load only
    after = None
    if "--after" in args:
        at = args.index("--after")
        after = Path(args[at + 1])
        del args[at : at + 2]
    halves = _only(args)
    records = recorded(__doc__.split("\n")[0], halves or DEV_SETS, DB_NAME)
    if after is not None:  # unpickled once Django is set up
        after = pickle.loads(after.read_bytes())
    for each in (records, after or []):
        for rec in each:  # a recording before session 54 kept calls without candidates
            rec["calls"] = [c for c in rec["calls"] if "titles" in c]
    records = [r for r in records if r["half"] in SETS]
    if after is not None:
        compare(records, after)
    elif show_losses:
        print_losses(losses(records))
    else:
        rotations(records)


if __name__ == "__main__":
    main()
