"""Personalisation with simulated users: the MaxSim boost as it was beside the pool-relative one.

Held-out corpora of bench/activities_heldout.py (``BENCH_CORPORA``: the first eight of its
``TUNING_CORPORA``, four Chinese and four English; ``--corpora chengdu,london_en`` is the run
published on 2026-11-25, whose users the first two corpora of the default run share) are
loaded into this bench's own database at the same FIXED instant (Wednesday 2026-11-25 10:00
local time), and every search is passed that instant (``now=``).

Simulated users (fixed seed ``SEED``): each has a taste of ``TASTE_TYPES`` activity types (the
listings' labelled ``type``); ``HISTORY`` joinable listings of those types are its past likes
(its working memory holds their embeddings, as ``working_memory_refresh`` stores them), the
other joinable listings of those types are its held-out future likes. While a user searches,
its past likes are marked finished (they took place: they are no candidates). Users alternate
dev / test in the order drawn; any parameter is chosen on dev, and test is reported apart.

Each user runs the generic queries of the corpus' language (``QUERIES``: no topic, so the
ranking is left to the model and to the personal boost) with ``limit=LIMIT`` under:

- none: the anonymous search (no personalisation);
- old: ``boost = cap * clamp((maxsim - floor) / (1 - floor), 0, 1)`` per candidate;
- kept: ``activities.personalize.pool_boosts`` (MaxSim against the pool's median) with its
  median and spread read over the rows the relevance cut kept (up to session 47: three rows
  for these generic requests);
- new: the same over every candidate the cut judged (as shipped from session 48), with the
  shipped ``BOOST_FROM_Z`` / ``BOOST_FULL_Z``, and with ``--grid`` a grid of them (fit on dev).

Figures, over (user, query) pairs where some held-out like is reachable (returned by the
anonymous search at ``MAX_LIMIT``: personalisation re-ranks, it cannot add rows):

- recall@10: share of the reachable held-out likes in the top 10;
- MRR: 1 / rank of the first held-out like in the ``LIMIT`` results (0 when none);
- boosted: share of the returned results with a boost > 0; mean boost of the returned results.

``--record`` also stores, per (user, query), the candidate pool the relevance cut judged (each
candidate's fused score, whether the cut kept it, its MaxSim to the user's likes): the replay of
bench/activities_fit_personal.py re-ranks it under other boost rules without searching again.

Never writes docs/BENCHMARKS.md unless ``--publish``. Usage:

    .venv/bin/python bench/activities_personalization.py --grid --json /tmp/personalization.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import bench_database_url, markdown_table, setup_django  # noqa: E402
from bench.activities_heldout import TUNING_CORPORA, loaded_corpus  # noqa: E402

DB_NAME = "bench_activities_personalization"
SEED = 20261125
USERS_PER_CORPUS = 50
TASTE_TYPES = 2
HISTORY = 3  # MIN_POSITIVES: the working memory then holds the 3 vectors
LIMIT = 20  # the service's default page
TOP = 10
# Generic requests per language (a corpus named *_en is English): written for this bench, none
# from the labelled query files.
QUERIES = {
    "zh": ["周末去哪玩", "找点事做", "有什么好玩的活动推荐"],
    "en": ["something to do this weekend", "anything fun to do", "what's on"],
}
# Development corpora only (never a corpus of the unseen split): the first eight, alternating
# Chinese and English, so the first two are the two of the run published on 2026-11-25.
BENCH_CORPORA = TUNING_CORPORA[:8]


def queries_of(name: str) -> list[str]:
    return QUERIES["en" if name.endswith("_en") else "zh"]


GRID = [(start, start + width) for start in (0.5, 1.0, 1.5) for width in (0.5, 1.0, 2.0)]


def make_users(name: str, listings: list, rng: random.Random) -> list[dict]:
    """Draw the simulated users of one corpus from its joinable ``(pk, type)`` listings."""
    by_type: dict[str, list[int]] = {}
    for pk, type_ in listings:
        by_type.setdefault(type_, []).append(pk)
    types = sorted(t for t, pks in by_type.items() if len(pks) >= 2)
    users = []
    while len(users) < USERS_PER_CORPUS:
        taste = sorted(rng.sample(types, TASTE_TYPES))
        matching = sorted(pk for t in taste for pk in by_type[t])
        if len(matching) < HISTORY + 2:
            continue
        history = sorted(rng.sample(matching, HISTORY))
        users.append(
            {
                "corpus": name,
                "index": len(users),
                "split": "dev" if len(users) % 2 == 0 else "test",
                "taste": taste,
                "history": history,
                "heldout": [pk for pk in matching if pk not in history],
            }
        )
    return users


def old_boosts(self, activities, *, pool=None) -> list[float]:
    """The rule before pool normalisation: MaxSim on the absolute scale above the floor."""
    if self.kind != "interest_vectors":
        return [0.0] * len(activities)
    out = []
    for activity in activities:
        best = self.maxsim(activity.embedding)
        if best is None:
            out.append(0.0)
            continue
        scale = 1.0 - self.floor if self.floor < 1.0 else 1.0
        out.append(min(self.cap, self.cap * min(1.0, max(0.0, (best - self.floor) / scale))))
    return out


POOLS: list[dict] = []  # the MaxSim spread of every pool the new rule saw (for the report)


def new_boosts(start: float, full: float, *, kept_only: bool = False):
    """The pool-relative rule with these z bounds; ``kept_only``: its median and spread read
    over the rows the relevance cut kept (the rule up to session 47), not every candidate."""
    from activities.personalize import pool_boosts

    def boosts(self, activities, *, pool=None) -> list[float]:
        if self.kind != "interest_vectors":
            return [0.0] * len(activities)
        sims = [self.maxsim(activity.embedding) for activity in activities]
        scale = sims if kept_only or pool is None else [self.maxsim(a.embedding) for a in pool]
        known = sorted(s for s in scale if s is not None)
        if known:
            POOLS.append({"n": len(known), "median": known[len(known) // 2], "sims": known})
        return pool_boosts(
            sims, cap=self.cap, floor=self.floor, start=start, full=full, reference=scale
        )

    return boosts


@contextmanager
def rule(boosts):
    from activities.personalize import Personalizer

    shipped = Personalizer.boosts
    Personalizer.boosts = boosts
    try:
        yield
    finally:
        Personalizer.boosts = shipped


def user_memory(user, history: list[int]) -> None:
    """Store the working memory a user with these 3 likes has (as working_memory_refresh)."""
    from activities.models import Activity, WorkingMemory

    rows = {a.pk: a for a in Activity.objects.filter(pk__in=history)}
    entries = [
        {
            "activityId": pk,
            "embedding": [float(x) for x in rows[pk].embedding],
            "model": rows[pk].embedding_model,
            "participatedAt": "2026-11-01T10:00:00+00:00",
        }
        for pk in history
    ]
    WorkingMemory.objects.update_or_create(
        user=user,
        defaults={"data": {"interestVectors": entries, "positives": HISTORY, "preferences": {}}},
    )


def measure(results: list[dict], heldout: set, reachable: set) -> dict:
    ids = [r["id"] for r in results]
    first = next((i for i, pk in enumerate(ids) if pk in heldout), None)
    return {
        "recall10": len(set(ids[:TOP]) & reachable) / len(reachable),
        "mrr": 1.0 / (first + 1) if first is not None else 0.0,
        "boosted": sum(1 for r in results if r["boost"] > 0),
        "boost_sum": sum(r["boost"] for r in results),
        "results": len(results),
    }


@contextmanager
def pool_recorder(sink: dict):
    """Record into ``sink`` the pool of the searches run inside: the candidates the relevance
    cut judged (pk, in dense order), those it kept, whether any names the query, and the fused
    score of every candidate (the hybrid's order)."""
    import activities.search as search

    cut, fuse = search.relevant_hits, search.hybrid_scores

    def relevant_hits(hits, *args, **kwargs):
        kept = cut(hits, *args, **kwargs)
        meta = args[1] if len(args) > 1 else kwargs.get("meta") or {}
        sink["candidates"] = [hit.obj.pk for hit in hits]
        sink["dense"] = [hit.score for hit in hits]
        sink["kept"] = [hit.obj.pk for hit in kept]
        sink["evidence"] = bool((meta.get("relevance") or {}).get("evidence"))
        return kept

    def hybrid_scores(*args, **kwargs):
        fused = fuse(*args, **kwargs)
        sink["fused"] = {pk: float(v) for pk, v in fused.items()}
        return fused

    search.relevant_hits, search.hybrid_scores = relevant_hits, hybrid_scores
    try:
        yield
    finally:
        search.relevant_hits, search.hybrid_scores = cut, fuse


def maxsims(pks: list[int], history: list[int], vectors: dict) -> list[float]:
    """Return each candidate's highest cosine to the liked activities (Personalizer.maxsim)."""
    liked = np.stack([vectors[pk] for pk in history])
    return [float((liked @ vectors[pk]).max()) for pk in pks]


def run_corpus(
    name: str, creator, rng: random.Random, systems: dict, grid: dict, pools=None
) -> list[dict]:
    """Load one corpus; return one record per (user, query) with every system's figures.

    The ``grid`` systems run for the dev users only (they are fitted there). ``pools``: a list
    that gains, per (user, query), the pool of the personalised search as shipped
    (:func:`pool_recorder`), each candidate's MaxSim and the ids it showed.
    """
    from django.contrib.auth import get_user_model

    from activities.models import Activity, ActivityStatus
    from activities.search import MAX_LIMIT, activities_search
    from activities.search_filters import hard_filter, parse_filters

    records = []
    with loaded_corpus(name, creator) as (items, now, tz_name):
        joinable = list(
            hard_filter(parse_filters({}), now=now).order_by("pk").values_list("pk", "type")
        )
        users = make_users(name, joinable, rng)
        vectors = {}
        for pk, embedding in Activity.objects.values_list("pk", "embedding"):
            if embedding is not None:
                v = np.asarray(embedding, dtype=np.float64)
                vectors[pk] = v / max(float(np.linalg.norm(v)), 1e-12)
        print(
            f"{name}: {len(items)} listings at {now.isoformat()}, {len(joinable)} joinable; "
            f"{len(users)} users",
            flush=True,
        )
        for sim in users:
            user, _ = get_user_model().objects.get_or_create(username=f"sim-{name}-{sim['index']}")
            user_memory(user, sim["history"])
            heldout = set(sim["heldout"])
            Activity.objects.filter(pk__in=sim["history"]).update(status=ActivityStatus.FINISHED)
            try:
                for query in queries_of(name):

                    def search(who, limit=LIMIT, query=query):
                        return activities_search(
                            user=who, semantic_query=query, limit=limit, time_zone=tz_name, now=now
                        )

                    everything = search(None, MAX_LIMIT)["results"]
                    reachable = heldout & {r["id"] for r in everything}
                    record = {
                        "corpus": name,
                        "user": sim["index"],
                        "split": sim["split"],
                        "taste": sim["taste"],
                        "query": query,
                        "reachable": len(reachable),
                        "answered": len(everything),
                    }
                    if reachable:
                        extra = grid if sim["split"] == "dev" else {}
                        for system, boosts in {**systems, **extra}.items():
                            if boosts is None:
                                out = search(None)
                            else:
                                with rule(boosts):
                                    out = search(user)
                            record[system] = measure(out["results"], heldout, reachable)
                    if pools is not None:  # every pair: a boost might bring a like in
                        sink = {}
                        with pool_recorder(sink):
                            out = search(user)
                        sink["maxsim"] = maxsims(sink["candidates"], sim["history"], vectors)
                        sink["floor"] = out["meta"].get("floor")
                        sink["shown"] = [r["id"] for r in out["results"]]
                        pools.append({**record, "heldout": sorted(heldout), **sink})
                    records.append(record)
            finally:
                Activity.objects.filter(pk__in=sim["history"]).update(status=ActivityStatus.ACTIVE)
    return records


def summary(records: list[dict], system: str) -> dict:
    scored = [r for r in records if r["reachable"] and system in r]
    if not scored:
        return {}
    results = sum(r[system]["results"] for r in scored)
    return {
        "pairs": len(scored),
        "recall10": sum(r[system]["recall10"] for r in scored) / len(scored),
        "mrr": sum(r[system]["mrr"] for r in scored) / len(scored),
        "boosted": sum(r[system]["boosted"] for r in scored) / results if results else 0.0,
        "mean_boost": sum(r[system]["boost_sum"] for r in scored) / results if results else 0.0,
    }


def table(records: list[dict], systems: list[str]) -> str:
    rows = []
    for split in ("dev", "test"):
        for corpus in (*dict.fromkeys(r["corpus"] for r in records), "all"):
            subset = [
                r
                for r in records
                if r["split"] == split and (corpus == "all" or r["corpus"] == corpus)
            ]
            for system in systems:
                s = summary(subset, system)
                if s:
                    rows.append(
                        [
                            split,
                            corpus,
                            system,
                            s["pairs"],
                            s["recall10"],
                            s["mrr"],
                            f"{100 * s['boosted']:.0f}%",
                            s["mean_boost"],
                        ]
                    )
    return markdown_table(
        ["split", "corpus", "system", "pairs", "recall@10", "MRR", "boosted", "mean boost"], rows
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--grid", action="store_true", help="also run the grid (fit on dev)")
    parser.add_argument(
        "--corpora",
        default=",".join(BENCH_CORPORA),
        help="comma-separated, of TUNING_CORPORA (default: BENCH_CORPORA)",
    )
    parser.add_argument("--record", help="store every personalised search's pool here (replay)")
    parser.add_argument("--json", help="write the figures and every (user, query) record here")
    parser.add_argument("--database-url")
    parser.add_argument(
        "--publish", action="store_true", help="write the table to docs/BENCHMARKS.md"
    )
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django(migrate=True)
    from django.contrib.auth import get_user_model

    from activities.models import ActivitySettings
    from activities.personalize import BOOST_FROM_Z, BOOST_FULL_Z
    from bench.activities_search import reset_tables
    from config import live
    from rag.embeddings import current_model
    from rag.models import RagSettings

    RagSettings.objects.all().delete()  # the live settings as shipped
    ActivitySettings.objects.all().delete()
    live.invalidate()
    creator, _ = get_user_model().objects.get_or_create(username="bench-personalization")
    systems = {
        "none": None,
        "old": old_boosts,
        f"kept z{BOOST_FROM_Z:g}-{BOOST_FULL_Z:g}": new_boosts(
            BOOST_FROM_Z, BOOST_FULL_Z, kept_only=True
        ),
        f"new z{BOOST_FROM_Z:g}-{BOOST_FULL_Z:g}": new_boosts(BOOST_FROM_Z, BOOST_FULL_Z),
    }
    grid = {}
    if args.grid:
        for start, full in GRID:
            if f"new z{start:g}-{full:g}" not in systems:
                grid[f"new z{start:g}-{full:g}"] = new_boosts(start, full)
    corpora = [c.strip() for c in args.corpora.split(",") if c.strip()]
    if not corpora or set(corpora) - set(TUNING_CORPORA):
        parser.error(f"--corpora: development corpora only, of {', '.join(TUNING_CORPORA)}")
    rng = random.Random(SEED)
    records, pools = [], [] if args.record else None
    for name in corpora:
        records.extend(run_corpus(name, creator, rng, systems, grid, pools))
    if args.record:
        Path(args.record).write_text(json.dumps({"seed": SEED, "limit": LIMIT, "pools": pools}))
        print(f"wrote {args.record} ({len(pools)} pools)")
    reset_tables()
    shipped = list(systems)
    print(f"\nModel `{current_model()}`; seed {SEED}; limit {LIMIT}\n")
    print(table(records, shipped))
    if args.publish:
        from bench._common import write_section

        write_section(
            "activities-personalization",
            "Activities personalisation: simulated users on the held-out corpora",
            f"Model `{current_model()}`; seed {SEED}; limit {LIMIT}; simulated users alternate "
            "dev and test (the boost's parameters are fitted on dev only: "
            "activities/personalize.py). Held-out likes: recall@10 and MRR per (user, query); "
            "boosted: share of returned results with a boost.\n\n" + table(records, shipped),
        )
    if args.grid:
        dev = [r for r in records if r["split"] == "dev"]
        fitted = [s for s in (*systems, *grid) if s.startswith("new")]
        ranked = sorted(fitted, key=lambda s: -summary(dev, s)["mrr"])
        print("\nGrid on dev (by MRR):\n")
        print(
            markdown_table(
                ["system", "recall@10", "MRR", "boosted"],
                [
                    [
                        s,
                        summary(dev, s)["recall10"],
                        summary(dev, s)["mrr"],
                        summary(dev, s)["boosted"],
                    ]
                    for s in ranked
                ],
            )
        )
    if POOLS:
        spreads = sorted(p["sims"][-1] - p["median"] for p in POOLS)
        medians = sorted(p["median"] for p in POOLS)
        print(
            f"\nPools seen by the new rule: {len(POOLS)}; median MaxSim "
            f"{medians[len(medians) // 2]:.3f} (range {medians[0]:.3f}-{medians[-1]:.3f}); "
            f"max - median {spreads[len(spreads) // 2]:.3f} (median over pools)"
        )
    if args.json:
        payload = {
            "model": current_model(),
            "seed": SEED,
            "figures": {
                split: {
                    s: summary([r for r in records if r["split"] == split], s)
                    for s in (*systems, *grid)
                }
                for split in ("dev", "test")
            },
            "records": records,
        }
        Path(args.json).write_text(json.dumps(payload, ensure_ascii=False, indent=1))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
