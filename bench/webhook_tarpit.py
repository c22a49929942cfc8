"""Benchmark: one user's 20 tarpit webhooks leave another user's chat message searchable in 5 s.

Runs ``manage.py serve`` (web server and one worker cluster per queue, as ``make run``) on its
own database (``bench_tarpit`` on the embedded server, created when missing; or
``--database-url``), over real HTTP::

    python bench/webhook_tarpit.py [--messages 20] [--events 5] [--per-owner 1,20] [--publish]

1. User A (``bench_tarpit_a``) registers 20 webhooks (the most one user may have), each on its
   own tarpit receiver on 127.0.0.1: it accepts the connection, reads the request and never
   answers. The server runs with ``WEBHOOK_ALLOW_HTTP=1`` and
   ``WEBHOOK_ALLOW_PRIVATE_TARGETS=1`` (the development settings that let a webhook reach a
   local http receiver; docs/SECURITY.md, "Webhooks"); nothing else changed.
2. ``--events`` deadline reminders of A are recorded as the reminder trigger records them
   (``agent.triggers.record_event`` in ``manage.py shell``): each fans out to the 20 webhooks,
   20 x events deliveries that can only end at their deadline.
3. While the tarpits hold those POSTs, user B (``bench_tarpit_b``) writes chat messages one at
   a time and polls semantic search until each is found (bench/queue_latency.py
   ``time_until_searchable``): the time from the write to the hit. The tarpits count the
   connections they held, to show the deliveries were under way throughout.

One run per ``--per-owner`` value (default ``1,20``): ``WEBHOOK_MAX_CONCURRENT_PER_OWNER`` 1,
the default, and 20, where A's POSTs fill every worker of the ``webhooks`` queue.

Target: every message of B searchable within 5 s (p95 and max <= 5 s). Synthetic data (no
split: the 20 topics of bench/queue_latency.py); the receivers are local, nothing is sent
off the machine.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import (  # noqa: E402
    ROOT,
    bench_database_url,
    markdown_table,
    percentile,
    use_development_secret_key,
    write_section,
)
from bench._live import (  # noqa: E402
    Api,
    free_port,
    manage,
    shared_machine_note,
    start_serve,
    stop_serve,
    token_for,
)
from bench.queue_latency import message_text, time_until_searchable  # noqa: E402

OWNER_A = "bench_tarpit_a"
USER_B = "bench_tarpit_b"
WEBHOOKS = 20  # agent.webhooks.MAX_WEBHOOKS_PER_OWNER
TARGET_SECONDS = 5.0
SERVE_ENV = {"WEBHOOK_ALLOW_HTTP": "1", "WEBHOOK_ALLOW_PRIVATE_TARGETS": "1"}


class Tarpit:
    """A receiver on 127.0.0.1 that accepts every connection, reads, and never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.open = 0  # connections the client has not closed yet
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed
            with self.lock:
                self.accepted += 1
                self.open += 1
                self.conns.append(conn)
            threading.Thread(target=self._hold, args=(conn,), daemon=True).start()

    def _hold(self, conn: socket.socket) -> None:
        # Read what the client sends (so it never blocks writing), answer nothing, and notice
        # when it gives up and closes.
        try:
            while conn.recv(65536):
                pass
        except OSError:
            pass
        with self.lock:
            self.open -= 1

    def close(self) -> None:
        self.sock.close()
        with self.lock:
            for conn in self.conns:
                conn.close()


RECORD_EVENTS = """
from django.contrib.auth import get_user_model
from agent.triggers import record_event
user = get_user_model().objects.get(username={owner!r})
for i in range({events}):
    record_event(user=user, kind="deadline_reminder", period_key={run!r} + f"-{{i}}",
                 build=lambda i=i: {{"title": f"活动快开始了 {{i}}", "items": []}})
print("recorded")
"""


