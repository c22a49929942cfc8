"""``manage.py serve`` (what ``make run`` starts): the web server and one worker cluster per queue.

One process loads everything once (Django, every app's views, jieba's dictionary, the static
files' index) and then forks: one django-q2 cluster per queue (interactive, bulk, webhooks) and
the web server, gunicorn with gthread workers (``WEB_PROCESSES`` x ``WEB_THREADS``). Every process
shares those pages copy-on-write (docs/SERVING.md: why this server, and the memory it saves).
Each web process runs its first embedding before it accepts a connection (rag.warmup).
Ctrl-C or SIGTERM stops them all within ``Q_STOP_TIMEOUT`` + 2 s (and the embedded database,
unless --keep-db).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import signal
import subprocess
import sys
import time
import traceback

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from config.queues import BULK, QUEUES, cluster_config
from rag.providers.local import openmp_defaults

# serve waits this much longer than a cluster's own stop budget before it kills what is left.
STOP_MARGIN_SECONDS = 2.0

PR_SET_PDEATHSIG = 1


class ForkedChild:
    """A child process made by ``os.fork``, with the bits of ``subprocess.Popen`` serve uses."""

    def __init__(self, name: str, pid: int):
        self.name = name
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                self.returncode = -1
                return self.returncode
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(self.name, timeout)
            time.sleep(0.05)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signum)


def fork_child(name: str, target, *args, nice: int = 0) -> ForkedChild:
    """Run ``target(*args)`` in a forked child in its own session; return the child."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return ForkedChild(name, pid)
    code = 1
    try:
        # Own process group: Ctrl-C reaches serve alone, which stops each child in order, and
        # a child left over can be killed with its whole tree.
        os.setsid()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if nice:
            os.nice(nice)
        # Linux: a serve killed by SIGKILL still stops its children (gracefully) this way.
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        target(*args)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - a child reports and exits, never returns into serve
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


# glibc's mallopt parameters (malloc.h).
M_ARENA_MAX = -8
MALLOC_ARENAS = 2


