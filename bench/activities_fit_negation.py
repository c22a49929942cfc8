"""Refusal queries against the bare model, and three readings of a refused narrower thing
(issue 30, session 54).

A Chinese refusal often names a narrower thing inside the kind still asked (「除了火锅还有什么
好吃的」, 「想动一动，球类运动就算了」, 「想行下路 不要爬山」). Session 53 found that dropping the
refused part's lexicon cues from what names the query loses; this bench asks where the refusal
queries lose and whether the fused order should read the refused part's kind another way.

Every query of the development sets (``DEV_SETS``) goes through ``activities_search`` once with
the per-hit rules and the precision gate open (``bench.activities_cut_cv.recorded``; ``--save`` /
``--load`` as the other fitting benches). Then, for the refusal queries (kind "negation", or any
labelled query in which ``rag.understand.negation`` reads a refusal) of the language
``--lang`` (default zh):

1. per query: nDCG@5 after each stage of the service (``bench.activities_fit_fusion.
   stage_lists``: bare model, the moved vector's candidates, the per-hit cut, the learned order,
   the precision gate), the stage that loses most, the refused phrases and words, and the
   lexicon's cues read over the whole query, outside its refusals, and over its refused phrases;
2. per set: nDCG@5 and P@10 of the bare model and of the service (replayed);
3. three changes of the fused order, each judged leaving one set out (chosen or fitted on the
   other sets, measured on the one left out): "cues": the refused cues of the query counted as
   asked in the fusion's cue feature (the kind a refused narrower thing implies is still asked);
   "kind": a seventh fusion feature, the row's type or vibes among the cues read over the refused
   phrases, its weight fitted by the pairwise logistic of bench/activities_fit_fusion.py with
   the six shipped weights fixed; "like": the weight of the similarity to the refused phrases
   for queries of this language, chosen from a grid.

Replays change the fused order only; the cut and the gate keep their recorded inputs (the gate
reads the order it is given). Never writes docs/BENCHMARKS.md.

``--refused-away X`` instead runs ``bench/activities_heldout.py`` (its arguments after this one)
with ``activities.negation.REFUSED_AWAY`` set to X: how much of the refused direction the query's
vector loses re-embeds the query, so a cell of that grid is a real run, not a replay.

    .venv/bin/python bench/activities_fit_negation.py --save /tmp/negation.pkl
    .venv/bin/python bench/activities_fit_negation.py --load /tmp/negation.pkl --lang zh
    .venv/bin/python bench/activities_fit_negation.py --refused-away 0.35 --split all \
        --queries /tmp/zh_refusals.jsonl --json /tmp/away.json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_cut_cv import recorded  # noqa: E402
from bench.activities_heldout import CORPORA, DATA, DEV_SETS  # noqa: E402

DB_NAME = "bench_activities_fit_fusion"  # the fusion bench's recording database
STAGES = ("bare", "no cut", "cut", "cut+fusion", "service")
LIKE_GRID = (None, -1.0, -2.0, -3.0)  # None: the shipped FUSION_WEIGHTS[4]


def _lang_arg() -> str:
    args = sys.argv[1:]
    lang = args[args.index("--lang") + 1] if "--lang" in args else "zh"
    if "--lang" in args:
        at = sys.argv.index("--lang")
        del sys.argv[at : at + 2]  # recorded() parses the rest
    return lang


def refusal_records(records: list[dict], lang: str) -> list[dict]:
    """Return the labelled on-topic refusal queries of ``lang`` (kind "negation", or a refusal
    read), each with the calls that reached the per-hit cut only: a query the service searched
    twice records a first decision without candidates, which the replays cannot read."""
    from rag.understand.negation import negated_spans

    out = []
    for rec in records:
        if rec["lang"] != lang or rec.get("offTopic") or not rec["relevant_kept"]:
            continue
        if rec["kind"] == "negation" or negated_spans(rec["query"]):
            out.append(rec)
    return out


def cue_labels(text: str) -> tuple[set, set, set]:
    """Return the lexicon's cue labels of ``text``: all, those outside its refusals, and those
    read over its refused phrases alone (``activities.understanding.read_query``)."""
    from activities.understanding import read_query
    from rag.understand.negation import inside, negated_spans
    from rag.understand.negation_refused import refused_phrases

    now = datetime(2026, 11, 25, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    understood = read_query(text, now=now, tz=now.tzinfo)
    spans = negated_spans(text)
    cues = (*understood.kinds, *understood.moods)
    refused = set()
    for phrase in refused_phrases(text):
        part = read_query(phrase, now=now, tz=now.tzinfo)
        refused |= {c.label for c in (*part.kinds, *part.moods)}
    asked = {c.label for c in cues if not inside(c.span, spans)}
    return {c.label for c in cues}, asked, refused


def _precision(shown: list[str], relevant: dict) -> float:
    return sum(1 for t in shown if relevant.get(t, 0) >= 1) / len(shown) if shown else 0.0


def diagnose(recs: list[dict]) -> None:
    """Print each refusal query's stages, the stage losing most, and what was read of it."""
    from bench.activities_fit_fusion import stage_lists
    from bench.activities_relevance import ndcg_at
    from rag.understand.negation_refused import refused_phrases

    print("set | query | " + " / ".join(STAGES) + " | loses at | refused | words | cues")
    for rec in recs:
        lists = stage_lists(rec)
        nd = [ndcg_at(lists[s], rec["relevant_kept"]) for s in STAGES]
        steps = [nd[i + 1] - nd[i] for i in range(len(nd) - 1)]
        worst = int(np.argmin(steps))
        loses = ("vector", "cut", "order", "gate")[worst] if steps[worst] < -0.01 else "-"
        call = rec["calls"][0] if rec["calls"] else {}
        words = (call.get("lists") or {}).get("negated")
        named, asked, refused = cue_labels(rec["query"])
        print(
            f"{rec['half']} | {rec['query']} | {' / '.join(f'{v:.2f}' for v in nd)} | {loses} | "
            f"{refused_phrases(rec['query'])} | {words} | all {sorted(named)} asked "
            f"{sorted(asked)} refused part {sorted(refused)}"
        )


