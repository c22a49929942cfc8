"""``config.threadpool.LifoThreadPool``: the request threads of the web processes."""

from __future__ import annotations

import threading
import time

import pytest

from config.threadpool import LifoThreadPool


def _thread_name() -> str:
    return threading.current_thread().name


def _run_all_at_once(pool: LifoThreadPool, count: int) -> list[str]:
    """Occupy ``count`` threads at the same time; return their names, in start order."""
    barrier = threading.Barrier(count)

    def hold():
        barrier.wait(5)
        return _thread_name()

    return [f.result(5) for f in [pool.submit(hold) for _ in range(count)]]


@pytest.fixture
def pool():
    """A pool of four threads, shut down after the test."""
    executor = LifoThreadPool(4)
    yield executor
    executor.shutdown(wait=True)


def test_the_thread_that_finished_last_takes_the_next_job(pool):
    gates = [threading.Event() for _ in range(4)]
    started = threading.Barrier(5)

    def hold(gate):
        started.wait(5)
        gate.wait(5)
        return _thread_name()

    running = [pool.submit(hold, gate) for gate in gates]
    started.wait(5)  # four threads, each in its own job
    names = []
    for i in (0, 1, 3, 2):  # the thread of job 2 finishes last
        gates[i].set()
        names.append(running[i].result(5))
    assert pool.submit(_thread_name).result(5) == names[-1]


# A job's result is handed over just before its thread goes back to idle: a job submitted in
# between finds another thread (as a request arriving in that instant would). Sequential
# jobs are this far apart, as requests a user sends one after another are.
SETTLE_SECONDS = 0.05


def test_sequential_jobs_all_run_on_one_thread(pool):
    _run_all_at_once(pool, 4)  # every thread started and idle
    names = set()
    for _ in range(10):
        time.sleep(SETTLE_SECONDS)
        names.add(pool.submit(_thread_name).result(5))
    assert len(names) == 1


def test_a_round_robin_pool_would_spread_the_same_jobs(pool):
    # The behaviour replaced: the standard pool hands sequential jobs to several threads.
    from concurrent.futures import ThreadPoolExecutor

    standard = ThreadPoolExecutor(4)
    try:
        _run_all_at_once(standard, 4)
        names = {standard.submit(_thread_name).result(5) for _ in range(30)}
    finally:
        standard.shutdown(wait=True)
    assert len(names) > 1


def test_no_more_threads_than_max_workers_and_the_backlog_runs_in_order(pool):
    release = threading.Event()
    order: list[int] = []

    def wait():
        release.wait(5)
        return _thread_name()

    def note(i):
        order.append(i)
        return _thread_name()

    busy = [pool.submit(wait) for _ in range(4)]
    queued = [pool.submit(note, i) for i in range(6)]
    time.sleep(0.05)
    assert order == []  # all four threads are busy: the six jobs wait
    release.set()
    names = {future.result(5) for future in busy + queued}
    assert sorted(order) == list(range(6))
    assert len(names) == 4


def test_an_exception_reaches_the_callers_future_and_the_thread_lives_on(pool):
    def fail():
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        pool.submit(fail).result(5)
    assert pool.submit(lambda: 42).result(5) == 42


def test_a_cancelled_job_never_runs(pool):
    release = threading.Event()
    ran = threading.Event()
    busy = [pool.submit(release.wait, 5) for _ in range(4)]
    waiting = pool.submit(ran.set)
    assert waiting.cancel()
    release.set()
    for future in busy:
        future.result(5)
    assert pool.submit(lambda: "after").result(5) == "after"
    assert not ran.is_set()


def test_shutdown_ends_idle_threads_and_refuses_new_jobs():
    executor = LifoThreadPool(3, thread_name_prefix="shutdown-test")
    names = set(_run_all_at_once(executor, 3))
    executor.shutdown(wait=True)
    assert not any(t.is_alive() for t in threading.enumerate() if t.name in names)
    with pytest.raises(RuntimeError):
        executor.submit(_thread_name)


def test_shutdown_lets_a_busy_thread_finish_its_job():
    executor = LifoThreadPool(2)
    release = threading.Event()
    busy = executor.submit(lambda: release.wait(5) and "finished")
    executor.shutdown(wait=False)
    release.set()
    assert busy.result(5) == "finished"
