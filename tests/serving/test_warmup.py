"""How a process of ``manage.py serve`` warms up (serving/warmup.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent import router
from rag import llm
from rag import warmup as registry
from serving import warmup

ROOT = Path(__file__).resolve().parents[2]


def _in_fresh_process(code: str) -> str:
    """Run ``code`` in a new Python process with the test settings; return its last line.

    The process uses the real local model (``TEST_EMBEDDING=real``): warming up is loading and
    running it.
    """
    script = (
        "import django, os\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings_test')\n"
        "os.environ['TEST_EMBEDDING'] = 'real'\n"
        "django.setup()\n" + code
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
@pytest.mark.real_clock
def test_a_fresh_process_is_not_ready_until_it_warms_up():
    code = (
        "from rag.warmup import is_ready\n"
        "from serving.warmup import warm_up\n"
        "before = is_ready()\n"
        "warm_up()\n"
        "print(before, is_ready())\n"
    )
    assert _in_fresh_process(code) == "False True"


@pytest.mark.slow
@pytest.mark.real_clock
def test_preload_loads_the_model_that_forked_children_share_and_run():
    # The forking process loads the model but must not run it: OpenMP would hang in its
    # children. Each child runs its own first embedding (a hang would fail the timeout).
    code = (
        "import os\n"
        "from rag import text\n"
        "from rag.embeddings import get_provider\n"
        "from rag.providers import local\n"
        "from serving.warmup import preload\n"
        "preload()\n"
        "loaded = text.is_loaded() and local._e5_model is not None and not local.engine_ran()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    get_provider().embed(['周末爬山'], role='query')\n"
        "    os._exit(0 if local.engine_ran() else 3)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(loaded, os.waitstatus_to_exitcode(status))\n"
    )
    assert _in_fresh_process(code) == "True 0"


@pytest.mark.slow
@pytest.mark.real_clock
def test_preload_leaves_numpy_nothing_to_import_after_the_fork():
    # numpy imports numpy.ma on first use of np.unique (np.ma.is_masked): imported after the
    # fork, each process that searched or chunked held its own copy (6.5 MiB).
    code = (
        "import sys\n"
        "import numpy as np\n"
        "from serving.warmup import preload\n"
        "preload()\n"
        "before = set(sys.modules)\n"
        "np.unique(np.array([2, 1, 2]))\n"
        "print(sorted(set(sys.modules) - before))\n"
    )
    assert _in_fresh_process(code) == "[]"


@pytest.mark.django_db
def test_warm_up_survives_a_failing_provider(provider_outage):
    # Example sets embedded by earlier tests would hide a warm-up that asks the down provider.
    router.reset_examples()
    asked = provider_outage()
    warmup.warm_up()  # logged, not raised: searches degrade until the provider recovers
    assert asked == [registry.PROBE_TEXT]


@pytest.mark.django_db
def test_warm_up_runs_the_hooks_apps_registered(monkeypatch):
    ran = []
    monkeypatch.setattr(registry, "_hooks", [lambda: ran.append("searched")])
    warmup.warm_up()
    assert ran == ["searched"]


@pytest.fixture
def preload_without_freezing(monkeypatch):
    """Run :func:`warmup.preload` here, leaving this test process's collector as it was."""
    monkeypatch.setattr(warmup.gc, "freeze", lambda: None)
    return warmup.preload


def test_preload_builds_the_configured_llm_that_forked_children_share(
    settings, preload_without_freezing
):
    # A hosted LLM's SDK (openai: 25 MiB) loaded here is shared by every process forked after.
    settings.RAG_LLM = {
        **settings.RAG_LLM,
        "PROVIDER": "openai",
        "MODEL": "fake-chat",
        "BASE_URL": "http://127.0.0.1:9/v1",  # never called: building opens no connection
        "API_KEY": "sk-test",
    }
    preload_without_freezing()
    assert llm._llm is not None and llm._llm.name == "openai"


def test_preload_goes_on_when_the_llm_cannot_be_built(settings, preload_without_freezing):
    settings.RAG_LLM = {**settings.RAG_LLM, "PROVIDER": "openai", "MODEL": ""}
    preload_without_freezing()  # logged: the provider fails on first use instead
    assert llm._llm is None
