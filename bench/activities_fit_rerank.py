"""Read a listing's text against the request apart from the whole-listing vector (issue 30).

Session 45 measured that mood and need requests lose by the order of the ~20 candidates the
service already reads (an order of the same candidates by their labels: mood nDCG@5 ~0.77,
shipped ~0.33). This bench tests whether the fusion (``activities.search_ranking``,
``FUSION_FEATURES``) orders them better with a reading of the text that the whole-listing
vector blurs, each as a standard score among the query's candidates (as ``pool_z``):

- ``desc``: the query's similarity to the description alone (embedded as a passage);
- ``maxsim``: its best similarity over the description's sentences (a MaxSim);
- ``meta``: its similarity to the listing's type and tags;
- ``title``: its similarity to the title alone;
- ``type`` and ``tags``: its similarity to each of the two apart.

Held out (docs/RELEVANCE.md, "Ordering mood and need candidates"): ``meta`` lifts every kind in
both languages; the description read apart adds nothing.

The query's vector is the one the service embedded (recorded); the texts are embedded here with
the same local model (passage role) from the listings of ``TUNING_CORPORA`` (by name, never a
glob). Each variant refits the fusion pairwise (``bench.activities_fit_fusion.fit``) with the
shipped five weights fixed and the new weight fitted, or all weights free, leave one set out
over ``DEV_SETS`` (fit on sixteen, replay the held-out one through the shipped cut and gate),
and prints per set and language nDCG@5 / P@10 beside the shipped order and the bare model, and
the mood kind per language.

    .venv/bin/python bench/activities_fit_fusion.py --save /tmp/fusion.pkl   # the recording
    .venv/bin/python bench/activities_fit_rerank.py --load /tmp/fusion.pkl
"""

from __future__ import annotations

import json
import pickle
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.activities_cut_cv import recorded  # noqa: E402
from bench.activities_fit_fusion import features, fit, ordered, pairs  # noqa: E402
from bench.activities_heldout import CORPORA, DATA, DEV_SETS, TUNING_CORPORA  # noqa: E402

DB_NAME = "bench_activities_fit_fusion"
SETS = tuple(DEV_SETS)
LANGS = ("zh", "en")
EXTRA = ("desc", "maxsim", "meta", "title", "type", "tags")
# A sentence ends at a Chinese or Latin stop, a semicolon or a line break.
SENTENCE = re.compile(r"[。！？!?；;\n]+|(?<=[^\d\s])\.\s+")
# The embedded texts, kept between replays (scratch, outside the repository).
VECTORS = Path("/tmp/q46rerank/texts.pkl")


def sentences(text: str) -> list[str]:
    """Return the description's sentences (at least one: the whole text)."""
    parts = [p.strip(" ，,。.") for p in SENTENCE.split(text or "")]
    parts = [p for p in parts if len(p) >= 2]
    return parts or [text or ""]


def listing_texts() -> dict:
    """Return {(corpus, title): {"desc", "sentences", "meta", "title"}} of the tuning corpora."""
    out = {}
    for name in TUNING_CORPORA:
        items = json.loads((DATA / CORPORA[name][0]).read_text(encoding="utf-8"))
        for item in items:
            tags = ", ".join(str(t) for t in item.get("tags") or [])
            out[(name, item["title"])] = {
                "desc": item.get("description") or "",
                "sentences": sentences(item.get("description") or ""),
                "meta": f"{item.get('type') or ''} {tags}".strip(),
                "title": item["title"],
                "type": item.get("type") or "",
                "tags": tags,
            }
    return out


def embedded(texts: dict) -> dict:
    """Return {text: unit vector} of every text the features read (cached in VECTORS)."""
    from rag.embeddings import embed_texts

    wanted = set()
    for t in texts.values():
        wanted |= {t["desc"], t["meta"], t["title"], t["type"], t["tags"], *t["sentences"]}
    wanted.discard("")
    cache = pickle.loads(VECTORS.read_bytes()) if VECTORS.exists() else {}
    missing = sorted(wanted - set(cache))
    started = time.perf_counter()
    for start in range(0, len(missing), 64):
        batch = missing[start : start + 64]
        for text, vec in zip(batch, embed_texts(batch, use_cache=False), strict=True):
            v = np.asarray(vec, dtype=np.float32)
            cache[text] = v / (np.linalg.norm(v) or 1.0)
    if missing:
        took = time.perf_counter() - started
        print(f"embedded {len(missing)} texts in {took:.0f} s ({len(missing) / took:.0f}/s)")
        VECTORS.write_bytes(pickle.dumps(cache))
    return cache


def zscore(values) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    spread = values.std()
    return (values - values.mean()) / spread if spread > 1e-9 else np.zeros_like(values)