def _rows_of(corpus: str, cache: dict) -> dict:
    """Return {title: (type, vibes)} of ``corpus`` as loaded (lexicon vibes)."""
    from activities.vibes import lexicon_vibes

    if corpus not in cache:
        items = json.loads((DATA / CORPORA[corpus][0]).read_text(encoding="utf-8"))
        cache[corpus] = {
            a["title"]: (
                a["type"],
                set(
                    lexicon_vibes(
                        type=a["type"],
                        title=a["title"],
                        description=a.get("description", ""),
                        tags=a.get("tags", ()),
                    )
                ),
            )
            for a in items
        }
    return cache[corpus]


def refused_kind(rec: dict, call: dict, cache: dict) -> np.ndarray:
    """Return per candidate of ``call`` how many of the cues read over ``rec``'s refused
    phrases its type and vibes hold (the "kind" feature)."""
    labels = rec.setdefault("_refused_labels", cue_labels(rec["query"])[2])
    if not labels:
        return np.zeros(len(call["titles"]))
    table = _rows_of(rec["corpus"], cache)
    return np.asarray(
        [
            float(table.get(t, ("", set()))[0] in labels)
            + len(table.get(t, ("", set()))[1] & labels)
            for t in call["titles"]
        ]
    )


def shifted(rec: dict, change: dict, cache: dict):
    """Return the order function of ``change`` for ``rec``: the recorded fused scores plus the
    change's terms ({"cues": bool, "kind": weight, "like": weight or None})."""
    from activities.search_ranking import FUSION_WEIGHTS
    from bench.activities_fit_fusion import features

    def order(call):
        fused = dict(call["fused"])
        lists = call["lists"]
        delta = np.zeros(len(call["titles"]))
        if change.get("cues"):
            delta += FUSION_WEIGHTS[2] * np.asarray(
                [lists["cues"].get(t, 0) - lists["cues_asked"].get(t, 0) for t in call["titles"]]
            )
        if change.get("kind"):
            delta += change["kind"] * refused_kind(rec, call, cache)
        if change.get("like") is not None:
            delta += (change["like"] - FUSION_WEIGHTS[4]) * features(call)[:, 4]
        for title, d in zip(call["titles"], delta, strict=True):
            fused[title] = fused.get(title, 0.0) + float(d)
        return fused

    return order


def measured(recs: list[dict], change: dict | None, cache: dict) -> dict:
    """Return {query index: (nDCG@5, P@10, empty)} of ``recs`` under ``change`` (None: as
    recorded)."""
    from bench.activities_fit_fusion import ordered
    from bench.activities_relevance import ndcg_at

    out = {}
    for i, rec in enumerate(recs):
        if change is None:
            shown = ordered(rec, lambda call: call["fused"])
        else:
            shown = ordered(rec, shifted(rec, change, cache))
        out[i] = (ndcg_at(shown, rec["relevant_kept"]), _precision(shown, rec["relevant_kept"]))
        out[i] += (not shown,)
    return out


