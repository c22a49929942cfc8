"""Search throughput on the primary alone vs the primary plus one streaming replica.

Runs on its own throw-away embedded PostgreSQL (never the development data), with the product's
default settings except ``Q_SYNC`` during loading (tasks run inline, so the messages are embedded
without a worker) and ``REPLICA_DATABASES``, the thing measured::

    python bench/replica.py --datasets ../shared/datasets [--conversations 3] [--seconds 20]

1. Write rates of the primary: LoCoMo turns stored one per call through the service function
   (``memory.services.messages_write``) and through the API (Django's test client: the whole
   middleware/DRF stack, no socket), embedding left to the queue (ORM broker), as in production.
2. Load the first conversations (one user each) with embeddings; embed the questions once.
3. ``--clients`` threads send ``POST /v1/messages/hybrid_search`` with the question's embedding
   (``query_embedding``: the database work a replica takes over, not the model's) for
   ``--seconds``: first with no replica, then with one ``pg_basebackup -R`` replica started on
   this machine. Prints requests/s, p50/p95 and errors; writes its section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("EMBEDDED_DB_DIR", tempfile.mkdtemp(prefix="semmem-bench-replica-"))
os.environ.setdefault("EMBEDDED_DB_CLEANUP", "delete")

from rag.providers.local import openmp_defaults  # noqa: E402

openmp_defaults()  # the OpenMP spin every process of the service uses

from bench._common import (  # noqa: E402
    DEFAULT_DATASETS,
    markdown_table,
    median,
    percentile,
    setup_django,
    write_section,
)

BASE = datetime(2023, 1, 1, tzinfo=UTC)


def turns(conversation: dict) -> list[dict]:
    """Return a LoCoMo conversation's turns as message items (one chat per session)."""
    conv = conversation["conversation"]
    items, n = [], 0
    for key in sorted(k for k in conv if k.startswith("session_") and not k.endswith("date_time")):
        for turn in conv[key]:
            n += 1
            items.append(
                {
                    "message_id": turn["dia_id"].replace(":", "-"),
                    "ts": (BASE + timedelta(seconds=n)).isoformat(),
                    "role": "user",
                    "content": f"{turn['speaker']}: {turn['text']}",
                    "chat_id": key,
                }
            )
    return items


