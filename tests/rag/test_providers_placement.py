"""Where the local model's OpenMP threads run (rag/providers/placement.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rag.providers import placement
from rag.providers.placement import LIBGOMP_PLACEMENT, TeamPlacement, omp_helpers

# Starts the model in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

ROOT = Path(__file__).resolve().parents[2]
TWO_CPUS = hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2

# Run in a process of its own: libgomp's helper threads are made once per process, by the
# first call on two threads, and only a process that has not made them yet can be watched
# making them.
SCRIPT = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
from rag.providers import local

provider = local.LocalE5Provider(pin_threads=sys.argv[2] == "1")  # a thread per CPU

def affinities():
    team = local._team
    return {
        "engine": sorted(os.sched_getaffinity(0)),
        "helpers": [sorted(os.sched_getaffinity(tid)) for tid in team.helpers],
    }

out = {}
provider.embed(["周末一起去郊外爬山"], "passage")  # makes the helpers, which are then placed
provider.embed(["周末一起去郊外爬山", "a quiet board game night"], "passage")
out["two"] = local._engine_thread.run(affinities)
local._runnable_threads = lambda: 99  # a busy machine: the next query runs on one thread
provider.embed(["爬山"], "query")
out["one"] = local._engine_thread.run(affinities)
out["one_threads"] = local._omp_threads
out["process"] = sorted(os.sched_getaffinity(os.getpid()))
print(json.dumps(out))
"""

# A new process warmed up on a busy machine, as a web process is while the others start.
WARM_SCRIPT = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
from rag.providers import local

local._runnable_threads = lambda: 99  # every query would get one thread
local.LocalE5Provider().warm("周末一起去郊外爬山")
team = local._team
print(json.dumps({
    "threads": local._omp_threads,
    "engine": local._engine_thread.run(lambda: sorted(os.sched_getaffinity(0))),
    "helpers": [sorted(os.sched_getaffinity(tid)) for tid in team.helpers],
    "process": sorted(os.sched_getaffinity(os.getpid())),
}))
"""


def run_engine(pin: bool, script: str = SCRIPT) -> dict:
    """Run ``script`` in a new process; return what it saw."""
    unset = ("OMP_NUM_THREADS", *LIBGOMP_PLACEMENT)
    env = {k: v for k, v in os.environ.items() if k not in unset}
    done = subprocess.run(
        [sys.executable, "-c", script, str(ROOT), "1" if pin else "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def placed():
    """What a new process with placement on saw (run once for the module: it loads the model)."""
    return run_engine(pin=True)


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_a_call_on_every_cpu_runs_each_thread_on_a_cpu_of_its_own(placed):
    engine, helpers = placed["two"]["engine"], placed["two"]["helpers"]

    assert len(engine) == 1
    assert len(helpers) == len(placed["process"]) - 1
    assert all(len(cpus) == 1 for cpus in helpers)
    assert sorted(engine + [cpu for cpus in helpers for cpu in cpus]) == placed["process"]


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_a_query_on_one_thread_frees_the_engine_thread_and_counts_every_cpu(placed):
    seen = placed

    assert seen["one_threads"] == 1
    assert seen["one"]["engine"] == seen["process"]
    # The helper keeps its CPU: it sleeps until the next call on two threads.
    assert seen["one"]["helpers"] == seen["two"]["helpers"]


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_a_warm_up_on_a_busy_machine_leaves_the_whole_team_made_and_placed():
    # Else the first request on a quiet machine makes the helpers (measured: 23 ms against 11).
    seen = run_engine(pin=True, script=WARM_SCRIPT)

    assert seen["threads"] == len(seen["process"])
    assert len(seen["engine"]) == 1
    assert len(seen["helpers"]) == len(seen["process"]) - 1


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_placement_can_be_turned_off():
    seen = run_engine(pin=False)

    assert seen["two"]["engine"] == seen["process"]
    assert seen["two"]["helpers"] == []


def test_helpers_are_the_new_threads_that_python_did_not_start():
    assert omp_helpers({1, 2}, {1, 2, 3, 4, 5}, python={4}) == [3, 5]


@pytest.mark.parametrize("name", LIBGOMP_PLACEMENT)
def test_libgomp_placing_its_threads_itself_turns_placement_off(monkeypatch, name):
    monkeypatch.setenv(name, "true")

    assert not TeamPlacement(enabled=True).enabled


def test_omp_proc_bind_false_leaves_placement_on(monkeypatch):
    for name in LIBGOMP_PLACEMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_PROC_BIND", "false")

    assert TeamPlacement(enabled=True).enabled


@pytest.fixture
def fake_threads(monkeypatch):
    """Fake a process on CPUs {0, 1}: its thread ids, and every sched_setaffinity call."""
    for name in LIBGOMP_PLACEMENT:
        monkeypatch.delenv(name, raising=False)
    state = {"tasks": {100}, "python": {100}, "set": []}
    monkeypatch.setattr(placement, "_task_ids", lambda: set(state["tasks"]))
    monkeypatch.setattr(placement, "_python_thread_ids", lambda: set(state["python"]))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "sched_setaffinity", lambda tid, cpus: state["set"].append((tid, cpus)))
    return state


def test_new_threads_that_do_not_make_the_team_turn_placement_off(fake_threads):
    team = TeamPlacement(enabled=True)
    before = team.before_call(2)
    fake_threads["tasks"] |= {201, 202}  # two new threads for a team of two: one is not a helper

    team.after_call(before)

    assert not team.enabled
    assert fake_threads["set"] == []


def test_a_team_of_another_size_gives_every_cpu_back_and_stops(fake_threads):
    team = TeamPlacement(enabled=True)
    before = team.before_call(2)
    fake_threads["tasks"].add(201)
    team.after_call(before)
    team.before_call(2)  # holds the engine thread
    assert fake_threads["set"] == [(201, {1}), (0, {0})]

    assert team.before_call(3) is None

    assert not team.enabled
    assert fake_threads["set"][-2:] == [(0, {0, 1}), (201, {0, 1})]


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_most_threads_counts_the_process_cpus_from_a_thread_held_on_one(monkeypatch):
    from rag.providers.local import most_threads

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    seen = []

    def held():
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        seen.append(most_threads(None))

    thread = threading.Thread(target=held)
    thread.start()
    thread.join()

    assert seen == [len(os.sched_getaffinity(os.getpid()))]
