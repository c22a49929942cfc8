import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the django-q2 worker and the web server together; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--no-worker", action="store_true")

    def handle(self, *args, addr, no_worker, **options):
        python = sys.executable
        children: list[subprocess.Popen] = []
        if not no_worker:
            children.append(subprocess.Popen([python, "manage.py", "qcluster"]))
        web = [python, "manage.py", "runserver", addr, "--noreload"]
        if not settings.DEBUG:
            web.append("--insecure")  # serve the Swagger UI / admin static files
        children.append(subprocess.Popen(web))
        base = f"http://{addr}"
        self.stdout.write(
            "\n".join(
                [
                    "",
                    f"  Admin:        {base}/admin/",
                    f"  API docs:     {base}/api/docs/   (ReDoc: {base}/api/redoc/)",
                    f"  Health:       {base}/api/health",
                    f"  Activities:   {base}/staff/activities/",
                    f"  Writing:      {base}/staff/writing/",
                    "  Stop with Ctrl-C (the embedded database keeps running: make stop).",
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
