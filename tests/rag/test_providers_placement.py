"""Where the local model's OpenMP threads run (rag/providers/placement.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rag.providers.placement import TeamPlacement, omp_helpers

ROOT = Path(__file__).resolve().parents[2]
TWO_CPUS = hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) >= 2

# Run in a process of its own: libgomp's helper threads are made once per process, by the
# first call on two threads, and only a process that has not made them yet can be watched
# making them.
SCRIPT = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
from rag.providers import local

provider = local.LocalE5Provider(num_threads=2, pin_threads=sys.argv[2] == "1")

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


def run_engine(pin: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "OMP_PROC_BIND")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT), "1" if pin else "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_a_call_on_two_threads_runs_them_on_two_cpus():
    seen = run_engine(pin=True)

    engine, helpers = seen["two"]["engine"], seen["two"]["helpers"]
    assert len(engine) == 1
    assert len(helpers) == 1 and len(helpers[0]) == 1
    assert helpers[0] != engine


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_a_query_on_one_thread_frees_the_engine_thread_and_counts_every_cpu():
    seen = run_engine(pin=True)

    assert seen["one_threads"] == 1
    assert seen["one"]["engine"] == seen["process"]
    # The helper keeps its CPU: it sleeps until the next call on two threads.
    assert seen["one"]["helpers"] == seen["two"]["helpers"]


@pytest.mark.skipif(not TWO_CPUS, reason="needs two CPUs")
def test_placement_can_be_turned_off():
    seen = run_engine(pin=False)

    assert seen["two"]["engine"] == seen["process"]
    assert seen["two"]["helpers"] == []


def test_helpers_are_the_new_threads_that_python_did_not_start():
    assert omp_helpers({1, 2}, {1, 2, 3, 4, 5}, python={4}) == [3, 5]


@pytest.mark.parametrize("name", ["OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY"])
def test_libgomp_placing_its_threads_itself_turns_placement_off(monkeypatch, name):
    monkeypatch.setenv(name, "true")

    assert not TeamPlacement(enabled=True).enabled


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
