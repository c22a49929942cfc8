"""Run the local model's OpenMP team on distinct CPUs: the engine thread on one, each helper
on another.

Why: libgomp leaves its threads to the scheduler, which often wakes a helper on the CPU its
engine thread is running on; the two then take turns at each of the model's ~100 barriers
per query. Measured here (2026-11-24, 2 CPUs, LoCoMo questions, 12 ms between queries as a
search's SQL leaves): a query in one process, 14.1 ms p50 / 19.0 p95; the same queries sent to
two processes in turn, as two web processes take them, 22.6 / 37.2, and 14.1 / 18.4 with the
team placed by this module (on one thread each, 25 ms, in turn or not). Over HTTP, two web
processes, the engine call itself: 15.8 / 26.9 ms before (measured by hand; docs/SERVING.md).

Only a team of one thread per CPU of the process is placed (the default): a smaller team held
on fixed CPUs would leave the others idle for every process. Anything unexpected (a failed
``sched_setaffinity``, helpers that cannot be told apart, a team of another size) turns
placement off for the process and gives every thread placed back all the CPUs.

``OMP_PROC_BIND`` would place the team too, but libgomp then also binds the process's main
thread at load, and every thread created after it (gunicorn's request threads) inherits that
one CPU. Here only the engine thread and libgomp's own threads are placed, by thread id.

Everything runs on the engine thread (``rag.providers.local.EngineThread``), the only thread
that opens parallel regions, so the module state needs no lock. A query run on one thread (a
busy machine, ``_fit_threads``) frees the engine thread to go to any CPU again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading

logger = logging.getLogger(__name__)

__all__ = ["TeamPlacement", "omp_helpers", "process_cpus"]

# Environment variables with which libgomp places its threads itself: then this module does not.
LIBGOMP_PLACEMENT = ("OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY")


def process_cpus() -> list[int]:
    """Return the CPUs of this process, as its main thread has them, in order.

    Not the calling thread's: the engine thread may be held on one CPU.
    """
    return sorted(os.sched_getaffinity(os.getpid()))


def _task_ids() -> set[int]:
    """Return the thread ids of this process (empty where /proc cannot be read)."""
    try:
        return {int(name) for name in os.listdir("/proc/self/task")}
    except (OSError, ValueError):
        return set()


def omp_helpers(before: set[int], after: set[int], python: set[int]) -> list[int]:
    """Return the threads that appeared between ``before`` and ``after`` and are not Python's.

    The engine thread's first parallel region of a given size creates libgomp's helper
    threads; another Python thread started meanwhile (a request thread) is left out.
    """
    return sorted(after - before - python)


def _python_thread_ids() -> set[int]:
    """Return the thread ids of the Python threads of this process that have one yet."""
    return {t.native_id for t in threading.enumerate() if t.native_id is not None}


class TeamPlacement:
    """Where the engine thread and its OpenMP helpers run. One per process (fork: a new one).

    A call on one thread per CPU holds the engine thread on the process's first CPU and each
    helper on one of the next ones, the same CPUs every time (each core's cache keeps the rows
    of the weights its thread computes); the engine thread stays held between such calls. A
    call on one thread lets the engine thread go anywhere again.
    """

    def __init__(self, *, enabled: bool = True):
        placed_by_libgomp = any(
            os.environ.get(name, "").strip().lower() not in ("", "false")
            for name in LIBGOMP_PLACEMENT
        )
        self.enabled = enabled and hasattr(os, "sched_setaffinity") and not placed_by_libgomp
        self.helpers: list[int] = []
        self.cpus: list[int] = []  # the process's CPUs when the helpers were placed
        self.engine_held = False

    def before_call(self, threads: int | None) -> set[int] | None:
        """Place the team for a call on ``threads`` threads (None: libgomp's choice).

        Return this process's thread ids when the call will create the helpers (pass them to
        :meth:`after_call`), else None.
        """
        if not self.enabled:
            return None
        team = threads or 0
        if team > 1 and self.helpers and team != len(self.helpers) + 1:
            # libgomp ends the helpers of a team that shrinks and starts new ones: stop here.
            self._give_up(f"the team changed from {len(self.helpers) + 1} to {team} threads")
            return None
        try:
            if team > 1 and self.helpers:
                if not self.engine_held:
                    os.sched_setaffinity(0, {self.cpus[0]})  # 0: this thread, the engine's
                    self.engine_held = True
                return None
            if self.engine_held:  # one thread: free to go where the load is
                os.sched_setaffinity(0, set(self.cpus))
                self.engine_held = False
        except OSError as exc:  # a CPU set the container refuses
            self._give_up(f"engine thread: {exc}")
            return None
        return _task_ids() if team > 1 else None

    def after_call(self, before: set[int] | None) -> None:
        """Place the helpers the call just created (``before``: from :meth:`before_call`)."""
        if before is None or not self.enabled:
            return
        new = omp_helpers(before, _task_ids(), _python_thread_ids())
        cpus = process_cpus()
        if len(new) + 1 != len(cpus):
            # Helpers made earlier (not seen), a Python thread without its id yet, or a team
            # smaller than the CPUs (held on fixed CPUs, it would leave the others idle).
            self._give_up(f"{len(new)} new threads for a team on {len(cpus)} CPUs")
            return
        self.cpus = cpus
        self.helpers = new
        try:
            for tid, cpu in zip(new, cpus[1:], strict=True):
                os.sched_setaffinity(tid, {cpu})
        except OSError as exc:  # a thread gone, or a CPU set the container refuses
            self._give_up(f"helpers: {exc}")

    def _give_up(self, why: str) -> None:
        """Turn placement off for this process and give every thread placed all the CPUs."""
        logger.info("embedding: OpenMP threads not placed (%s)", why)
        self.enabled = False
        everywhere = set(self.cpus or process_cpus())
        for tid in [0, *self.helpers] if self.engine_held else self.helpers:
            with contextlib.suppress(OSError):  # a thread gone: nothing to give back
                os.sched_setaffinity(tid, everywhere)
        self.engine_held = False
        self.helpers = []
