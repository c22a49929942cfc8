"""CPU profile of the Python part of ``POST /rag/search``, and a record of its exact answers.

Two commands, both in-process on databases of the embedded server (or ``DATABASE_URL``)::

    python bench/search_profile.py profile [--n 100000] [--count 100] [--top 30] [--http]
        [--publish [--note TEXT]]
    python bench/search_profile.py answers OUT.json [--n 100000] [--count 100]

``profile`` sends the request bodies of ``bench/search_latency.py`` (the same query texts, every
other one with a 5 km radius) to ``activities_search`` on that bench's database (read only: it
writes nothing), with the query vectors computed once beforehand and looked up in each search,
so that what is timed is the search's own work: CPU milliseconds of this process per search
(``time.process_time``; on a shared VM it grows with the load as well, so compare two versions
run side by side, or by the count of Python function calls, which the load leaves alone) and wall
milliseconds of the parts (SQL by an execute wrapper, the rest Python), then the cProfile top
functions of the same loop. ``--http`` also times the whole request through Django's
middleware, DRF and the view (``django.test.Client``, as the bench's ``bench`` user).

``answers`` writes every answer's bytes (``SearchOutputSerializer`` rendered as the view renders
it) for: those request bodies at one fixed instant; the labelled demo queries
(``activities/fixtures/eval_queries.json``) and the held-out dev queries (``bench/data``) on
corpora loaded at a fixed instant into a database of this script's own
(``bench_search_profile``, emptied and loaded again on each run, dropped with ``--drop``).
Two runs of the same code write the same file; ``cmp`` the files of two versions to prove a
change left every answer as it was.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
import zoneinfo
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402
    SqlTimer,
    bench_database_url,
    load_average,
    percentile,
    setup_django,
)
from bench.search_latency import body_for, queries, scale_names  # noqa: E402

DB_NAME = "bench_search_profile"
# The fixed instant of the bench bodies' answers: the 100k rows start after it (set up
# 2026-11-24/25), so the hard filter keeps the same rows whatever today's date.
BENCH_NOW = datetime(2026, 11, 26, 12, 0, tzinfo=zoneinfo.ZoneInfo("UTC"))
DEMO_NOW = datetime(2026, 11, 25, 10, 0, tzinfo=zoneinfo.ZoneInfo("Asia/Shanghai"))


class CachedVectors:
    """Stand in for ``embed_query`` where the search looks it up: each text embedded once."""

    def __init__(self, original):
        self.original = original
        self.vectors: dict[str, list[float]] = {}

    def __call__(self, text, *args, **kwargs):
        if text not in self.vectors:
            self.vectors[text] = self.original(text, *args, **kwargs)
        return self.vectors[text]


def bodies(count: int) -> list[dict]:
    return [body_for(i, text) for i, text in enumerate(queries(count))]


def rendered(result: dict) -> bytes:
    """Return the response body the view renders for an ``activities_search`` answer."""
    from rest_framework.renderers import JSONRenderer

    from activities.search_meta import in_query_language
    from activities.serializers import search_output

    result = {**result, "meta": in_query_language(result["meta"])}
    return JSONRenderer().render(search_output(result))


def search(body: dict, **kwargs) -> dict:
    from activities.search import activities_search
    from activities.serializers import SearchInputSerializer

    serializer = SearchInputSerializer(data=body)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    return activities_search(
        semantic_query=data.get("semanticQuery"),
        filters=data.get("filters") or {},
        limit=data.get("limit"),
        time_zone=data.get("timeZone") or None,
        **kwargs,
    )


def profile(args) -> None:
    from django.db import connection

    import activities.search as search_module

    sent = bodies(args.count)
    cached = CachedVectors(search_module.embed_query)
    search_module.embed_query = cached
    for body in sent + sent[:10]:  # vectors, the relevance sample, jieba, code paths
        rendered(search(body))
    sql = SqlTimer()
    cpu, wall, python, sql_ms = [], [], [], []
    with connection.execute_wrapper(sql):
        for _ in range(args.rounds):
            for body in sent:
                sql.reset()
                c0, w0 = time.process_time(), time.perf_counter()
                rendered(search(body))
                c1, w1 = time.process_time(), time.perf_counter()
                cpu.append((c1 - c0) * 1000)
                wall.append((w1 - w0) * 1000)
                sql_ms.append(sql.seconds * 1000)
                python.append((w1 - w0 - sql.seconds) * 1000)
    rows = [
        ("CPU of this process per search (parse, search, render)", cpu),
        ("wall: whole search", wall),
        ("wall: SQL", sql_ms),
        ("wall: Python (whole search minus SQL)", python),
    ]
    print(
        f"\n{len(cpu)} searches at {args.n:,} rows, query vectors looked up; load {load_average()}"
    )
    for label, values in rows:
        print(f"  {label:60s} p50 {percentile(values, 50):6.2f}  p95 {percentile(values, 95):6.2f}")
    print(f"  CPU ms per search (mean): {sum(cpu) / len(cpu):.2f}")
    if args.http:
        rows += http(sent, args.rounds)
    # Timed by this thread's CPU clock: the waits for PostgreSQL count nothing, so the top is
    # what the search's Python costs, whatever else the machine runs.
    profiler = cProfile.Profile(time.thread_time)
    profiler.enable()
    for body in sent:
        rendered(search(body))
    profiler.disable()
    calls = pstats.Stats(profiler).total_calls / len(sent)
    # Counted, not timed: the same on a busy machine as on a quiet one.
    print(f"  Python function calls per search (cProfile): {calls:,.0f}")
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(args.top)
        text = out.getvalue()
        print(text[text.index("   ncalls") :] if "   ncalls" in text else text)
    if args.dump:
        profiler.dump_stats(args.dump)
    if args.publish:
        publish(args, rows, profiler, len(sent))


def publish(args, rows: list, profiler, searches: int) -> None:
    """Write the section ``search-cpu`` of docs/BENCHMARKS.md."""
    from bench._common import markdown_table, write_section

    stats = pstats.Stats(profiler)
    top = sorted(stats.stats.items(), key=lambda item: -item[1][2])[: args.top]
    functions = [
        [f"`{Path(file).name}:{line}({name})`", calls, tottime * 1000 / searches]
        for (file, line, name), (_, calls, tottime, _, _) in top
    ]
    body = (
        f"{searches} request bodies of `bench/search_latency.py` (the same texts, every other"
        f" one with a 5 km radius) x {args.rounds} rounds, in-process on `bench_latency`"
        f" ({args.n:,} activities), query vectors computed once beforehand and looked up, so"
        " the figures are the search's own work. CPU: `time.process_time` of this process per"
        " search. On this shared VM CPU time grows with the load too (the same code measured"
        " 14.4 and 20.3 ms p50 a minute apart): compare versions run side by side, or by the"
        " count of function calls below, which the load does not change."
        + (f" {args.note}" if args.note else "")
        + "\n\n"
        + markdown_table(
            ["part", "p50 ms", "p95 ms"],
            [[label, percentile(v, 50), percentile(v, 95)] for label, v in rows],
        )
        + f"\n\nPython function calls per search (cProfile; counted, so the load does not"
        f" change it): {stats.total_calls / searches:,.0f}."
        + f"\n\nTop {args.top} functions by own CPU time (cProfile on this thread's CPU clock,"
        " one round; profiling inflates every figure):\n\n"
        + markdown_table(
            ["function", "calls in the round", "own CPU ms per search (profiled)"], functions
        )
    )
    write_section("search-cpu", f"CPU of the search's Python at {args.n:,} activities", body)


def http(sent: list[dict], rounds: int) -> list:
    """Time the whole request in-process through middleware, DRF and the view.

    As the bench's ``bench`` user, with a token issued inside a transaction rolled back at the
    end: the database is left as it was.
    """
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client

    from config.services import token_issue

    cpu, wall = [], []
    with transaction.atomic():
        user = get_user_model().objects.get(username="bench")
        key = token_issue(user=user, name="search_profile").key
        client = Client(HTTP_AUTHORIZATION=f"Token {key}")
        for body in sent[:10]:
            client.post("/rag/search", body, content_type="application/json")
        for _ in range(rounds):
            for body in sent:
                c0, w0 = time.process_time(), time.perf_counter()
                response = client.post("/rag/search", body, content_type="application/json")
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
                assert response.status_code == 200, response.content
        transaction.set_rollback(True)
    rows = [
        ("HTTP in-process (middleware, DRF, view, as a user): CPU", cpu),
        ("HTTP in-process (middleware, DRF, view, as a user): wall", wall),
    ]
    for label, values in rows:
        print(f"  {label:60s} p50 {percentile(values, 50):6.2f}  p95 {percentile(values, 95):6.2f}")
    return rows


def answers(args) -> None:
    """Write every answer of the bench bodies, the demo set and the held-out dev queries."""
    out: dict[str, dict] = {}
    import activities.search as search_module

    search_module.embed_query = CachedVectors(search_module.embed_query)
    for i, body in enumerate(bodies(args.count)):
        out[f"bench {i} {json.dumps(body, ensure_ascii=False)}"] = rendered(
            search(body, now=BENCH_NOW)
        ).decode()
    print(f"{len(out)} bench answers", flush=True)
    from django.db import connections

    connections.close_all()
    labelled(out)
    Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=0, sort_keys=True))
    print(f"{len(out)} answers written to {args.out}")
    if args.drop:
        drop_own_database()


def drop_own_database() -> None:
    """Drop this script's database (``answers`` makes it again when run)."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg
    from django.db import connections

    connections.close_all()
    parts = urlsplit(bench_database_url(DB_NAME))
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}"')


