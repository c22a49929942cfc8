"""The web processes' request threads: the thread that finished last takes the next request.

gunicorn's gthread worker hands each request to a ``ThreadPoolExecutor``, whose idle threads
all wait on one queue: requests go round the 16 threads of a process, and so round their 16
database connections. Each connection is a PostgreSQL backend with caches of its own (the
catalog entries and plans a search needs), so a backend that has served few requests answers
its next one slower: measured on the 100k-activity benchmark, searches sent round 32
connections had a p95 5 to 10 ms above the same searches on one connection.

:class:`LifoThreadPool` keeps its idle threads on a stack instead: the thread that finished last
(its connection and CPU caches warm) takes the next request, and a thread that has been idle a
long time is used only when the others are busy. Nothing waits while a thread is idle, so the
order changes which thread runs a request, never when it starts.
"""

from __future__ import annotations

import collections
import threading
from concurrent import futures


class _Slot:
    """One thread of the pool: the job handed to it and the event that wakes it."""

    __slots__ = ("event", "job")

    def __init__(self, job):
        self.job = job
        self.event = threading.Event()


class LifoThreadPool(futures.Executor):
    """A fixed-size thread pool whose most recently idle thread runs the next job.

    Threads start on demand, up to ``max_workers``; jobs submitted while all are busy wait in
    arrival order. The threads are daemons: a stopping gunicorn worker has already waited its
    graceful timeout for its requests, and must not hang on a thread still in one.
    """

    def __init__(self, max_workers: int, thread_name_prefix: str = "request"):
        if max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        self._max_workers = max_workers
        self._prefix = thread_name_prefix
        self._lock = threading.Lock()
        self._idle: list[_Slot] = []  # a stack: the last one pushed is the warmest
        self._backlog: collections.deque = collections.deque()
        self._threads: list[threading.Thread] = []
        self._shutdown = False

    def submit(self, fn, /, *args, **kwargs) -> futures.Future:
        """Run ``fn(*args, **kwargs)`` on the most recently idle thread (or a new one)."""
        future: futures.Future = futures.Future()
        job = (future, fn, args, kwargs)
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if self._idle:
                slot = self._idle.pop()
                slot.job = job
                slot.event.set()
            elif len(self._threads) < self._max_workers:
                slot = _Slot(job)
                thread = threading.Thread(
                    target=self._work,
                    args=(slot,),
                    name=f"{self._prefix}_{len(self._threads)}",
                    daemon=True,
                )
                self._threads.append(thread)
                thread.start()
            else:
                self._backlog.append(job)
        return future

    def _work(self, slot: _Slot) -> None:
        """Run the slot's jobs, then the backlog's, then wait on the idle stack for more."""
        while True:
            job, slot.job = slot.job, None
            if job is None:  # woken by shutdown
                return
            future, fn, args, kwargs = job
            if future.set_running_or_notify_cancel():
                try:
                    result = fn(*args, **kwargs)
                except BaseException as exc:  # noqa: BLE001 - handed to the caller's future
                    future.set_exception(exc)
                else:
                    future.set_result(result)
            del job, future, fn, args, kwargs  # no reference kept while idle
            with self._lock:
                if self._backlog:
                    slot.job = self._backlog.popleft()
                    continue
                if self._shutdown:
                    return
                slot.event.clear()
                self._idle.append(slot)
            slot.event.wait()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking jobs; let idle threads end, and busy ones after their job."""
        with self._lock:
            self._shutdown = True
            if cancel_futures:
                while self._backlog:
                    self._backlog.popleft()[0].cancel()
            for slot in self._idle:
                slot.job = None
                slot.event.set()
            self._idle.clear()
            threads = list(self._threads)
        if wait:
            for thread in threads:
                if thread is not threading.current_thread():
                    thread.join()
