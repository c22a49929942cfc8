"""English requests below the bare model: the stage of each loss, and three rule families chosen
leave one set out (issue 30, session 46).

Replays a recording of ``bench.activities_cut_cv.record`` (``bench/activities_fit_floor.py
--save``) over the sets of ``bench.activities_heldout.DEV_SETS``.

- ``--stages``: every labelled request the service answers below the bare model (nDCG@5), with
  its nDCG@5 after each stage (``bench.activities_fit_fusion.stage_lists``: bare; the
  candidates in dense order, no cut; the relevance cut; the fused order; the precision gate and
  floor), the stage that loses most (``emptied`` when the answer is empty), the list lengths
  and the query's kinds and moods as the service reads them; then the counts and the fall
  summed per stage, per language and kind.
- otherwise: three families of rules, each chosen per held-out set on the other sets (the best
  mean English nDCG@5 of the sets whose P@10, and for the first family the Chinese figures too,
  fall by no more than ``--tolerance``, default 0) and measured on the held-out set:

  ``need``: a request stating a restless need (``rag.understand.needs.need_request``), or
  reading a mood and no kind, answered with its own pool rule, keep and gate threshold (the
  grid of ``bench.activities_fit_mood.GRID``); ``trust``: the fused order's weights of the words
  held and the cues against the dense score, English requests only (the grid of
  ``bench.activities_fit_fusion.trusting``); ``depth``: the cut's keep and pool rule with the
  English gate threshold, English requests only.

    .venv/bin/python bench/activities_fit_floor.py --save /tmp/rec.pkl
    .venv/bin/python bench/activities_fit_english.py --load /tmp/rec.pkl [--stages] [--tolerance 0]
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_fit_mood import (  # noqa: E402
    DB_NAME,
    GRID,
    LANGS,
    READ_AT,
    SETS,
    STAGES,
    gate_at,
    pooled,
    set_mean,
    stage_options,
)
from bench.activities_heldout import DEV_SETS  # noqa: E402

# The ``need`` family's readings: a need stated; that and no kind read; a need or a mood and no
# kind (bench/activities_fit_mood.py's ``mood`` reading widened by the need).
NEED_READINGS = ("need", "need&nokind", "need|mood")
# The ``trust`` family: the words' and the cues' weight over the dense score's (the shipped
# ratios first, bench/activities_fit_fusion.KEPT), set before any replay.
TRUST_WORDS = (None, 2.5, 2.0, 1.5, 1.0)
TRUST_CUES = (None, 1.25, 1.0, 0.75, 0.5)
# The ``depth`` family: keepBest, poolZ, the English gate threshold (the shipped first).
DEPTH = tuple(itertools.product((3, 4, 5), (1.0, 0.5), (0.25, 0.275, 0.3, 0.35)))


def read(records: list[dict]) -> None:
    """Set each record's readings: ``_need``, ``_moods``, ``_kinds``."""
    from activities.understanding import read_query
    from rag.understand.needs import need_request

    for rec in records:
        understood = read_query(rec["query"], now=READ_AT, tz=READ_AT.tzinfo)
        rec["_moods"], rec["_kinds"] = understood.moods, understood.kinds
        rec["_need"] = need_request(rec["query"])


def applies(reading: str, rec: dict) -> bool:
    """Return whether ``rec``'s query is of ``reading`` (:data:`NEED_READINGS`)."""
    mood = bool(rec["_moods"]) and not rec["_kinds"]
    if reading == "need":
        return rec["_need"]
    if reading == "need&nokind":
        return rec["_need"] and not rec["_kinds"]
    return rec["_need"] or mood


def stages(records: list[dict]) -> None:
    """Print every request under the bare model with its stages, then the counts."""
    from bench.activities_fit_fusion import stage_lists
    from bench.activities_relevance import ndcg_at

    fall: dict = defaultdict(float)
    count: dict = defaultdict(Counter)
    for rec in records:
        if rec.get("offTopic") or not rec["relevant_kept"]:
            continue
        lists = stage_lists(rec)
        score = {s: ndcg_at(lists[s], rec["relevant_kept"]) for s in STAGES}
        if score["service"] >= score["bare"] - 1e-9:
            continue
        steps = {
            after: score[after] - score[before] for before, after in itertools.pairwise(STAGES)
        }
        worst = "emptied" if not lists["service"] else min(steps, key=steps.get)
        for stage, step in steps.items():
            fall[(rec["lang"], stage)] += step
        count[(rec["lang"], rec["kind"])][worst] += 1
        figures = " ".join(f"{score[s]:.2f}" for s in STAGES)
        cues = ",".join(c.label for c in (*rec["_kinds"], *rec["_moods"]))
        print(
            f"  loss {rec['half']:7s} {rec['lang']} {rec['kind']:12s} {figures} "
            f"n {len(lists['cut'])}/{len(lists['service'])} {worst:10s} [{cues}] {rec['query']}"
        )
    for lang in LANGS:
        print(lang, "fall summed per stage:", {s: round(fall[(lang, s)], 2) for s in STAGES[1:]})
        for (lg, kind), by in sorted(count.items()):
            if lg == lang:
                print(f"  {kind:12s} {sum(by.values()):3d} losses, worst stage: {dict(by)}")


def cells(records: list[dict], shown_of) -> dict:
    """Return {(set, lang): {measure: values per query}} of the lists ``shown_of(rec)``."""
    from bench.activities_relevance import ndcg_at

    out: dict = defaultdict(lambda: defaultdict(list))
    for rec in records:
        cell = out[(rec["half"], rec["lang"])]
        shown = shown_of(rec)
        if rec.get("offTopic"):
            cell["off"].append(not shown)
            continue
        cell["empty"].append(not shown)
        relevant = rec["relevant_kept"]
        if not relevant:
            continue
        good = sum(1 for t in shown if relevant.get(t, 0) >= 1)
        cell["ndcg"].append(ndcg_at(shown, relevant))
        cell["p10"].append(good / len(shown) if shown else 0.0)
        cell["bare"].append(ndcg_at(rec["bare"], relevant))
        if rec["kind"] == "mood":
            cell["mood"].append(cell["ndcg"][-1])
    return out