def labelled(out: dict) -> None:
    """Add the answers of the demo and held-out queries (dev, test and fresh) on the corpora
    loaded at their fixed instants into this script's own database."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import override_settings

    from activities.demo import load_demo_activities
    from activities.models import ActivitySettings
    from bench.activities_heldout import (
        CORPORA,
        DATA,
        TUNING_CORPORA,
        load_instant,
        read_queries,
    )
    from bench.activities_search import reset_tables
    from config import live
    from rag.models import RagSettings

    bench_database_url(DB_NAME)  # created when missing, on the server of the bench's database
    connections.close_all()
    settings.DATABASES["default"]["NAME"] = DB_NAME
    connections["default"].settings_dict["NAME"] = DB_NAME
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    RagSettings.objects.all().delete()
    ActivitySettings.objects.all().delete()
    live.invalidate()
    creator, _ = get_user_model().objects.get_or_create(username="bench-profile")
    fixtures = Path(__file__).resolve().parent.parent / "activities" / "fixtures"
    corpora = [("demo", fixtures / "demo_activities.json", settings.TIME_ZONE, DEMO_NOW)]
    corpora += [
        (name, DATA / f, tz, load_instant(tz))
        for name, (f, tz) in CORPORA.items()
        if name in TUNING_CORPORA
    ]
    for name, path, tz_name, now in corpora:
        with override_settings(TIME_ZONE=tz_name):
            reset_tables()
            items = json.loads(path.read_text(encoding="utf-8"))
            load_demo_activities(items, creator=creator, now=now)
            settle_row_estimate()
            variants: list[dict] = [{}]
            if name == "demo":
                texts = [
                    q["query"] for q in json.loads((fixtures / "eval_queries.json").read_text())
                ]
                # The radius and the place cue's radius (a location without one) as well.
                point = {"lat": 31.2304, "lng": 121.4737}
                variants += [{"location": {**point, "radiusInKm": 5}}, {"location": point}]
            else:
                texts = [q["query"] for q in read_queries("all", name)]
                texts += [q["query"] for q in read_queries("fresh", name)]
            for text in texts:
                for limit in (10, 20):
                    for filters in variants:
                        body = {"semanticQuery": text, "limit": limit, "timeZone": tz_name}
                        if filters:
                            body["filters"] = filters
                        key = f"{name} {json.dumps(body, ensure_ascii=False)}"
                        out[key] = rendered(search(body, now=now)).decode()
            print(f"{name}: {len(texts)} queries", flush=True)
    reset_tables()


def settle_row_estimate() -> None:
    """Make the row estimate of the table just loaded what it holds, now.

    Whether the search counts the filtered rows or estimates them from a sample follows
    PostgreSQL's row estimate (rag/cardinality.py), which autovacuum updates whenever it runs
    after a load and this process caches for a minute: without this, two runs of the same code
    could state different ``candidates``.
    """
    from django.db import connection

    from activities.models import Activity
    from rag import cardinality

    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {connection.ops.quote_name(Activity._meta.db_table)}")
    cardinality._reltuples_cache.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("profile")
    p.add_argument("--n", type=int, default=100_000)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--http", action="store_true")
    p.add_argument("--dump", help="write the cProfile stats here")
    p.add_argument("--publish", action="store_true", help="write section search-cpu")
    p.add_argument("--note", default="", help="a sentence added to the published section")
    a = sub.add_parser("answers")
    a.add_argument("out")
    a.add_argument("--n", type=int, default=100_000)
    a.add_argument("--count", type=int, default=100)
    a.add_argument("--drop", action="store_true", help="drop this script's database afterwards")
    args = parser.parse_args()
    db_name, _ = scale_names(args.n)
    os.environ["DATABASE_URL"] = bench_database_url(db_name)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    from bench._common import lift_api_throttles

    lift_api_throttles()
    setup_django()
    profile(args) if args.command == "profile" else answers(args)


if __name__ == "__main__":
    main()