def scenario(args, project: Path, url: str, per_owner: int) -> dict:
    """Run serve with ``per_owner`` concurrent POSTs per owner; return B's figures."""
    import psycopg

    # Work or webhooks left from an earlier run would compete with this one: start clean.
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM django_q_ormq")
        owned = "SELECT w.id FROM agent_webhook w JOIN auth_user u ON u.id = w.owner_id"
        owned += " WHERE u.username = %s"
        conn.execute(f"DELETE FROM agent_webhookdelivery WHERE webhook_id IN ({owned})", [OWNER_A])
        conn.execute(f"DELETE FROM agent_webhook WHERE id IN ({owned})", [OWNER_A])
    token_a = token_for(project, url, OWNER_A)
    token_b = token_for(project, url, USER_B)
    tarpits = [Tarpit() for _ in range(WEBHOOKS)]
    port = free_port()
    log = ROOT / ".runtime" / f"bench_webhook_tarpit_serve_{per_owner}.log"
    log.parent.mkdir(exist_ok=True)
    env = {**SERVE_ENV, "WEBHOOK_MAX_CONCURRENT_PER_OWNER": str(per_owner)}
    server = start_serve(project, url, port, log, env=env)
    api_a, api_b = Api(port, token_a), Api(port, token_b)
    run = uuid.uuid4().hex[:6]
    results, held = [], []
    print(f"WEBHOOK_MAX_CONCURRENT_PER_OWNER={per_owner}")
    try:
        warm = time_until_searchable(
            api_b, f"预热消息 {run}", f"t-{run}-warm", args.limit, username=USER_B
        )
        print(f"warm-up message of B searchable after {warm['seconds']}s")
        for pit in tarpits:
            body = {"url": f"http://127.0.0.1:{pit.port}/hook", "kinds": ["deadline_reminder"]}
            status, payload, _ = api_a.post(f"/v1/users/{OWNER_A}/webhooks", body)
            if status != 201:
                raise SystemExit(f"webhook create failed: {status} {payload}")
        script = RECORD_EVENTS.format(owner=OWNER_A, events=args.events, run=run)
        manage(project, url, "shell", "-c", script)
        deadline = time.perf_counter() + 30
        while sum(p.accepted for p in tarpits) == 0 and time.perf_counter() < deadline:
            time.sleep(0.1)
        print(f"{WEBHOOKS} tarpit webhooks of A, {args.events} reminders recorded; first POST in")
        for i in range(args.messages):
            one = time_until_searchable(
                api_b, message_text(i, run), f"t-{run}-{i}", args.limit, username=USER_B
            )
            holding = sum(p.open for p in tarpits)
            results.append(one["seconds"])
            held.append(holding)
            shown = f"{one['seconds']:.2f}s" if one["seconds"] is not None else "not found"
            print(f"  message {i + 1} of B: searchable after {shown}; tarpits holding {holding}")
        accepted = sum(p.accepted for p in tarpits)
    finally:
        stop_seconds = stop_serve(server)
        for pit in tarpits:
            pit.close()
    found = [s for s in results if s is not None]
    out = {
        "per_owner": per_owner,
        "messages": len(results),
        "p50": percentile(found, 50),
        "p95": percentile(found, 95),
        "max": max(found) if found else float("nan"),
        "missing": len(results) - len(found),
        "accepted": accepted,
        "held": (min(held), max(held)) if held else (0, 0),
    }
    out["met"] = not out["missing"] and out["max"] <= TARGET_SECONDS
    print(
        f"B's messages: p50 {out['p50']:.2f}s, p95 {out['p95']:.2f}s, max {out['max']:.2f}s, "
        f"{out['missing']} not found; POSTs the tarpits accepted: {accepted}; target <= "
        f"{TARGET_SECONDS:g}s {'met' if out['met'] else 'MISSED'}; serve stopped in "
        f"{stop_seconds:.1f}s"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--db-name", default="bench_tarpit")
    parser.add_argument("--project", type=Path, default=ROOT, help="checkout to measure")
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--events", type=int, default=5, help="reminders of A (x20 POSTs)")
    parser.add_argument("--limit", type=float, default=60.0, help="give up on a message after")
    parser.add_argument(
        "--per-owner",
        default="1,20",
        help="WEBHOOK_MAX_CONCURRENT_PER_OWNER values, one run each (1: the default; 20: "
        "every webhook of A at once, the webhooks queue's workers all held)",
    )
    parser.add_argument("--publish", action="store_true", help="write docs/BENCHMARKS.md")
    args = parser.parse_args()

    project = args.project.resolve()
    use_development_secret_key()  # serve runs with DEBUG off, as `make run` does
    url = bench_database_url(args.db_name, args.database_url)
    manage(project, url, "migrate", "--noinput")
    runs = [scenario(args, project, url, int(n)) for n in args.per_owner.split(",")]
    if not args.publish:
        return
    table = markdown_table(
        [
            "POSTs per owner at once",
            "messages of B",
            "p50 s",
            "p95 s",
            "max s",
            "not found",
            "POSTs tarpits accepted",
            "held at a hit (min-max)",
            "max <= 5 s",
        ],
        [
            [
                r["per_owner"],
                r["messages"],
                r["p50"],
                r["p95"],
                r["max"],
                r["missing"],
                r["accepted"],
                f"{r['held'][0]}-{r['held'][1]}",
                r["met"],
            ]
            for r in runs
        ],
    )
    body = (
        f"User A registers {WEBHOOKS} webhooks, each on a local tarpit receiver (127.0.0.1; "
        "accepts, reads, never answers), and gets "
        f"{args.events} deadline reminders: {WEBHOOKS * args.events} deliveries that can only "
        "end at their deadline (`WEBHOOK_DEADLINE_SECONDS` 10 s). Meanwhile user B writes chat "
        "messages one at a time and polls semantic search for each: the time from the write "
        "until the search returns it. One run per `WEBHOOK_MAX_CONCURRENT_PER_OWNER`: 1 (the "
        "default: A holds one tarpit POST at a time) and 20 (A's POSTs fill the `webhooks` "
        "queue's workers; B's write and embedding run on the interactive queue).\n\n"
        f"{table}\n\n"
        "Server: `manage.py serve`, defaults except `WEBHOOK_ALLOW_HTTP=1` and "
        "`WEBHOOK_ALLOW_PRIVATE_TARGETS=1` (local http receivers) and the per-owner cap of each "
        "row. Data: synthetic (the 20 topics of bench/queue_latency.py), no split. "
        + shared_machine_note()
    )
    write_section("webhook_tarpit", "Webhook tarpits and another user's chat", body)


if __name__ == "__main__":
    main()
