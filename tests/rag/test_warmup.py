"""Readiness: jieba and the embedding model loaded before a process takes traffic (rag.warmup)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

ROOT = Path(__file__).resolve().parents[2]


def _in_fresh_process(code: str) -> str:
    """Run ``code`` in a new Python process with the test settings; return its last line."""
    script = (
        "import django, os\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings_test')\n"
        "django.setup()\n" + code
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_a_fresh_process_is_not_ready_until_it_warms_up():
    code = (
        "from rag import warmup\n"
        "before = warmup.is_ready()\n"
        "warmup.warm_up()\n"
        "print(before, warmup.is_ready())\n"
    )
    assert _in_fresh_process(code) == "False True"


@pytest.mark.slow
def test_preload_loads_jieba_without_running_the_model():
    # The forking process must not run the model: OpenMP would hang in its children.
    code = (
        "from rag import text, warmup\n"
        "from rag.providers import local\n"
        "warmup.preload()\n"
        "print(text.is_loaded(), local.engine_ran())\n"
    )
    assert _in_fresh_process(code) == "True False"


@pytest.mark.slow
def test_preload_loads_the_model_that_forked_children_share_and_run():
    # Loaded once in the forking process, the weights are shared copy-on-write; each child
    # runs its own first embedding (a hang would fail the subprocess timeout).
    code = (
        "import os\n"
        "from rag import warmup\n"
        "from rag.embeddings import get_provider\n"
        "from rag.providers import local\n"
        "warmup.preload()\n"
        "loaded = local._e5_model is not None\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    same = local._e5_model is not None\n"
        "    get_provider().embed(['周末爬山'], role='query')\n"
        "    os._exit(0 if same and local.engine_ran() else 3)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(loaded, os.waitstatus_to_exitcode(status))\n"
    )
    assert _in_fresh_process(code) == "True 0"


@pytest.mark.django_db
def test_health_reports_ready_once_this_process_warmed_up(anon_client):
    from rag import warmup

    warmup.warm_up()
    assert anon_client.get("/api/health").json()["ready"] is True


@pytest.mark.django_db
def test_a_server_gate_holds_readiness_until_it_passes(monkeypatch, anon_client):
    from rag import warmup

    warmup.warm_up()
    monkeypatch.setattr(warmup, "_gates", [])
    others_warm = []
    warmup.add_ready_gate(lambda: bool(others_warm))
    assert anon_client.get("/api/health").json()["ready"] is False
    others_warm.append(True)
    assert anon_client.get("/api/health").json()["ready"] is True


@pytest.mark.django_db
def test_warm_up_survives_a_failing_provider(provider_outage):
    from rag import warmup

    asked = provider_outage()
    warmup.warm_up()  # logged, not raised: searches degrade until the provider recovers
    assert asked == [warmup.PROBE_TEXT]


@pytest.mark.django_db
def test_warm_up_runs_the_hooks_apps_registered(monkeypatch):
    from rag import warmup

    ran = []
    monkeypatch.setattr(warmup, "_hooks", [lambda: ran.append("searched")])
    warmup.warm_up()
    assert ran == ["searched"]


@pytest.mark.django_db
@pytest.mark.parametrize("run", ["warm_up", "rehearse"])
def test_a_failing_hook_does_not_stop_the_others(monkeypatch, run):
    from rag import embeddings, warmup

    ran = []

    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(warmup, "_hooks", [broken, lambda: ran.append("next")])
    getattr(warmup, run)()
    assert ran == ["next"] and embeddings._stand_in is None


@pytest.mark.django_db
def test_rehearse_runs_the_hooks_on_a_stand_in_vector_without_the_provider(monkeypatch):
    from rag import embeddings, warmup

    seen = []
    monkeypatch.setattr(warmup, "_hooks", [lambda: seen.append(embeddings.embed_query("x"))])
    monkeypatch.setattr(embeddings, "_call_provider", lambda *a, **k: pytest.fail("provider"))
    warmup.rehearse()
    assert seen == [[1.0] + [0.0] * 383]
    assert embeddings._stand_in is None


@pytest.mark.django_db
def test_a_provider_that_cannot_be_built_skips_the_rehearsal(monkeypatch, caplog):
    from rag import embeddings, warmup

    def broken():
        raise RuntimeError("no provider")

    ran = []
    monkeypatch.setattr(embeddings, "get_provider", broken)
    monkeypatch.setattr(warmup, "_hooks", [lambda: ran.append("searched")])
    warmup.rehearse()
    assert ran == [] and "not rehearsed" in caplog.text and embeddings._stand_in is None


@pytest.mark.django_db
def test_the_apps_register_a_search_each():
    from rag import warmup

    names = {hook.__module__ for hook in warmup._hooks}
    assert {"activities.apps", "memory.apps"} <= names


@pytest.mark.slow
def test_preload_imports_every_module_of_the_project_apps():
    # Children forked after it share these modules instead of importing their own copies.
    code = (
        "import sys\n"
        "from rag import warmup\n"
        "warmup.preload()\n"
        "names = ('agent.chat', 'memory.tasks', 'writing.tasks', 'activities.search')\n"
        "print(all(n in sys.modules for n in names), 'django_q.brokers.mongo' in sys.modules)\n"
    )
    assert _in_fresh_process(code) == "True False"


def test_every_url_pattern_is_compiled_before_the_fork():
    from django.urls import URLResolver, include, path
    from django.urls.resolvers import RegexPattern

    from rag import warmup

    leaves = [path("a/", lambda r: None), path("b/<int:pk>/", lambda r: None)]
    nested = path("api/", include(leaves))
    resolver = URLResolver(RegexPattern(r"^/"), [path("home/", lambda r: None), nested])

    assert warmup.compile_url_patterns(resolver) == 4
    assert all("regex" in p.pattern.__dict__ for p in [*leaves, nested])
