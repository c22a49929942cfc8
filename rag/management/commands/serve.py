import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Run the django-q2 worker and the web server together; Ctrl-C stops both and the "
        "embedded database (unless --keep-db)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--no-worker", action="store_true")
        parser.add_argument(
            "--keep-db",
            action="store_true",
            help="leave the embedded PostgreSQL running on exit (stop it later with make stop)",
        )

    def handle(self, *args, addr, no_worker, keep_db, **options):
        python = sys.executable
        children: list[subprocess.Popen] = []
        if not no_worker:
            children.append(subprocess.Popen([python, "manage.py", "qcluster"]))
        web = [python, "manage.py", "runserver", addr, "--noreload"]
        if not settings.DEBUG:
            web.append("--insecure")  # serve the Swagger UI / admin static files
        children.append(subprocess.Popen(web))
        base = f"http://{addr}"
        stops_db = settings.USING_EMBEDDED_DB and not keep_db
        self.stdout.write(
            "\n".join(
                [
                    "",
                    f"  Admin:        {base}/admin/",
                    f"  API docs:     {base}/api/docs/   (ReDoc: {base}/api/redoc/)",
                    f"  Health:       {base}/api/health",
                    f"  Activities:   {base}/staff/activities/",
                    f"  Writing:      {base}/staff/writing/",
                    "  Stop with Ctrl-C (it stops the worker, the web server"
                    + (" and the embedded database)." if stops_db else ")."),
                    "",
                ]
            )
        )
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping and all(c.poll() is None for c in children):
                time.sleep(0.3)
        finally:
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGINT)
            deadline = time.monotonic() + 10
            for child in children:
                try:
                    child.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
        self.stdout.write("Stopped the web server and the worker.")
        if stops_db:
            self._stop_embedded_db()

    def _stop_embedded_db(self) -> None:
        """Stop the embedded server `make run` started (its children have exited)."""
        from django.db import connections

        from config import embedded_db

        connections.close_all()  # our own connection would hold up a fast shutdown
        if embedded_db.stop(settings.EMBEDDED_DB_DIR):
            self.stdout.write(f"Stopped the embedded PostgreSQL in {settings.EMBEDDED_DB_DIR}.")