def write_rates(users, conversation: dict, count: int) -> dict:
    """Return messages/s stored one per call by the service and through the API."""
    from django.test import Client

    from config.services import token_issue
    from memory.services import messages_write

    items = turns(conversation)[:count]
    service_user, api_user = users[:2]
    start = time.perf_counter()
    for item in items:
        messages_write(user=service_user, items=[item])
    service = len(items) / (time.perf_counter() - start)
    token = token_issue(user=api_user, name="bench").key
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    start = time.perf_counter()
    for item in items:
        response = client.post(
            f"/v1/users/{api_user.username}/messages",
            {"items": [item]},
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
    api = len(items) / (time.perf_counter() - start)
    batch_user = users[2]
    start = time.perf_counter()
    for first in range(0, len(items), 20):
        messages_write(user=batch_user, items=items[first : first + 20])
    batched = len(items) / (time.perf_counter() - start)
    # Eight writers at once, one message per call, each its own user: what the primary takes.
    from django.contrib.auth import get_user_model
    from django.db import connections

    writers = [get_user_model().objects.create_user(f"wc{n}") for n in range(8)]

    def write_all(user) -> None:
        for item in items:
            messages_write(user=user, items=[item])
        connections.close_all()

    threads = [threading.Thread(target=write_all, args=(u,)) for u in writers]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    concurrent = len(items) * len(writers) / (time.perf_counter() - start)
    return {
        "service": service,
        "api": api,
        "batched": batched,
        "concurrent": concurrent,
        "count": len(items),
    }


def run_clients(bodies_by_user, tokens, *, clients: int, seconds: float) -> dict:
    """Send hybrid searches from ``clients`` threads for ``seconds``; return the figures."""
    from django.db import connections
    from django.test import Client

    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    users = list(bodies_by_user)

    def worker(n: int) -> None:
        username = users[n % len(users)]
        client = Client(HTTP_AUTHORIZATION=f"Token {tokens[username]}")
        bodies = bodies_by_user[username]
        i = n
        while time.monotonic() < stop_at:
            body = bodies[i % len(bodies)]
            i += 1
            t0 = time.perf_counter()
            response = client.post(
                "/v1/messages/hybrid_search", body, content_type="application/json"
            )
            elapsed = (time.perf_counter() - t0) * 1000
            with lock:
                if response.status_code == 200:
                    latencies.append(elapsed)
                else:
                    errors[0] += 1
        connections.close_all()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    return {
        "rps": len(latencies) / wall,
        "p50": median(latencies),
        "p95": percentile(latencies, 95),
        "n": len(latencies),
        "errors": errors[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--conversations", type=int, default=3)
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--write-count", type=int, default=150)
    parser.add_argument("--no-report", action="store_true")
    args = parser.parse_args()

    setup_django(migrate=True)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django_q.conf import Conf

    from config import replicas
    from config.services import token_issue
    from memory.models import ChatMessage
    from memory.services import messages_write
    from rag.embeddings import embed_query
    from tests.rag import replica_helpers

    data = json.loads((args.datasets / "locomo10.json").read_text())
    User = get_user_model()

    # 1. Write rates (the queue gets the embedding tasks; no worker runs them here).
    w_users = [User.objects.create_user(f"w{i}") for i in range(3)]
    rates = write_rates(w_users, data[-1], args.write_count)
    print(
        f"write: service {rates['service']:.0f} msg/s, API {rates['api']:.0f} msg/s "
        f"({rates['count']} messages, one per call); service, 20 per call: "
        f"{rates['batched']:.0f} msg/s; 8 writers, one per call: {rates['concurrent']:.0f} msg/s"
    )

    # 2. Load with embeddings, inline.
    Conf.SYNC = True
    tokens, bodies, loaded = {}, {}, 0
    for n, conversation in enumerate(data[: args.conversations]):
        user = User.objects.create_user(f"locomo{n}")
        tokens[user.username] = token_issue(user=user, name="bench").key
        items = turns(conversation)
        for start in range(0, len(items), 20):
            messages_write(user=user, items=items[start : start + 20])
        loaded += len(items)
        questions = [q["question"] for q in conversation["qa"]][: args.questions]
        bodies[user.username] = [
            {"user_id": user.username, "query_text": q, "query_embedding": embed_query(q)}
            for q in questions
        ]
    Conf.SYNC = False
    missing = ChatMessage.objects.filter(
        embedding__isnull=True, user__username__startswith="locomo"
    )
    print(f"loaded {loaded} messages ({missing.count()} without embedding)")

    # 3. Primary alone, then primary + one replica.
    settings.REPLICA_DATABASES = []
    alone = run_clients(bodies, tokens, clients=args.clients, seconds=args.seconds)
    print(f"primary alone: {alone}")
    primary = connections["default"].settings_dict
    replica = replica_helpers.create_replica(primary)
    try:
        connections.settings["replica_1"] = replica.settings_dict(primary)
        replica_helpers.wait_for_replay(primary, replica)
        settings.REPLICA_DATABASES = ["replica_1"]
        replicas.served.clear()
        both = run_clients(bodies, tokens, clients=args.clients, seconds=args.seconds)
        served = dict(replicas.served)
        print(f"primary + replica: {both} served {served}")
    finally:
        settings.REPLICA_DATABASES = []
        connections.close_all()
        replica.discard()

    rows = [
        [
            "primary alone",
            f"{alone['rps']:.1f}",
            f"{alone['p50']:.1f}",
            f"{alone['p95']:.1f}",
            alone["errors"],
            "-",
        ],
        [
            "primary + 1 replica",
            f"{both['rps']:.1f}",
            f"{both['p50']:.1f}",
            f"{both['p95']:.1f}",
            both["errors"],
            f"{served.get('replica_1', 0)} / {served.get('default', 0)}",
        ],
    ]
    body = (
        f"LoCoMo conversations 1-{args.conversations} ({loaded} messages, one user each, "
        f"embedded); {args.clients} client threads for {args.seconds:.0f} s each, "
        "`POST /v1/messages/hybrid_search` with the question's embedding given (the database "
        "work, not the model's). Both servers and the clients share this machine's 2 cores "
        "(on a shared machine), so a replica here competes with the primary for CPU: the "
        "figure shows the routing works and what it costs, not the gain of a replica on its "
        "own machine.\n\n"
        + markdown_table(
            ["setup", "req/s", "p50 ms", "p95 ms", "errors", "searches replica / primary"], rows
        )
        + f"\n\nRatio (with replica / alone): {both['rps'] / alone['rps']:.2f}.\n\n"
        f"Write rates of the primary, {rates['count']} LoCoMo turns stored one message per "
        "call, embedding queued (ORM broker, no worker): "
        f"service function {rates['service']:.0f} messages/s, API (test client, full "
        f"middleware/DRF stack) {rates['api']:.0f} messages/s, one client; the service "
        f"with 20 messages per call {rates['batched']:.0f} messages/s; 8 concurrent writers "
        f"(threads, one message per call) {rates['concurrent']:.0f} messages/s in all.\n"
    )
    if not args.no_report:
        write_section("replica", "Scale-out: search throughput with one streaming replica", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
