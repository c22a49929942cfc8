"""Replay the audience cue (activities.audience) over the development sets (issue 30).

A listing stating an audience the query names (older people, children, newcomers, ...) counts
as a cue of the query: the cut's evidence of a hit, the precision gate's exemption and the
hybrid's cue feature read it as they read a kind or mood cue. This bench takes one recording
made without it (``bench/activities_fit_fusion.py --save``: every query once through the search,
the per-hit rules and the gate open), adds the audience cue to what each recorded call read of
its candidates (the listing's text from the corpus file, by title) and replays the service's
list: the shipped cut, the fused order, the shipped gate. It prints, per set and language and
for the audience queries apart, nDCG@5 and P@10 before and after, and the fusion weights
fitted leave-one-set-out with the cue (fit on all sets but one, measure that one).

    .venv/bin/python bench/activities_fit_audience.py --load /tmp/fusion.pkl
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_cut_cv import recorded  # noqa: E402
from bench.activities_fit_fusion import DB_NAME, SETS, fit, learned, ordered, pairs  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
LANGS = ("zh", "en")
KINDS = ("audience", "plain", "time", "negation", "mood", "crosslingual")


def listings() -> dict:
    """Return {corpus: {title: listing text}} of the tuning corpora."""
    from activities.audience import listing_text
    from bench.activities_heldout import TUNING_CORPORA

    out = {}
    for name in TUNING_CORPORA:
        rows = json.loads((DATA / f"activities_{name}.json").read_text())
        out[name] = {
            r["title"]: listing_text(
                type("Row", (), {**r, "tags": r.get("tags") or [], "type": r.get("type", "")})
            )
            for r in rows
        }
    return out


def with_audience(records: list[dict]) -> list[dict]:
    """Return a copy of ``records`` where each call reads the audience cue too."""
    from activities.audience import asked, refused, stated
    from rag.relevance import EVIDENCE_POOL

    texts = listings()
    out = copy.deepcopy(records)
    for rec in out:
        want, refuse = asked(rec["query"]), refused(rec["query"])
        if not want and not refuse:
            continue
        text = texts[rec["corpus"]]
        for call in (*rec["calls"], rec["wide"]):
            if not call or "titles" not in call:
                continue
            titles = call["titles"]
            a = [len(stated(text[t], want)) if want else 0 for t in titles]
            r = [len(stated(text[t], refuse)) if refuse else 0 for t in titles]
            kw = call["kw"]
            if kw.get("hit_evidence") is not None:
                kw["hit_evidence"] = [
                    h or n > 0 for h, n in zip(kw["hit_evidence"], a, strict=True)
                ]
                kw["evidence"] = any(kw["hit_evidence"][:EVIDENCE_POOL])
            pool = call.get("pool")
            if pool is not None:
                cues = pool.cues or (0.0,) * len(titles)
                call["pool"] = dataclasses.replace(
                    pool,
                    named=tuple(h or n > 0 for h, n in zip(pool.named, a, strict=True)),
                    cues=tuple(c + n for c, n in zip(cues, a, strict=True)),
                )
            lists = call.get("lists")
            if lists:
                for t, n, m in zip(titles, a, r, strict=True):
                    lists["cues_asked"][t] = lists["cues_asked"].get(t, 0) + n
                    lists["cues_refused"][t] = lists["cues_refused"].get(t, 0) + m
    return out


def table(label: str, records: list[dict], answer, sets) -> dict:
    from bench.activities_cut_cv import figures

    fig = figures(records, None, halves=sets, answer=answer)
    kinds = {}
    for kind in ("audience",):
        sub = [r for r in records if r.get("kind") == kind]
        kinds[kind] = figures(sub, None, halves=sets, answer=answer)
    return {"all": fig, **kinds}


def main() -> None:
    records = recorded(__doc__.split("\n")[0], SETS, DB_NAME)
    from activities.search_ranking import FUSION_WEIGHTS
    from bench.activities_cut_cv import figures

    sets = tuple(SETS)
    patched = with_audience(records)
    shipped = np.asarray(FUSION_WEIGHTS)

    def fig(recs, weights, kind=None):
        sub = [r for r in recs if kind is None or r.get("kind") == kind]
        return figures(sub, None, halves=sets, answer=lambda r: ordered(r, learned(weights)))

    def bare(recs, kind=None):
        sub = [r for r in recs if kind is None or r.get("kind") == kind]
        return figures(sub, None, halves=sets)

    loso = {s: fit(*pairs([r for r in patched if r["half"] != s])) for s in sets}
    for s, w in loso.items():
        print(f"fit without {s}:", np.round(w, 3).tolist())

    def rotated(recs, kind=None):
        sub = [r for r in recs if kind is None or r.get("kind") == kind]
        return figures(
            sub, None, halves=sets, answer=lambda r: ordered(r, learned(loso[r["half"]]))
        )

    for kind in (None, *KINDS):
        b, before = bare(records, kind), fig(records, shipped, kind)
        after, after_loso = fig(patched, shipped, kind), rotated(patched, kind)
        print(f"== {kind or 'all kinds'}: bare | before | cue, shipped weights | cue, LOSO")
        for s in sets:
            for lang in LANGS:
                c = [b[(s, lang)], before[(s, lang)], after[(s, lang)], after_loso[(s, lang)]]
                cells = " | ".join(f"{x['ndcg5']:.3f} {x['p10']:.3f}" for x in c)
                extra = f"off {c[2]['off_empty']:.2f}/{c[1]['off_empty']:.2f} "
                extra += f"empty {c[1]['empty']}->{c[2]['empty']}"
                print(f"{s:7s} {lang} {cells} {extra}")
    print("all six:", np.round(fit(*pairs(patched)), 3).tolist())


if __name__ == "__main__":
    main()
