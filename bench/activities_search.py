"""Benchmark the activities search: backfill throughput, HTTP latency, relevance (nDCG@5).

Runs against its own database ``bench_activities`` on the same server (created if missing;
``--database-url`` points elsewhere), never the development data. Steps:

1. Relevance (bench/activities_relevance.py): load the demo activities, run every labelled
   query of ``activities/fixtures/eval_queries.json`` through the bare model, the service with
   the hybrid off and the service as shipped; nDCG@5, off-topic empty rate, relevant results lost by
   the relevance cut, time-phrase results inside their window. Written to its own section
   ("Activities relevance"); ``--relevance-only`` runs just this step (a few minutes).
2. Throughput: generate ``--n`` activities from the demo templates; on a sample of ``--sample``
   texts measure the raw provider throughput, then the backfill throughput on the same texts
   (fresh rows, cache misses) in the same run.
3. Load the remaining rows with vectors derived from the sample (between two real ones), then build
   the HNSW index after the bulk load (inserting into an HNSW index is much slower).
4. Latency: ``manage.py runserver --noreload`` on a free port against this database, then
   ``POST /rag/search`` over HTTP (httpx) with and without a location filter; p50 and p95.
   Every request uses a distinct query, so the query embedding is always computed.

    .venv/bin/python bench/activities_search.py --n 100000 --sample 2000
    .venv/bin/python bench/activities_search.py --relevance-only
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402
    ROOT,
    Timer,
    bench_database_url,
    markdown_table,
    percentile,
    setup_django,
    write_section,
)

FIXTURES = ROOT / "activities" / "fixtures"
DB_NAME = "bench_activities"
CITY_POINTS = [
    (31.2304, 121.4737),
    (31.2243, 121.4451),
    (31.1950, 121.4370),
    (31.2397, 121.4998),
    (31.2989, 121.5035),
    (31.1133, 121.3853),
]
DISTRICTS = ["静安", "徐汇", "长宁", "黄浦", "浦东", "杨浦", "虹口", "普陀", "闵行", "宝山"]
FLAVOURS = ["", "新手场", "周末场", "夜场", "进阶场", "第二期", "限定场", "老友场"]
QUERY_STEMS = [
    "玩水",
    "压力大想发呆",
    "轻松的小局",
    "适合社恐的活动",
    "周五晚上热闹的地方",
    "想运动出出汗",
    "带孩子周末去哪",
    "认识创业的朋友",
    "吃辣的聚会",
    "安静的地方看书",
    "学点新技能",
    "户外徒步",
    "音乐现场",
    "做手工",
    "做公益",
    "放松身心",
    "喝咖啡聊天",
    "看展和画画",
    "练口语学外语",
    "晚上睡不着想放松一下",
]
QUERY_TAILS = [
    "",
    "，最好在市区",
    "，人不要太多",
    "，周末下午",
    "，离地铁近",
    "，新手也行",
    "，一个人去",
    "，和朋友一起",
    "，预算不高",
    "，晚上七点以后",
    "，室内的",
]


# --- database set-up ------------------------------------------------------------------------


def reset_tables() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE activities_participation, activities_workingmemory, "
            "activities_activity RESTART IDENTITY CASCADE"
        )
        cursor.execute("TRUNCATE rag_embeddingcache")


# --- relevance ------------------------------------------------------------------------------


def relevance(creator) -> tuple[str, dict]:
    """Score the labelled queries on the demo data (bench/activities_relevance.py)."""
    from bench.activities_relevance import relevance as run

    return run(creator)


# --- generation and throughput --------------------------------------------------------------


def generate(n: int, creator, seed: int = 7) -> list:
    """Return n unsaved activities varied from the demo templates."""
    return list(iter_activities(n, creator, seed))


def iter_activities(n: int, creator, seed: int = 7) -> Iterator:
    """Yield n unsaved activities varied from the demo templates, one at a time (the same rows
    as :func:`generate`): a million rows are streamed, never held."""
    from activities.demo import build_activity, item_text

    rng = random.Random(seed)
    items = json.loads((FIXTURES / "demo_activities.json").read_text(encoding="utf-8"))
    for i in range(n):
        item = dict(items[i % len(items)])
        district = rng.choice(DISTRICTS)
        flavour = rng.choice(FLAVOURS)
        item["title"] = f"{item['title']}{('·' + flavour) if flavour else ''} #{i}"
        item["description"] = f"{item['description']} 这次在{district}，第 {i % 97 + 1} 期。"
        item["location_name"] = f"{district}·{item['location_name']}"
        item["day_offset"] = rng.randint(1, 60)
        item["hour"] = rng.choice([8, 10, 14, 16, 19, 20, 21, 23])
        base = rng.choice(CITY_POINTS)
        item["lat"] = base[0] + rng.gauss(0, 0.08)
        item["lng"] = base[1] + rng.gauss(0, 0.08)
        item["max_participants"] = rng.randint(4, 40)
        item["current_participants"] = rng.randint(0, item["max_participants"])
        item["status"] = rng.choices(["active", "cancelled", "finished"], [90, 5, 5])[0]
        # The words that may name a day are the template's and the flavour's (周末场, 夜场):
        # read once per pair, not once per row (the district and the serials name no day).
        template = items[i % len(items)]
        day_text = item_text({**template, "title": f"{template['title']}{flavour}"})
        yield build_activity(item, creator=creator, day_text=day_text)


def throughput(rows: list, chunk: int = 100) -> tuple[float, float, int]:
    """Return (raw texts/s, backfill texts/s, n) on the same texts in the same run.

    The two are interleaved chunk by chunk (raw embed of a chunk, then the backfill of the same
    chunk's rows), so a change in machine load during the run affects both alike.
    """
    from activities.backfill import backfill
    from activities.models import Activity
    from rag.embeddings import get_provider

    provider = get_provider()
    provider.embed([rows[0].embedding_text()], "passage")  # load the model outside the timings
    raw_seconds = fill_seconds = 0.0
    for start in range(0, len(rows), chunk):
        part = rows[start : start + chunk]
        texts = [r.embedding_text() for r in part]
        with Timer() as raw:
            for i in range(0, len(texts), provider.max_batch):
                provider.embed(texts[i : i + provider.max_batch], "passage")
        raw_seconds += raw.seconds
        created = Activity.objects.bulk_create(part, batch_size=1000)
        with Timer() as fill:
            totals = backfill(
                queryset=Activity.objects.filter(pk__in=[r.pk for r in created]), batch_size=100
            )
        fill_seconds += fill.seconds
        assert totals.processed == len(part), totals
    return len(rows) / raw_seconds, len(rows) / fill_seconds, len(rows)


def bulk_load(rows: Iterable, sample_ids: list[int], batch: int = 5000) -> float:
    """COPY rows with vectors derived from the sample (mixed pairs), ``batch`` at a time;
    return seconds. ``rows`` may be a generator: only one batch is held at once."""
    import numpy as np

    from activities.models import Activity, IndexState
    from activities.text import meta_text_for
    from bench._stream import batches, copy_rows
    from bench.vector_search import mix
    from rag.embeddings import content_hash, current_model
    from rag.text import segment_for_index

    model = current_model()
    sample = np.asarray(
        [
            list(v)
            for v in Activity.objects.filter(pk__in=sample_ids).values_list("embedding", flat=True)
        ],
        dtype=np.float32,
    )
    # The kind vectors (type and tags embedded apart) by their text: a row of the same type and
    # tags as a sample row gets its vector, any other one a mixed vector (of the same size).
    kinds = {
        meta_text_for(a): a.meta_embedding
        for a in Activity.objects.filter(pk__in=sample_ids).only("type", "tags", "meta_embedding")
    }
    rng = np.random.default_rng(11)
    segmented: dict[str, str] = {}
    with Timer() as timer:
        for chunk in batches(rows, batch):
            # Points between two real vectors (bench.vector_search.mix), not noisy copies of
            # one: 200 near-duplicates per real vector split the HNSW graph into islands that a
            # filtered iterative scan cannot leave (it ended after about 200 tuples).
            picks = mix(sample, len(sample) + len(chunk), 0.01, rng)[len(sample) :]
            for row, vector in zip(chunk, picks, strict=True):
                text = row.embedding_text()
                key = row.description[:40]
                if key not in segmented:  # jieba once per template: the rows only vary a little
                    segmented[key] = segment_for_index(text)
                row.embedding = vector
                row.meta_embedding = kinds.get(meta_text_for(row), vector)
                row.embedding_model = model
                row.embedding_hash = content_hash(text)
                row.search_text = segmented[key]
                row.index_state = IndexState.INDEXED
            copy_rows(Activity, chunk)
    return timer.seconds


def fill_in_server(n: int, sample_ids: list[int], batch: int = 20000) -> float:
    """Add n rows derived from the sample rows inside PostgreSQL, ``batch`` per statement;
    return seconds.

    The same derivation as :func:`bulk_load` (x + t (y - x) for two sample rows x, y, t in
    [0, 0.5), plus noise of standard deviation 0.01 per component, renormalised), computed by
    pgvector instead of Python: on a busy machine the Python path writes about 100 rows/s,
    too slow for a million. Each row copies the texts, tags, vibes and segmented search text of
    x (title with a serial), moves its place by up to 0.15 degrees and its date by 0-29 days,
    and draws its status as :func:`iter_activities` does (90% active, 5% cancelled, 5% finished).
    Nothing is held in this process.
    """
    from django.db import connection

    from rag.fields import configured_dimensions

    dims = configured_dimensions()
    columns = (
        "embedding, meta_embedding, embedding_model, embedding_hash, title, description, type,"
        " tags, start_at,"
        " end_at, time_zone, lat, lng, location_name, status, max_participants,"
        " current_participants, creator_id, vibes, index_state, index_error, indexed_at,"
        " index_attempts, index_state_at, index_task, search_text, created_at, updated_at"
    )
    sql = f"""
        WITH s AS (
            SELECT row_number() OVER (ORDER BY id) - 1 AS k, * FROM activities_activity
            WHERE id = ANY(%(ids)s)
        ), g AS (
            SELECT i, floor(random() * %(m)s)::int AS a, floor(random() * %(m)s)::int AS b,
                   random() * 0.5 AS t, random() AS r, floor(random() * 30)::int AS d
            FROM generate_series(%(lo)s, %(hi)s) AS i
        )
        INSERT INTO activities_activity ({columns})
        SELECT l2_normalize(
                   x.embedding
                   + (y.embedding - x.embedding) * array_fill(g.t, ARRAY[{dims}])::vector
                   + (SELECT array_agg((random() - 0.5) * 0.0346)  -- new noise per row:
                      FROM generate_series(1, {dims}) WHERE g.i IS NOT NULL)::vector),
               x.meta_embedding,  -- the kind vector of x: the copy keeps its type and tags
               x.embedding_model, md5(x.embedding_hash || g.i), x.title || ' #' || g.i,
               x.description, x.type, x.tags, x.start_at + g.d * interval '1 day',
               x.end_at + g.d * interval '1 day', x.time_zone,
               x.lat + (random() - 0.5) * 0.3, x.lng + (random() - 0.5) * 0.3, x.location_name,
               CASE WHEN g.r < 0.9 THEN 'active' WHEN g.r < 0.95 THEN 'cancelled'
                    ELSE 'finished' END,
               x.max_participants, x.current_participants, x.creator_id, x.vibes, 'indexed', '',
               x.indexed_at, 0, x.index_state_at, '', x.search_text, now(), now()
        FROM g JOIN s x ON x.k = g.a JOIN s y ON y.k = g.b
    """
    with Timer() as timer:
        for lo in range(0, n, batch):
            hi = min(n, lo + batch) - 1
            with connection.cursor() as cursor:
                cursor.execute(sql, {"ids": sample_ids, "m": len(sample_ids), "lo": lo, "hi": hi})
            print(f"   {hi + 1:,} rows", flush=True)
    return timer.seconds


def build_hnsw() -> float:
    """Build the activities' HNSW index as its migration defines it (after the load: inserting
    into an HNSW index row by row is much slower); return seconds."""
    from django.db import connection

    from activities.models import Activity
    from rag.db import build_vector_indexes, sized_maintenance_work_mem

    with connection.cursor() as cursor, Timer() as timer:
        cursor.execute("ANALYZE activities_activity")  # the row count the sizing reads
        # A graph built in memory is much faster than one spilling to disk (rag/db.py).
        work_mem = sized_maintenance_work_mem(connection, Activity)
        cursor.execute(f"SET maintenance_work_mem = '{work_mem}'")
        build_vector_indexes(connection, Activity)
    return timer.seconds


# --- HTTP latency ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure_http(database_url: str, token: str, requests: int) -> dict:
    import httpx

    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING"}
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/rag/search"
    headers = {"Authorization": f"Token {token}"}
    rng = random.Random(3)
    queries = [f"{s}{t}" for s in QUERY_STEMS for t in QUERY_TAILS]
    rng.shuffle(queries)
    results: dict = {}
    try:
        with httpx.Client(timeout=30) as client:
            deadline = time.monotonic() + 90
            while True:
                try:
                    client.post(url, json={"limit": 1}, headers=headers)
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)
            for q in ["热身查询一", "热身查询二", "热身查询三"]:  # warm model, jieba, pools
                client.post(url, json={"semanticQuery": q}, headers=headers)
            used = iter(queries * 4)
            for label, with_location in (("without location", False), ("with location", True)):
                times, paths, counts = [], {}, []
                for i in range(requests):
                    # A distinct text each time: the process LRU must not hide the embedding.
                    body = {"semanticQuery": f"{next(used)} {i}", "limit": 20}
                    if with_location:
                        lat, lng = rng.choice(CITY_POINTS)
                        body["filters"] = {"location": {"lat": lat, "lng": lng, "radiusInKm": 5}}
                    start = time.perf_counter()
                    response = client.post(url, json=body, headers=headers)
                    times.append((time.perf_counter() - start) * 1000)
                    response.raise_for_status()
                    meta = response.json()["meta"]
                    paths[meta["path"]] = paths.get(meta["path"], 0) + 1
                    counts.append(meta["candidates"])
                results[label] = {
                    "p50": percentile(times, 50),
                    "p95": percentile(times, 95),
                    "mean": sum(times) / len(times),
                    "paths": paths,
                    "candidates_median": percentile(counts, 50),
                }
    finally:
        server.terminate()
        server.wait(10)
    return results


def breakdown(count: int = 60) -> str:
    """Time the query embedding and the rest of ``activities_search`` apart, in-process."""
    from activities.search import activities_search
    from rag.embeddings import embed_query

    rng = random.Random(5)
    embed_ms, rest_ms, rest_loc_ms = [], [], []
    run = int(time.time())  # new texts each run: the embedding cache survives between runs
    for i in range(count):
        query = f"{rng.choice(QUERY_STEMS)}{rng.choice(QUERY_TAILS)} 分解{run}-{i}"
        with Timer() as embed:
            embed_query(query)  # now in the process LRU: the search below does not embed
        embed_ms.append(embed.seconds * 1000)
        with Timer() as rest:
            activities_search(semantic_query=query, limit=20)
        rest_ms.append(rest.seconds * 1000)
        lat, lng = rng.choice(CITY_POINTS)
        location = {"location": {"lat": lat, "lng": lng, "radiusInKm": 5}}
        with Timer() as rest_loc:
            activities_search(semantic_query=query, filters=location, limit=20)
        rest_loc_ms.append(rest_loc.seconds * 1000)
    rows = [
        ["query embedding (local model)", *(percentile(embed_ms, p) for p in (50, 95))],
        ["search without embedding, no location", *(percentile(rest_ms, p) for p in (50, 95))],
        ["search without embedding, 5 km radius", *(percentile(rest_loc_ms, p) for p in (50, 95))],
    ]
    return markdown_table(["in-process part", "p50 ms", "p95 ms"], rows)


def replace_latency(new_latency_md: str) -> str:
    """Return the current section body with only its latency subsection replaced."""
    import re

    from bench._common import REPORT

    text = REPORT.read_text()
    section = text.split("<!-- BEGIN activities -->", 1)[1].split("<!-- END activities -->", 1)[0]
    # The section is "## title", the command/machine/run lines, then the figures.
    _, header, body = section.strip("\n").split("\n\n", 2)
    earlier = re.search(r"\(Full run: `([^`]*)`\.\)", body)
    full_command = earlier.group(1) if earlier else header.split("`")[1]
    head, rest = body.split("### `POST /rag/search`", 1)
    tail = rest.split("### Relevance", 1)[1]
    note = f"(Full run: `{full_command}`.)\n\n"
    return head + new_latency_md + note + "### Relevance" + tail


def latency_markdown(latency: dict, requests: int, load: str, parts: str) -> str:
    lat_rows = [
        [
            label,
            f"{v['p50']:.1f}",
            f"{v['p95']:.1f}",
            f"{v['mean']:.1f}",
            int(v["candidates_median"]),
            ", ".join(f"{k}: {c}" for k, c in v["paths"].items()),
        ]
        for label, v in latency.items()
    ]
    headers = ["filters", "p50 ms", "p95 ms", "mean ms", "candidates (median)", "paths"]
    return f"""### `POST /rag/search` over HTTP ({requests} requests each, limit 20, new queries)

