"""``manage.py serve`` as ``make run`` starts it, over real HTTP: gunicorn, WhiteNoise, readiness.

One server for the module (its own embedded PostgreSQL, migrated, DEBUG off, both worker
clusters); the last test stops it the way Ctrl-C does.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import httpx
import psutil
import pytest

from config.serving import WebServer, WebWorker, connect_threads, options, rehearse_request
from config.threadpool import LifoThreadPool
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
    workers = _gunicorn_master(serve).children()
    assert response.headers["server"].startswith("gunicorn")
    assert len(workers) == WEB_PROCESSES


def _gunicorn_master(serve) -> psutil.Process:
    """Return the web child of serve (the gunicorn arbiter): the one whose children serve HTTP."""
    for child in psutil.Process(serve.process.pid).children():
        for conn in child.net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr.port == serve.port:
                return child
    raise AssertionError("no child of serve listens on the port")


def test_every_request_thread_holds_a_database_connection_once_ready(serve):
    import psycopg

    from config import embedded_db

    serve.wait_for_health(lambda body: body["ready"])
    threads = 16  # WEB_THREADS, default
    # `ready` waits for every web process's warm-up, which opens each thread's connection.
    with psycopg.connect(embedded_db.start(serve.db.data_dir)) as conn:
        backends = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
        ).fetchone()[0]
    assert backends > WEB_PROCESSES * threads  # the web threads', the workers', this one


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


def test_the_web_server_runs_this_pool():
    assert options("127.0.0.1:0")["worker_class"] == "config.serving.WebWorker"
    worker = SimpleNamespace(cfg=SimpleNamespace(threads=3))
    executor = WebWorker.get_thread_pool(worker)
    try:
        assert isinstance(executor, LifoThreadPool)
        assert executor._max_workers == 3
    finally:
        executor.shutdown()


@pytest.mark.django_db(transaction=True)
def test_every_request_thread_runs_the_warm_up_searches_on_a_stand_in_vector(monkeypatch):
    from django.db import connections

    from rag import embeddings, warmup

    seen: list[tuple[str, list[float]]] = []
    opened = []

    def hook():
        seen.append((threading.current_thread().name, embeddings.embed_query("x")))
        opened.append(connections["default"])  # this thread's own

    monkeypatch.setattr(warmup, "_hooks", [hook])
    executor = LifoThreadPool(3)
    try:
        connect_threads(SimpleNamespace(cfg=SimpleNamespace(threads=3), tpool=executor))
    finally:
        executor.shutdown()
        for wrapper in opened:  # the threads are gone; their sessions must not outlive the test
            wrapper.inc_thread_sharing()
            wrapper.close()
    assert len({name for name, _ in seen}) == 3  # once on each thread, so on each connection
    stand_in = [1.0] + [0.0] * (len(seen[0][1]) - 1)
    assert all(vector == stand_in for _, vector in seen)  # the model did not run for them
    assert embeddings._stand_in is None  # real searches embed for real again


@pytest.mark.django_db
def test_the_rehearsal_request_renders_the_home_page_through_the_application():
    from config.wsgi import application

    assert rehearse_request(application) == 200


@pytest.mark.django_db
def test_the_rehearsal_request_uses_a_host_the_site_allows(settings):
    from config.wsgi import application

    settings.ALLOWED_HOSTS = [".example.org"]
    assert rehearse_request(application) == 200


@pytest.mark.django_db
def test_readiness_waits_until_every_web_process_has_warmed_up(monkeypatch):
    from rag import warmup

    warmup.warm_up()  # this process: jieba and the model
    monkeypatch.setattr(warmup, "_gates", [])
    server = WebServer(None, bind="127.0.0.1:0")
    assert server.warmed_up(2) == 1
    assert warmup.is_ready() is False  # the other process is still warming up
    assert server.warmed_up(2) == 2
    assert warmup.is_ready() is True
    assert server.warmed_up(2) == 3  # a recycled process counts again; ready stays


def test_a_failing_rehearsal_request_is_logged_not_raised(caplog):
    def broken(environ, start_response):
        raise RuntimeError("boom")

    assert rehearse_request(broken) == 0
    assert "rehearsal request failed" in caplog.text


def test_ctrl_c_stops_the_web_server_and_the_workers(serve):
    procs = tree(serve.process)
    assert len(procs) > 1 + WEB_PROCESSES
    serve.process.send_signal(signal.SIGINT)
    assert serve.process.wait(STOP_BOUND_SECONDS + 5) == 0, serve.output()
    assert still_there(procs) == [], serve.output()
    with pytest.raises(httpx.TransportError):
        serve.client.get("/api/health", timeout=5)


@pytest.mark.django_db
def test_serve_refuses_to_start_while_a_migration_is_unapplied(monkeypatch):
    from django.core.management import CommandError, call_command
    from django.db.migrations.recorder import MigrationRecorder

    from rag.management.commands import serve as serve_command

    def started(*args, **kwargs):
        raise AssertionError("serve went on to load and fork")

    monkeypatch.setattr(serve_command.Command, "_preload", started)
    latest = MigrationRecorder.Migration.objects.filter(app="memory").latest("id")
    latest.delete()  # rolled back with the test's transaction
    with pytest.raises(CommandError, match=rf"memory\.{latest.name}.*manage\.py migrate"):
        call_command("serve", "--no-worker")


@pytest.mark.django_db
def test_serve_finds_nothing_to_apply_on_a_migrated_database():
    from rag.management.commands.serve import unapplied_migrations

    assert unapplied_migrations() == []


def test_serve_refuses_to_run_neither_the_web_server_nor_the_workers():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="nothing to run"):
        call_command("serve", "--no-worker", "--no-web")


def test_serve_says_which_database_it_cannot_read_instead_of_a_traceback(monkeypatch):
    from django.core.management import CommandError, call_command
    from django.db import OperationalError

    from rag.management.commands import serve as serve_command

    def unreachable(database="default"):
        raise OperationalError("connection refused")

    monkeypatch.setattr(serve_command, "unapplied_migrations", unreachable)
    with pytest.raises(CommandError, match="database 'default': connection refused"):
        call_command("serve", "--no-worker")
