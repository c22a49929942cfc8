import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from rag.queues import BULK, QUEUES, cluster_config

# serve waits this much longer than a cluster's own stop budget before it kills what is left.
STOP_MARGIN_SECONDS = 2.0


PR_SET_PDEATHSIG = 1


def _child_setup(nice: int):
    """Return a pre-exec hook: lower the priority, and get SIGTERM if serve itself dies."""

    def setup():
        if nice:
            os.nice(nice)
        # Linux: a serve killed by SIGKILL still stops its children (gracefully) this way.
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    return setup


class Command(BaseCommand):
    help = (
        "Run one django-q2 cluster per queue (interactive, bulk) and the web server; Ctrl-C or "
        "SIGTERM stops them all (and the embedded database, unless --keep-db)."
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

    def _start_clusters(self, python: str) -> list[tuple[str, subprocess.Popen]]:
        children = []
        for queue in QUEUES:
            env = {**os.environ, "Q_CLUSTER_NAME": queue}
            # The local model's OpenMP threads would spin while idle and take the CPU the
            # other processes need (libgomp reads this once, at model load).
            env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            nice = settings.Q_BULK_NICE if queue == BULK else 0
            process = subprocess.Popen(
                [python, "manage.py", "qcluster"],
                env=env,
                # Own process group: Ctrl-C reaches serve alone, which stops each child in
                # order, and a child left over can be killed with its whole tree.
                start_new_session=True,
                preexec_fn=_child_setup(nice),
            )
            workers = cluster_config(queue)["workers"]
            self.stdout.write(
                f"  Worker:       queue {queue!r}, {workers} worker(s)"
                + (f", nice {nice}" if nice else "")
                + f", pid {process.pid}"
            )
            children.append((f"worker {queue}", process))
        return children

    def handle(self, *args, addr, no_worker, no_web, keep_db, **options):
        python = sys.executable
        children: list[tuple[str, subprocess.Popen]] = []
        if not no_worker:
            children += self._start_clusters(python)
        if not no_web:
            web = [python, "manage.py", "runserver", addr, "--noreload"]
            if not settings.DEBUG:
                web.append("--insecure")  # serve the Swagger UI / admin static files
            children.append(
                ("web", subprocess.Popen(web, start_new_session=True, preexec_fn=_child_setup(0)))
            )
        base = f"http://{addr}"
        stops_db = settings.USING_EMBEDDED_DB and not keep_db
        lines = [""]
        if not no_web:
            lines += [
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
            while not received and all(c.poll() is None for _, c in children):
                time.sleep(0.3)
        finally:
            self._stop_children(children, received[0] if received else signal.SIGTERM)
        if stops_db:
            self._stop_embedded_db()

    def _stop_children(self, children, signum: int) -> None:
        """Forward the signal, wait within a bound, then kill each child's process group."""
        for _, child in children:
            if child.poll() is None:
                # runserver stops on SIGINT (KeyboardInterrupt); qcluster on either.
                child.send_signal(signal.SIGINT if signum == signal.SIGINT else signal.SIGTERM)
        deadline = time.monotonic() + float(settings.Q_STOP_TIMEOUT) + STOP_MARGIN_SECONDS
        for name, child in children:
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.stderr.write(f"{name} did not stop in time: killing it")
            # Whatever is left of its process tree (a worker orphaned by a crash) goes too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        self.stdout.write("Stopped the web server and the workers.")

    def _stop_embedded_db(self) -> None:
        """Stop the embedded server `make run` started (its children have exited)."""
        from django.db import connections

        from config import embedded_db

        connections.close_all()  # our own connection would hold up a fast shutdown
        if embedded_db.stop(settings.EMBEDDED_DB_DIR):
            self.stdout.write(f"Stopped the embedded PostgreSQL in {settings.EMBEDDED_DB_DIR}.")
