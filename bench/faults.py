"""Time the service under faults, with real processes (figures for docs/RELIABILITY.md).

    .venv/bin/python bench/faults.py

On a private embedded PostgreSQL (a temporary data dir) it starts ``runserver`` twice:

1. embedding through a local OpenAI-protocol server, which is then stopped (a closed port):
   three ``POST /rag/search``, two agent chat turns, the memory and writing searches and
   ``/api/health``, each timed;
2. with the local model: a 20,000-character semantic search of one user and, 0.5 s later, a
   short ``POST /rag/search`` of another; the short search's time and whether it degraded.

Only prints; nothing is asserted (the fault tests in tests/platform/test_faults.py do that).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NEAR = {"location": {"lat": 31.2304, "lng": 121.4737, "radiusInKm": 50}}
LONG_QUERY = ("我们周末一起去郊外爬山，然后在山脚下的农家乐吃饭，晚上回城看电影。" * 700)[:20000]


def timed(label: str, send) -> object:
    """Send one request, print its status, time and degraded flag; return the response."""
    started = time.perf_counter()
    response = send()
    elapsed = time.perf_counter() - started
    body = response.json() if response.headers.get("content-type", "").startswith("app") else {}
    meta = body.get("meta", body) if isinstance(body, dict) else {}
    flag = meta.get("degraded") if isinstance(meta, dict) else None
    reason = (meta.get("degradedReason") or meta.get("degraded_reason")) if flag else None
    status = response.status_code
    print(f"{label}: HTTP {status} in {elapsed:.2f} s, degraded={flag} {reason or ''}")
    return response


def provider_down(db, fake) -> None:
    from tests.platform.live_service import WebServer

    web = WebServer(
        db,
        env={
            "EMBEDDING_PROVIDER": "openai",
            "EMBEDDING_BASE_URL": fake.base_url,
            "EMBEDDING_MODEL": "fake-embedding",
            "EMBEDDING_DIMENSIONS": "384",
            "Q_SYNC": "0",  # no worker: written rows wait in the queue, as in production
        },
    ).start()
    try:
        start = (datetime.now(UTC) + timedelta(days=3)).isoformat()
        for i, title in enumerate(["山野徒步", "湖边皮划艇", "城市骑行", "露营观星", "攀岩体验"]):
            body = {
                "title": title,
                "description": f"{title}，周末活动。",
                "type": "户外",
                "start_at": start,
                "location": {"lat": 31.23 + i * 0.01, "lng": 121.47},
                "max_participants": 10,
            }
            web.post("/api/activities/", "alice", body)
        for query in ("热身一", "热身二"):  # imports, jieba, the reasons: not what is measured
            web.post("/rag/search", "bob", {"semanticQuery": query, "filters": NEAR})
        web.post("/api/agent/chat", "bob", {"message": "你好"})
        fake.stop()
        print("-- embedding provider on a closed port")
        for i in range(3):
            query = {"semanticQuery": f"户外徒步{i}", "filters": NEAR}
            timed(f"POST /rag/search #{i + 1}", lambda q=query: web.post("/rag/search", "bob", q))
        for i, message in enumerate(["周末有什么户外活动推荐", "帮我找个周六下午的桌游"]):
            timed(
                f"POST /api/agent/chat #{i + 1}",
                lambda m=message: web.post("/api/agent/chat", "bob", {"message": m}),
            )
        for path, body in [
            ("/v1/messages/hybrid_search", {"user_id": "bob", "query_text": "火锅"}),
            ("/v1/messages/semantic_search", {"user_id": "bob", "query_text": "火锅"}),
            ("/api/writing/search", {"query": "花果山"}),
        ]:
            timed(f"POST {path}", lambda p=path, b=body: web.post(p, "bob", b))
        health = timed("GET /api/health", lambda: web.get("/api/health"))
        print(f"   health status: {health.json().get('status')}")
    finally:
        web.stop()


def long_query_beside_a_short_one(db) -> None:
    from tests.platform.live_service import WebServer

    web = WebServer(db, env={"SEARCH_TIME_BUDGET_SECONDS": "3"}).start()
    try:
        print("-- local model: a 20,000-character query beside a short search")
        for query in ("热身一", "热身二"):
            web.post("/rag/search", "bob", {"semanticQuery": query, "filters": NEAR})
        short = {"semanticQuery": "周末去湖边划船", "filters": NEAR}
        timed("short POST /rag/search alone", lambda: web.post("/rag/search", "bob", short))
        body = {"user_id": "alice", "query_text": LONG_QUERY}
        long = threading.Thread(
            target=timed,
            args=(
                "20,000-character semantic search",
                lambda: web.post("/v1/messages/semantic_search", "alice", body),
            ),
        )
        long.start()
        time.sleep(0.5)
        short = {"semanticQuery": "周末去湖边划船呀", "filters": NEAR}
        timed("short POST /rag/search beside it", lambda: web.post("/rag/search", "bob", short))
        long.join()
    finally:
        web.stop()


def main() -> None:
    from config import embedded_db
    from tests.fakes.openai_server import FakeOpenAIServer
    from tests.platform.live_service import ServiceDatabase

    root = Path(tempfile.mkdtemp(prefix="semmem-bench-faults-"))
    db = ServiceDatabase(root / "pgdata").create()
    try:
        with FakeOpenAIServer(dimensions=384) as fake:
            provider_down(db, fake)
        long_query_beside_a_short_one(db)
        print(f"-- load average: {os.getloadavg()}")
    finally:
        embedded_db.stop(db.data_dir)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