def family(records: list[dict], name: str) -> dict:
    """Return {rule: cells} of the family ``name``; the first rule is the service as shipped."""
    from bench.activities_cut_cv import replay
    from bench.activities_fit_fusion import KEPT, trusting
    from bench.activities_fit_ranker import CUT

    shipped = gate_at(None)
    if name == "need":
        rules = [None] + [(r, *g) for r in NEED_READINGS for g in GRID if g != (1.0, 3, None)]

        def shown_of(rule):
            def shown(rec):
                if rule is None or not applies(rule[0], rec):
                    return replay(rec, CUT, gate=shipped)
                _, pool_z, keep, threshold = rule
                params = {**CUT, "poolZ": pool_z, "keepBest": keep}
                return replay(rec, params, gate=gate_at(threshold))

            return shown

        return {rule: cells(records, shown_of(rule)) for rule in rules}
    if name == "trust":
        rules = list(itertools.product(TRUST_WORDS, TRUST_CUES))

        def shown_of(rule):
            words = KEPT[1] / KEPT[0] if rule[0] is None else rule[0]
            cues = KEPT[2] / KEPT[0] if rule[1] is None else rule[1]
            order = trusting(words, cues, 1.0)

            def shown(rec):
                calls = [c for c in (*rec["calls"], rec["wide"]) if c and c.get("lists")]
                calls = calls if rec["lang"] == "en" else []
                saved = [c["fused"] for c in calls]
                for call in calls:
                    call["fused"] = order(call)
                try:
                    return replay(rec, CUT, gate=shipped)
                finally:
                    for call, fused in zip(calls, saved, strict=True):
                        call["fused"] = fused

            return shown

        return {rule: cells(records, shown_of(rule)) for rule in rules}

    def deeper(rule):
        keep, pool_z, threshold = rule
        gate = gate_at(threshold)

        def shown(rec):
            if rec["lang"] != "en":
                return replay(rec, CUT, gate=shipped)
            return replay(rec, {**CUT, "poolZ": pool_z, "keepBest": keep}, gate=gate)

        return shown

    return {rule: cells(records, deeper(rule)) for rule in DEPTH}


def rotations(records: list[dict], name: str, tolerance: float) -> None:
    """Choose a rule of ``name`` on all sets but one, print the one left out."""
    figs = family(records, name)
    rules = list(figs)
    base = figs[rules[0]]
    chosen = {}
    for held in SETS:
        train = [s for s in SETS if s != held]
        best, score = rules[0], set_mean(base, train, "en", "ndcg")
        for rule, fig in figs.items():
            keeps = all(
                set_mean(fig, train, lang, "p10") >= set_mean(base, train, lang, "p10") - tolerance
                and set_mean(fig, train, lang, "ndcg") >= set_mean(base, train, lang, "ndcg")
                for lang in (LANGS if name == "need" else ("en",))
            )
            if keeps and set_mean(fig, train, "en", "ndcg") > score + 1e-9:
                best, score = rule, set_mean(fig, train, "en", "ndcg")
        chosen[held] = best
    print(f"{name}: | held out | lang | rule | bare | nDCG@5 | P@10 | off-topic empty | empty |")
    for held in SETS:
        for lang in LANGS:
            b, a = base[(held, lang)], figs[chosen[held]][(held, lang)]
            print(
                f"| {held} | {lang} | {chosen[held]} | {np.mean(b['bare']):.3f} | "
                f"{np.mean(b['ndcg']):.3f} -> {np.mean(a['ndcg']):.3f} | "
                f"{np.mean(b['p10']):.3f} -> {np.mean(a['p10']):.3f} | "
                f"{np.mean(b['off']):.2f} -> {np.mean(a['off']):.2f} | "
                f"{sum(b['empty'])} -> {sum(a['empty'])} |"
            )
    for lang in LANGS:
        held_out = [figs[chosen[s]][(s, lang)] for s in SETS]
        print(
            f"{lang}: bare {set_mean(base, SETS, lang, 'bare'):.4f}; nDCG@5 "
            f"{set_mean(base, SETS, lang, 'ndcg'):.4f} -> "
            f"{np.mean([np.mean(h['ndcg']) for h in held_out]):.4f}; P@10 "
            f"{set_mean(base, SETS, lang, 'p10'):.4f} -> "
            f"{np.mean([np.mean(h['p10']) for h in held_out]):.4f}"
        )
    print("in sample (nDCG@5 / P@10, means of sets; en mood pooled):")
    for rule, fig in figs.items():
        en, zh = (
            f"{set_mean(fig, SETS, lg, 'ndcg'):.4f} / {set_mean(fig, SETS, lg, 'p10'):.4f}"
            for lg in ("en", "zh")
        )
        print(f"  {rule!s:34s} en {en} mood {pooled(fig, SETS, 'en', 'mood'):.4f} zh {zh}")


def main() -> None:
    from bench.activities_cut_cv import recorded

    showing, tolerance = stage_options()
    records = recorded(__doc__.split("\n")[0], DEV_SETS, DB_NAME)
    read(records)
    print(f"{len(records)} queries recorded")
    if showing:
        stages(records)
        return
    for name in ("need", "trust", "depth"):
        rotations(records, name, tolerance)


if __name__ == "__main__":
    main()