def kind_weight(records: list[dict], held_out: str | None, cache: dict) -> float:
    """Return the "kind" weight fitted on every labelled query not of ``held_out``."""
    from activities.search_ranking import FUSION_WEIGHTS
    from bench.activities_fit_fusion import features, fit, pairs

    xs, ws = [], []
    for rec in records:
        if rec["half"] == held_out or not rec.get("_refusing"):
            continue

        def read(call, rec=rec):
            return np.column_stack([features(call), refused_kind(rec, call, cache)])

        x, w = pairs([rec], read=read)
        if len(x):
            xs.append(x)
            ws.append(w)
    # the other queries' pairs add nothing to this feature (0 for every candidate): left out
    return float(fit(np.concatenate(xs), np.concatenate(ws), fixed=FUSION_WEIGHTS)[-1])


def _table(title: str, recs: list[dict], base: dict, after: dict, bare: dict, chosen=None):
    print(f"\n{title}")
    print("set | n | bare nDCG@5 P@10 | before | after | empty before -> after | chosen")
    pooled = defaultdict(list)
    for s in DEV_SETS:
        idx = [i for i, r in enumerate(recs) if r["half"] == s]
        if not idx:
            continue
        cells = []
        for name, fig in (("bare", bare), ("before", base), ("after", after)):
            cells.append(
                f"{np.mean([fig[i][0] for i in idx]):.3f} {np.mean([fig[i][1] for i in idx]):.3f}"
            )
            pooled[name] += [fig[i] for i in idx]
        empty = f"{sum(base[i][2] for i in idx)} -> {sum(after[i][2] for i in idx)}"
        print(
            f"{s} | {len(idx)} | " + " | ".join(cells) + f" | {empty} | {(chosen or {}).get(s, '')}"
        )
    print(
        "pooled | "
        + " | ".join(
            f"{name} {np.mean([v[0] for v in vs]):.3f} {np.mean([v[1] for v in vs]):.3f}"
            for name, vs in pooled.items()
        )
    )


def run_away() -> None:
    """Run bench/activities_heldout.py with ``REFUSED_AWAY`` set (``--refused-away X``)."""
    import activities.negation as negation
    from bench import activities_heldout

    at = sys.argv.index("--refused-away")
    negation.REFUSED_AWAY = float(sys.argv[at + 1])
    del sys.argv[at : at + 2]
    activities_heldout.main()


def main() -> None:
    from bench.activities_relevance import ndcg_at

    if "--refused-away" in sys.argv:
        run_away()
        return
    lang = _lang_arg()
    records = recorded(__doc__.split("\n")[0], DEV_SETS, DB_NAME)
    recs = refusal_records(records, lang)
    for rec in recs:
        rec["_refusing"] = True
    print(f"{len(recs)} {lang} refusal queries of {len(records)} recorded")
    diagnose(recs)
    cache: dict = {}
    bare = {
        i: (ndcg_at(r["bare"], r["relevant_kept"]), _precision(r["bare"], r["relevant_kept"]), 0)
        for i, r in enumerate(recs)
    }
    base = measured(recs, None, cache)
    _table("service as recorded against the bare model", recs, base, base, bare)

    cues = measured(recs, {"cues": True}, cache)
    chosen, after = {}, {}
    for s in DEV_SETS:
        train = [i for i, r in enumerate(recs) if r["half"] != s]
        on = np.mean([cues[i][0] for i in train]) > np.mean([base[i][0] for i in train])
        chosen[s] = "on" if on else "off"
        for i, r in enumerate(recs):
            if r["half"] == s:
                after[i] = cues[i] if on else base[i]
    _table(
        "cues: refused cues counted as asked, chosen on the other sets",
        recs,
        base,
        after,
        bare,
        chosen,
    )

    chosen, after = {}, {}
    for s in DEV_SETS:
        if not any(r["half"] == s for r in recs):
            continue
        weight = kind_weight(recs, s, cache)
        chosen[s] = f"{weight:+.3f}"
        held = [r for r in recs if r["half"] == s]
        fig = measured(held, {"kind": weight}, cache)
        idx = [i for i, r in enumerate(recs) if r["half"] == s]
        after.update({i: fig[k] for k, i in enumerate(idx)})
    _table(
        "kind: the refused part's kind as a feature, weight fitted on the other sets",
        recs,
        base,
        after,
        bare,
        chosen,
    )

    grid = {w: (base if w is None else measured(recs, {"like": w}, cache)) for w in LIKE_GRID}
    chosen, after = {}, {}
    for s in DEV_SETS:
        train = [i for i, r in enumerate(recs) if r["half"] != s]
        best = max(LIKE_GRID, key=lambda w: (np.mean([grid[w][i][0] for i in train]), w is None))
        chosen[s] = "shipped" if best is None else f"{best:+.1f}"
        for i, r in enumerate(recs):
            if r["half"] == s:
                after[i] = grid[best][i]
    _table(
        "like: the refused similarity's weight for this language, chosen on the other sets",
        recs,
        base,
        after,
        bare,
        chosen,
    )


if __name__ == "__main__":
    main()
