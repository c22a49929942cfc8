"""Stream generated rows into PostgreSQL with COPY, and report the process's peak memory.

A benchmark at a million rows must not hold them all: it generates a batch, writes it with one
``COPY`` and drops it, so its memory stays that of one batch (issue 34: the old set-up of 1M
activities held about 17 GB while it built every row first).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Iterable, Iterator
from itertools import islice


def peak_rss_mb() -> float:
    """Return this process's peak resident memory so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def batches(items: Iterable, size: int) -> Iterator[list]:
    """Yield lists of at most ``size`` items, consuming ``items`` lazily."""
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def copy_columns(model) -> list:
    """Return the concrete fields ``copy_rows`` writes: all but an automatic primary key."""
    pk = model._meta.pk
    auto = pk.get_internal_type() in ("AutoField", "BigAutoField", "SmallAutoField")
    return [f for f in model._meta.concrete_fields if not (auto and f is pk)]


def copy_rows(model, rows: Iterable) -> int:
    """Write unsaved model instances with ``COPY ... FROM STDIN``; return how many.

    Each value goes through the field as ``bulk_create`` would send it (``pre_save`` fills
    ``auto_now_add``; ``get_db_prep_save`` adapts JSON and vectors), so the rows are the same.
    """
    from django.db import connection

    fields = copy_columns(model)
    qn = connection.ops.quote_name
    sql = f"COPY {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) FROM STDIN"
    count = 0
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(
                [f.get_db_prep_save(f.pre_save(row, add=True), connection) for f in fields]
            )
            count += 1
    return count


class Stopwatch:
    """Seconds spent in named phases of a set-up (load, index build ...)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def phase(self, name: str) -> _Phase:
        return _Phase(self, name)


class _Phase:
    def __init__(self, watch: Stopwatch, name: str) -> None:
        self.watch, self.name = watch, name

    def __enter__(self) -> _Phase:
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        spent = time.perf_counter() - self.started
        self.watch.seconds[self.name] = self.watch.seconds.get(self.name, 0.0) + spent