def limit_malloc_arenas() -> None:
    """Give each process at most two malloc arenas, whatever its thread count.

    glibc makes up to eight arenas per core for a threaded process (16 gunicorn threads, the
    model's OpenMP threads); each keeps the memory its threads freed. Set before the fork, it
    holds in every child (they are not exec'd, so MALLOC_ARENA_MAX in the environment would
    come too late).
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(M_ARENA_MAX, MALLOC_ARENAS)


def use_queue(queue: str) -> None:
    """Make django-q2's configuration (``Conf``) the one of ``queue`` in this process.

    django-q2 reads ``Q_CLUSTER_NAME`` once, when ``django_q.conf`` is imported, and serve
    imported it before forking: evaluate a fresh copy of that module with the queue's name and
    copy its settings onto the ``Conf`` every django-q2 module refers to.
    """
    import importlib.util

    import django_q.conf

    os.environ["Q_CLUSTER_NAME"] = queue
    spec = importlib.util.spec_from_file_location(f"django_q._conf_{queue}", django_q.conf.__file__)
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    for key, value in vars(fresh.Conf).items():
        if not key.startswith("__"):
            setattr(django_q.conf.Conf, key, value)


def run_cluster(queue: str) -> None:
    """Run the django-q2 cluster of ``queue`` in this process until SIGTERM.

    This process is the cluster's sentinel (config.worker.BoundedSentinel: SIGTERM stops it
    within Q_STOP_TIMEOUT; it ignores SIGINT): ``qcluster``'s own main process, which only
    waits for its sentinel, would be one more process for nothing.
    """
    import uuid

    use_queue(queue)
    from django_q.cluster import Sentinel, get_mp_context

    context = get_mp_context()
    Sentinel(context.Event(), context.Event(), uuid.uuid4())


def unapplied_migrations(database: str = "default") -> list[str]:
    """Return ``app.name`` of each migration ``migrate`` would still apply on ``database``."""
    from django.db import connections
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections[database])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


def run_web(addr: str, application) -> None:
    """Run gunicorn (gthread) on ``addr`` with the already loaded WSGI ``application``."""
    from config.serving import WebServer

    WebServer(application, bind=addr).run()


class Command(BaseCommand):
    help = (
        "Run the web server (gunicorn, gthread) and one django-q2 cluster per queue "
        "(interactive, bulk, webhooks); Ctrl-C or SIGTERM stops them all (and the embedded "
        "database, unless --keep-db)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--no-worker", action="store_true")
        parser.add_argument(
            "--no-web", action="store_true", help="run the workers only (no web server)"
        )
        parser.add_argument(
            "--keep-db",
            action="store_true",
            help="leave the embedded PostgreSQL running on exit (stop it later with make stop)",
        )

    def _preload(self, web: bool):
        """Load in this process what every child needs; return the WSGI application (or None)."""
        from django.db import connections

        from rag import warmup

        application = None
        if web:
            # WhiteNoise indexes STATIC_ROOT when the application is built: collect first.
            call_command("collectstatic", interactive=False, verbosity=0)
            from config.wsgi import application
        warmup.preload()
        if application is not None:
            from config.serving import rehearse_request

            rehearse_request(application)
        import django_q.cluster  # noqa: F401 - shared by the clusters' processes
        import gunicorn.arbiter  # noqa: F401 - shared by the web processes
        import gunicorn.workers.gthread  # noqa: F401

        connections.close_all()  # a connection must never be shared by two processes
        limit_malloc_arenas()
        # Objects made so far never move: the collector of a child leaves their pages shared.
        gc.collect()
        gc.freeze()
        return application

    def _start_clusters(self) -> list[ForkedChild]:
        children = []
        for queue in QUEUES:
            nice = settings.Q_BULK_NICE if queue == BULK else 0
            child = fork_child(f"worker {queue}", run_cluster, queue, nice=nice)
            workers = cluster_config(queue)["workers"]
            self.stdout.write(
                f"  Worker:       queue {queue!r}, {workers} worker(s)"
                + (f", nice {nice}" if nice else "")
                + f", pid {child.pid}"
            )
            children.append(child)
        return children

    def handle(self, *args, addr, no_worker, no_web, keep_db, **options):
        if ":" not in addr:
            raise CommandError("--addr must be HOST:PORT")
        if no_worker and no_web:
            raise CommandError("--no-worker with --no-web leaves nothing to run")
        # Code that expects a column the database lacks would warm up, say ready and then
        # answer 500 to every search: refuse to start instead (runserver only warns).
        try:
            pending = unapplied_migrations()
        except DatabaseError as exc:
            raise CommandError(
                f"Cannot read the migrations of database 'default': {exc}".strip()
            ) from exc
        if pending:
            shown = ", ".join(pending[:5]) + (
                f" and {len(pending) - 5} more" if len(pending) > 5 else ""
            )
            raise CommandError(
                f"The database has {len(pending)} unapplied migration(s) ({shown}): "
                "run `python manage.py migrate` first (make run does)."
            )
        # The model's OpenMP threads spin only briefly while idle, in every process forked
        # from here (libgomp reads this once, at the first embedding).
        openmp_defaults()
        application = self._preload(web=not no_web)
        children: list[ForkedChild] = []
        if not no_worker:
            children += self._start_clusters()
        if not no_web:
            children.append(fork_child("web", run_web, addr, application))
            self.stdout.write(
                f"  Web:          gunicorn (gthread), {settings.WEB_PROCESSES} process(es) x "
                f"{settings.WEB_THREADS} threads, pid {children[-1].pid}"
            )
        base = f"http://{addr}"
        stops_db = settings.USING_EMBEDDED_DB and not keep_db
        lines = [""]
        if not no_web:
            lines += [
                f"  Home:         {base}/",
                f"  Admin:        {base}/admin/",
                f"  API docs:     {base}/api/docs/   (ReDoc: {base}/api/redoc/)",
                f"  Health:       {base}/api/health",
                f"  Activities:   {base}/staff/activities/",
                f"  Writing:      {base}/staff/writing/",
            ]
        lines += [
            "  Stop with Ctrl-C (it stops the workers, the web server"
            + (" and the embedded database)." if stops_db else ")."),
            "",
        ]
        self.stdout.write("\n".join(lines))
        received: list[int] = []

        def stop(signum, frame):
            received.append(signum)

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not received and all(c.poll() is None for c in children):
                time.sleep(0.3)
        finally:
            # Stop the database even when stopping the children failed: Ctrl-C on
            # `make run | tee log` leaves nobody running it.
            try:
                self._stop_children(children, received[0] if received else signal.SIGTERM)
            finally:
                if stops_db:
                    self._stop_embedded_db()

    def say(self, text: str, *, error: bool = False) -> None:
        """Write a line of the shutdown log; a reader that went away never stops the shutdown.

        Ctrl-C on ``make run 2>&1 | tee log`` interrupts ``tee`` too, so the pipe is closed
        when serve reports what it stopped: the write fails with EPIPE (Python ignores
        SIGPIPE). That stream then goes to /dev/null, for the lines after this one and for
        the interpreter's last flush.
        """
        stream = self.stderr if error else self.stdout
        try:
            stream.write(text)
            stream.flush()
        except (BrokenPipeError, ValueError):  # ValueError: the stream was already closed
            target = sys.stderr if error else sys.stdout
            with contextlib.suppress(OSError, ValueError, AttributeError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, target.fileno())
                os.close(devnull)

    def _stop_children(self, children: list[ForkedChild], signum: int) -> None:
        """Forward the signal, wait within a bound, then kill each child's process group."""
        for child in children:
            if child.poll() is None:
                # gunicorn: SIGTERM is a graceful stop (WEB_GRACEFUL_TIMEOUT), SIGINT a quick
                # one; a cluster's sentinel stops on SIGTERM, within Q_STOP_TIMEOUT.
                child.send_signal(signum if child.name == "web" else signal.SIGTERM)
        deadline = time.monotonic() + float(settings.Q_STOP_TIMEOUT) + STOP_MARGIN_SECONDS
        for child in children:
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(f"{child.name} did not stop in time: killing it", error=True)
            # Whatever is left of its process tree (a worker orphaned by a crash) goes too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        self.say("Stopped the web server and the workers.")

    def _stop_embedded_db(self) -> None:
        """Stop the embedded server `make run` started (its children have exited)."""
        from django.db import connections

        from config import embedded_db

        connections.close_all()  # our own connection would hold up a fast shutdown
        if embedded_db.stop(settings.EMBEDDED_DB_DIR):
            self.say(f"Stopped the embedded PostgreSQL in {settings.EMBEDDED_DB_DIR}.")
