"""The web server of ``manage.py serve`` (serving/web.py), over real HTTP: gunicorn, WhiteNoise,
readiness.

One server for the module (its own embedded PostgreSQL, migrated, DEBUG off, both worker
clusters); the last test stops it the way Ctrl-C does.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time

import httpx
import psutil
import pytest

from serving.web import WebServer
from tests.platform.live_service import ROOT, ServiceDatabase, base_env, free_port
from tests.platform.test_openapi import REMOTE_LOAD, _assets
from tests.rag.process_helpers import STOP_BOUND_SECONDS, still_there, tree

pytestmark = [pytest.mark.real_clock, pytest.mark.slow]

WEB_PROCESSES = 2


class Serve:
    """A running ``manage.py serve`` and an HTTP client for it."""

    def __init__(self, tmp_dir):
        self.db = ServiceDatabase(tmp_dir / "pgdata").create()
        self.port = free_port()
        self.log = tmp_dir / "serve.log"
        env = base_env(
            self.db.data_dir,
            {
                "Q_SYNC": "0",  # the real clusters run the tasks
                "STATIC_ROOT": str(tmp_dir / "static"),
                "WEB_PROCESSES": str(WEB_PROCESSES),
                "LOG_LEVEL": "INFO",
            },
        )
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--addr", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=60)

    def output(self) -> str:
        return self.log.read_text()[-4000:]

    def wait_for_health(self, accept, limit: float = 180) -> dict:
        """Poll /api/health until ``accept(body)``; return that body."""
        deadline = time.monotonic() + limit
        body = None
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            try:
                response = self.client.get("/api/health", timeout=10)
                body = response.json()
                if response.status_code == 200 and accept(body):
                    return body
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"health never accepted: {body}\n{self.output()}")

    def kill(self) -> None:
        procs = tree(self.process)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(STOP_BOUND_SECONDS + 5)
        for p in procs:
            with contextlib.suppress(psutil.Error):
                p.kill()
        self.client.close()


def _queues_seen(body: dict) -> bool:
    return body["ready"] and all(age is not None for age in body["worker_queues"].values())


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    """Start ``manage.py serve`` (web + both clusters) on a migrated database of its own."""
    server = Serve(tmp_path_factory.mktemp("serve"))
    yield server
    server.kill()


def test_health_reports_ready_and_both_queue_heartbeats_once_serving(serve):
    body = serve.wait_for_health(_queues_seen)
    # Seen by the clusters' start-up beat, not a scheduled one (which comes each minute).
    assert body["ready"] is True
    assert all(age < 60 for age in body["worker_queues"].values()), body
    assert body["embedding"]["state"] == "ok"


def test_web_server_is_gunicorn_with_the_configured_worker_processes(serve):
    serve.wait_for_health(lambda body: body["ready"])
    response = serve.client.get("/api/health")
    workers = [c for c in psutil.Process(serve.process.pid).children() if _listens(c, serve.port)]
    assert response.headers["server"].startswith("gunicorn")
    assert len(workers) == WEB_PROCESSES  # serve is gunicorn's master; the clusters do not listen


def _listens(process: psutil.Process, port: int) -> bool:
    """Return whether ``process`` holds the socket listening on ``port``."""
    return any(
        conn.status == psutil.CONN_LISTEN and conn.laddr.port == port
        for conn in process.net_connections(kind="tcp")
    )


def test_search_answers_from_the_model_right_after_ready(serve):
    serve.wait_for_health(lambda body: body["ready"])
    token = serve.db.tokens["alice"]
    response = serve.client.post(
        "/rag/search",
        json={"semanticQuery": "周末去湖边划船"},
        headers={"Authorization": f"Token {token}"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["degraded"] is False


def test_home_page_is_served_without_debug(serve):
    response = serve.client.get("/")
    assert response.status_code == 200
    assert 'href="/api/docs/"' in response.text


def test_static_files_are_served_compressed_by_whitenoise(serve):
    response = serve.client.get("/static/admin/css/base.css", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    assert response.headers["content-encoding"] == "gzip"  # WhiteNoise's pre-compressed copy
    assert "max-age" in response.headers["cache-control"]


def test_unknown_page_is_a_plain_404_not_a_debug_page(serve):
    response = serve.client.get("/no-such-page/")
    assert response.status_code == 404
    assert "URLconf" not in response.text
    assert "DEBUG" not in response.text


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_and_what_they_load_stay_on_this_host(serve, path):
    page = serve.client.get(path)
    assets = _assets(page.text)
    bodies = {asset: serve.client.get(asset) for asset in assets}
    assert page.status_code == 200 and assets
    assert {asset: r.status_code for asset, r in bodies.items() if r.status_code != 200} == {}
    remote = {asset: REMOTE_LOAD.findall(r.text) for asset, r in bodies.items()}
    assert {asset: found for asset, found in remote.items() if found} == {}


@pytest.mark.real_model(cache=False)  # ready means the local model has run in this process
@pytest.mark.django_db
def test_readiness_waits_until_every_web_process_has_warmed_up(monkeypatch):
    from rag import warmup
    from serving.warmup import warm_up

    warm_up()  # this process: jieba and the model
    monkeypatch.setattr(warmup, "_gates", [])
    server = WebServer(None, bind="127.0.0.1:0")
    assert server.warmed_up(2) == 1
    assert warmup.is_ready() is False  # the other process is still warming up
    assert server.warmed_up(2) == 2
    assert warmup.is_ready() is True
    assert server.warmed_up(2) == 3  # a recycled process counts again; ready stays


def test_ctrl_c_stops_the_web_server_and_the_workers(serve):
    procs = tree(serve.process)
    assert len(procs) > 1 + WEB_PROCESSES
    serve.process.send_signal(signal.SIGINT)
    assert serve.process.wait(STOP_BOUND_SECONDS + 5) == 0, serve.output()
    assert still_there(procs) == [], serve.output()
    # Only serve's own process shuts down: a web process leaving gunicorn does not.
    assert serve.output().count("Stopped the web server and the workers.") == 1, serve.output()
    with pytest.raises(httpx.TransportError):
        serve.client.get("/api/health", timeout=5)
