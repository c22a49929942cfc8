"""``manage.py serve`` (what ``make run`` starts): the web server and one worker cluster per queue.

Read top to bottom, :meth:`Command.handle` is the whole life of the service: refuse an
unmigrated database, collect the static files, load the application and everything the
processes share (serving/warmup.py), fork one django-q2 cluster per queue
(serving/clusters.py), then run gunicorn in this process (serving/web.py: its master forks the
web processes, each warms up before it accepts). Ctrl-C or SIGTERM stops gunicorn (graceful,
``WEB_GRACEFUL_TIMEOUT``), then the clusters (within ``Q_STOP_TIMEOUT`` + 2 s), then the
embedded database, unless --keep-db.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor

from config import embedded_db
from serving import clusters, warmup
from serving.web import WebServer


def unapplied_migrations(database: str = "default") -> list[str]:
    """Return ``app.name`` of each migration ``migrate`` would still apply on ``database``."""
    executor = MigrationExecutor(connections[database])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


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

    def handle(self, *args, addr, no_worker, no_web, keep_db, **options):
        if ":" not in addr:
            raise CommandError("--addr must be HOST:PORT")
        if no_worker and no_web:
            raise CommandError("--no-worker with --no-web leaves nothing to run")
        self.refuse_unapplied_migrations()
        application = None
        if not no_web:
            # WhiteNoise indexes STATIC_ROOT when the application is built: collect first.
            call_command("collectstatic", interactive=False, verbosity=0)
            # Imported here: importing config.wsgi builds the application, after collectstatic.
            from config.wsgi import application  # noqa: PLC0415
        warmup.preload()
        running: list[clusters.Cluster] = []
        stops_db = settings.USING_EMBEDDED_DB and not keep_db
        # gunicorn forks its web processes inside WebServer.run(), and each one leaves it by
        # SystemExit through this frame: only serve's own process stops what serve started.
        owner = os.getpid()
        try:
            if not no_worker:
                running = clusters.start()
                for cluster in running:
                    self.stdout.write(f"  Worker:       queue {cluster.queue!r}, pid {cluster.pid}")
            self.write_banner(addr, web=not no_web, stops_db=stops_db)
            if no_web:
                self.wait_for_a_signal(running)
            else:
                # gunicorn's master runs here and exits (SystemExit) once it has stopped.
                WebServer(application, bind=addr).run()
        finally:
            if os.getpid() == owner:
                self.shut_down(running, stops_db=stops_db)

    def shut_down(self, running: list[clusters.Cluster], *, stops_db: bool) -> None:
        """Stop the clusters, then the embedded database (serve's own process only)."""
        # Stop the database even when stopping the clusters failed: Ctrl-C on
        # `make run | tee log` leaves nobody running it.
        try:
            for queue in clusters.stop(running):
                self.say(f"worker {queue} did not stop in time: killed it", error=True)
            self.say("Stopped the web server and the workers.")
        finally:
            if stops_db:
                connections.close_all()  # our own connection would hold up a fast stop
                if embedded_db.stop(settings.EMBEDDED_DB_DIR):
                    self.say(f"Stopped the embedded PostgreSQL in {settings.EMBEDDED_DB_DIR}.")

    def refuse_unapplied_migrations(self) -> None:
        """Refuse to start on a database ``migrate`` would still change.

        Code that expects a column the database lacks would warm up, say ready and then answer
        500 to every search (runserver only warns).
        """
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

    def wait_for_a_signal(self, running: list[clusters.Cluster]) -> None:
        """Without a web server: wait for Ctrl-C, SIGTERM or a cluster that exits."""
        received: list[int] = []
        signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
        signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
        while not received and not any(cluster.exited() for cluster in running):
            time.sleep(0.3)

    def write_banner(self, addr: str, *, web: bool, stops_db: bool) -> None:
        base = f"http://{addr}"
        lines = [""]
        if web:
            lines += [
                f"  Web:          gunicorn (gthread), {settings.WEB_PROCESSES} process(es) x "
                f"{settings.WEB_THREADS} threads, pid {os.getpid()}",
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