Query embedding included (every query text is new to the server process). Load average at the
start of the latency run: {load} (2 cores, shared with other work).

{markdown_table(headers, lat_rows)}

Target p95 <= 150 ms. Where the time goes, measured in-process on the same database right after:

{parts}

"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--database-url")
    parser.add_argument(
        "--latency-only",
        action="store_true",
        help="Re-measure only the latency on the database a full run left; keep the rest.",
    )
    parser.add_argument(
        "--relevance-only",
        action="store_true",
        help="Run only the relevance step (demo data, labelled queries); write its section.",
    )
    args = parser.parse_args()

    database_url = bench_database_url(DB_NAME, args.database_url)
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from config.services import token_issue
    from rag.embeddings import current_model

    call_command("migrate", verbosity=0)
    creator, _ = get_user_model().objects.get_or_create(username="bench")
    key = token_issue(user=creator, name="bench").key
    if args.latency_only:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        latency = measure_http(database_url, key, args.requests)
        md = latency_markdown(latency, args.requests, load, breakdown())
        md += (
            "Latency re-measured with `--latency-only` on the database of the last full run; "
            "the throughput and relevance figures are from that run.\n\n"
        )
        write_section("activities", "Activities search", replace_latency(md))
        return
    reset_tables()

    print("1/4 relevance on the demo data ...", flush=True)
    relevance_md, _ = relevance(creator)
    write_section("activities-relevance", "Activities relevance", relevance_md)
    reset_tables()
    if args.relevance_only:
        return

    print(f"2/4 generating {args.n} activities; throughput on {args.sample} ...", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX IF EXISTS activity_embedding_hnsw")
    rows = generate(args.n, creator)
    sample_n = min(args.sample, args.n)
    raw_rate, fill_rate, measured = throughput(rows[:sample_n])
    from activities.models import Activity

    sample_ids = list(Activity.objects.values_list("pk", flat=True))
    print(f"   raw {raw_rate:.1f}/s, backfill {fill_rate:.1f}/s", flush=True)

    print("3/4 bulk load and HNSW build ...", flush=True)
    load_seconds = bulk_load(rows[sample_n:], sample_ids)
    hnsw_seconds = build_hnsw()
    total = Activity.objects.count()

    print("4/4 HTTP latency ...", flush=True)
    latency_load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    latency = measure_http(database_url, key, args.requests)
    latency_md = latency_markdown(latency, args.requests, latency_load, breakdown())
    throughput_table = markdown_table(
        ["", "texts/s"],
        [
            ["raw provider `embed` (provider batches; chunks of 100 interleaved)", raw_rate],
            ["`backfill` (read rows, build text, embed, jieba, bulk update)", fill_rate],
            ["**ratio backfill / raw** (target >= 0.8)", fill_rate / raw_rate],
        ],
    )
    body = f"""
Model `{current_model()}`; {total:,} activities in database `{DB_NAME}`.

### Backfill throughput (same {measured:,} texts, same run)

{throughput_table}

The other {total - measured:,} rows were bulk-loaded with vectors derived from the sample
(each between two real vectors, plus a little noise; {load_seconds:.0f} s), then the HNSW index
(m 16, ef_construction 64) was built after the load in {hnsw_seconds:.0f} s. Embedding all
{args.n:,} texts at the measured backfill rate would take about
{args.n / fill_rate / 60:.0f} minutes on this machine.

{latency_md}### Relevance

See "Activities relevance" below (the same run writes it; `--relevance-only` re-measures it).
"""
    write_section("activities", "Activities search", body)


if __name__ == "__main__":
    main()