def attach(records: list[dict], texts: dict, vectors: dict) -> None:
    """Store on every recorded call ``extra``: one row of :data:`EXTRA` per candidate."""
    for rec in records:
        for call in (*rec["calls"], rec["wide"]):
            if not call or "vector" not in call or "titles" not in call:
                continue
            q = np.asarray(call["vector"], dtype=np.float64)
            q = q / (np.linalg.norm(q) or 1.0)
            cols = defaultdict(list)
            for title, whole in zip(call["titles"], call["scores"], strict=True):
                t = texts.get((rec["corpus"], title))
                if t is None:
                    raise SystemExit(f"no listing {rec['corpus']} / {title}")

                def sim(text, whole=whole, q=q):
                    return float(vectors[text] @ q) if text in vectors else float(whole)

                cols["desc"].append(sim(t["desc"]))
                cols["maxsim"].append(max(sim(s) for s in t["sentences"]))
                cols["meta"].append(sim(t["meta"]))
                cols["title"].append(sim(t["title"]))
                cols["type"].append(sim(t["type"]))
                cols["tags"].append(sim(t["tags"]))
            call["extra"] = np.stack([zscore(cols[name]) for name in EXTRA], axis=1)


def with_extra(names):
    """Return a features function: the shipped five and the ``names`` of :data:`EXTRA`."""
    index = [EXTRA.index(n) for n in names]

    def read(call):
        return np.concatenate([features(call), call["extra"][:, index]], axis=1)

    return read


def order_by(read, weights):
    def order(call):
        if "extra" not in call:
            return call["fused"]
        return dict(zip(call["titles"], (read(call) @ weights).tolist(), strict=True))

    return order


def evaluate(records, answer) -> dict:
    """Return {(set, lang, kind or "all"): (nDCG@5, P@10, n)} and off-topic / labelled empty."""
    from bench.activities_relevance import ndcg_at

    cells = defaultdict(lambda: ([], []))
    off, empty = defaultdict(list), defaultdict(int)
    for rec in records:
        shown = answer(rec)
        key = (rec["half"], rec["lang"])
        if rec.get("offTopic"):
            off[key].append(not shown)
            continue
        empty[key] += not shown
        relevant = rec["relevant_kept"]
        if not relevant:
            continue
        good = sum(1 for t in shown if relevant.get(t, 0) >= 1)
        for kind in ("all", rec["kind"]):
            n, p = cells[(*key, kind)]
            n.append(ndcg_at(shown, relevant))
            p.append(good / len(shown) if shown else 0.0)
    out = {k: (np.mean(n), np.mean(p), len(n)) for k, (n, p) in cells.items()}
    out["off"] = {k: np.mean(v) for k, v in off.items()}
    out["empty"] = dict(empty)
    return out


def summary(name: str, fig: dict) -> str:
    parts = []
    for lang in LANGS:
        nd = np.mean([fig[(s, lang, "all")][0] for s in SETS])
        p10 = np.mean([fig[(s, lang, "all")][1] for s in SETS])
        mood = np.mean([fig[(s, lang, "mood")][0] for s in SETS if (s, lang, "mood") in fig])
        aud = np.mean([fig[(s, lang, "audience")][0] for s in SETS if (s, lang, "audience") in fig])
        neg = np.mean([fig[(s, lang, "negation")][0] for s in SETS if (s, lang, "negation") in fig])
        empty = sum(fig["empty"].get((s, lang), 0) for s in SETS)
        off = np.mean([fig["off"][(s, lang)] for s in SETS if (s, lang) in fig["off"]])
        parts.append(
            f"{lang} nDCG@5 {nd:.3f} P@10 {p10:.3f} mood {mood:.3f} audience {aud:.3f}"
            f" negation {neg:.3f} off-empty {off:.3f} labelled-empty {empty}"
        )
    return f"{name:28s} " + " | ".join(parts)


def main() -> None:
    # A last argument after --load PATH: only these variants ("meta,type+tags"), five fixed.
    chosen = sys.argv.pop(3) if len(sys.argv) > 3 else None
    records = recorded(__doc__.split("\n")[0], DEV_SETS, DB_NAME)
    texts = listing_texts()
    vectors = embedded(texts)
    attach(records, texts, vectors)
    from activities.search_ranking import FUSION_WEIGHTS

    figs = {
        "bare": evaluate(records, lambda r: r["bare"]),
        "shipped": evaluate(records, lambda r: ordered(r, lambda c: c["fused"])),
    }
    variants = [(n,) for n in EXTRA] + [("desc", "maxsim", "meta", "title")]
    if chosen:
        variants = [tuple(v.split("+")) for v in chosen.split(",")]
    for names in variants:
        read = with_extra(names)
        for free in (False,) if chosen else (False, True):
            weights = {}
            for held in SETS:
                train = [r for r in records if r["half"] != held]
                weights[held] = fit(*pairs(train, read), fixed=() if free else FUSION_WEIGHTS)
            label = "+".join(names) + (" free" if free else "")
            print(label, "weights without each set:")
            for held in SETS:
                print(f"  {held}: {np.round(weights[held], 3).tolist()}")
            orders = {held: order_by(read, weights[held]) for held in SETS}
            figs[label] = evaluate(records, lambda r, orders=orders: ordered(r, orders[r["half"]]))
    for name, fig in figs.items():
        print(summary(name, fig))
    Path("/tmp/q46rerank/figs.pkl").write_bytes(pickle.dumps(dict(figs)))


if __name__ == "__main__":
    main()
