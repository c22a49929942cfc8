"""Shared helpers for the benchmark scripts: Django set-up, timing, and report writing.

Each script prints its figures and replaces its own section of docs/BENCHMARKS.md
(between ``<!-- BEGIN key -->`` and ``<!-- END key -->``), with the command that
produced it and the machine it ran on.
"""

from __future__ import annotations

import fcntl
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "docs" / "BENCHMARKS.md"
DEFAULT_DATASETS = ROOT.parent / "shared" / "datasets"


def use_development_secret_key() -> None:
    """Give the production settings the development machine's key file (as ``make run`` does)
    unless a key is configured: a benchmark runs with DEBUG off, which requires one."""
    if os.environ.get("DJANGO_SECRET_KEY") or os.environ.get("DJANGO_SECRET_KEY_FILE"):
        return
    from config.secret_key import ensure_secret_key_file

    path = ROOT / ".runtime" / "secret_key"
    ensure_secret_key_file(path)
    os.environ["DJANGO_SECRET_KEY_FILE"] = str(path)


# Rates high enough that no benchmark client is throttled (config/settings.py reads these).
UNTHROTTLED_RATE = "1000000/min"
THROTTLE_SCOPES = ("USER", "ANON", "SEARCH", "CHAT", "STREAM", "EXPORT")


def lift_api_throttles() -> list[str]:
    """Set every ``API_THROTTLE_*`` rate this process (and a child it starts, such as
    ``manage.py serve``) reads to :data:`UNTHROTTLED_RATE`, unless the variable is already set.

    A benchmark asks far more than a client is allowed per minute (search: 120/min); a 429
    would stop the run or slow the figures. Return the variables set, for the report.
    """
    lifted = []
    for scope in THROTTLE_SCOPES:
        name = f"API_THROTTLE_{scope}"
        if name not in os.environ:
            os.environ[name] = UNTHROTTLED_RATE
            lifted.append(name)
    return lifted


def every_kth(items: list, k: int) -> list:
    """Return items 0, k, 2k, ... (a fixed deterministic subsample; k <= 1 keeps all)."""
    return list(items[:: max(1, k)])


def setup_django(settings_module: str = "config.settings", *, migrate: bool = False) -> None:
    """Make the project importable and configure Django; optionally migrate its database."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    use_development_secret_key()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", settings_module)
    from config import embedded_db

    # As manage.py does: the settings only read where the embedded server listens.
    embedded_db.ensure_started()
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)


def bench_database_url(db_name: str, explicit: str | None = None) -> str:
    """Return the URL of a benchmark's own database, creating it when missing.

    ``explicit`` wins as it is. Otherwise the database lives next to the development one: on
    the server of ``DATABASE_URL`` when set, else on the embedded server (started if needed).
    """
    if explicit:
        return explicit
    from urllib.parse import urlsplit, urlunsplit

    base = os.environ.get("DATABASE_URL")
    if not base:
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        from config import embedded_db

        # As the settings start it for `make run`: on EMBEDDED_DB_DIR (without it, a checkout
        # other than the one holding the data would start an empty server of its own), with
        # the same buffer cache.
        base = embedded_db.start(
            embedded_db.data_dir(), shared_buffers=embedded_db.configured_shared_buffers()
        )
    import psycopg

    parts = urlsplit(base)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db_name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{db_name}"')
    return urlunsplit(parts._replace(path=f"/{db_name}"))


def machine() -> str:
    """Describe this machine in one line."""
    try:
        with open("/proc/cpuinfo") as fh:
            model = next(
                (ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), "?"
            )
    except OSError:
        model = platform.processor() or "?"
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{os.cpu_count()} cores ({model}), {mem_gib:.0f} GiB RAM, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def cpu_probe_ms(repeats: int = 7) -> float:
    """Return the median milliseconds of a fixed pure-Python loop on this machine, now.

    This VM shares its host: the same build measured 20-50% slower in some hours. A section
    states the probe with its figures, so runs of different hours can be compared (higher
    means a slower moment).
    """
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        total = 0
        for i in range(300_000):
            total += i * i % 7
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def spin_note() -> str:
    """Say which OpenMP spin the model ran with (runs before 2026-11-24 set 10,000 themselves)."""
    from rag.providers.local import OPENMP_SPIN_COUNT

    spin = os.environ.get("GOMP_SPINCOUNT", OPENMP_SPIN_COUNT)
    shipped = "the service's default" if spin == OPENMP_SPIN_COUNT else "NOT the default"
    return f"GOMP_SPINCOUNT {spin}, {shipped}"


def percentile(values: list[float], p: float) -> float:
    """Return the p-th percentile (0-100) by linear interpolation."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * p / 100.0
    lo, hi = int(pos), min(int(pos) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


class Timer:
    """Context manager measuring wall-clock seconds into ``.seconds``."""

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start


class SqlTimer:
    """A connection execute wrapper adding up the seconds and the number of SQL queries.

    ``with connection.execute_wrapper(timer): ...``; :meth:`reset` between measurements.
    """

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self.seconds = 0.0
        self.queries = 0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.queries += 1


def load_average() -> str:
    """Return the 1, 5 and 15 minute load averages, as the kernel counts them."""
    try:
        return ", ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def write_section(key: str, title: str, body_markdown: str) -> None:
    """Replace (or append) this benchmark's section of docs/BENCHMARKS.md."""
    REPORT.parent.mkdir(exist_ok=True)
    command = "python " + " ".join([os.path.relpath(sys.argv[0], ROOT)] + list(sys.argv[1:]))
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    section = (
        f"<!-- BEGIN {key} -->\n## {title}\n\n"
        f"Command: `{command}`  \nMachine: {machine()}  \nRun: {stamp}  \n"
        f"CPU probe: {cpu_probe_ms():.1f} ms (bench/_common.py `cpu_probe_ms`: a fixed loop; "
        "higher means a slower hour of this shared VM)  \n"
        f"Load average at the end (1, 5, 15 min): {load_average()}; the machine may have been "
        "shared with other work\n\n"
        f"{body_markdown.strip()}\n<!-- END {key} -->\n"
    )
    lock_path = REPORT.with_suffix(".lock")
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        text = REPORT.read_text() if REPORT.exists() else "# Benchmarks\n\n"
        begin, end = f"<!-- BEGIN {key} -->", f"<!-- END {key} -->"
        if begin in text and end in text:
            head, rest = text.split(begin, 1)
            _, tail = rest.split(end, 1)
            text = head + section.rstrip("\n") + tail
        else:
            text = text.rstrip("\n") + "\n\n" + section
        REPORT.write_text(text)
    print(section)


def markdown_table(headers: list[str], rows: list[list]) -> str:
    """Render a Markdown table."""
    fmt = lambda v: f"{v:.3f}" if isinstance(v, float) else str(v)  # noqa: E731
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
