"""The warm-up registry (rag.warmup): the apps' hooks, a server's gates, readiness."""

from __future__ import annotations

import pytest

from rag import warmup
from serving.warmup import warm_up


@pytest.mark.django_db
def test_health_reports_ready_once_this_process_warmed_up(anon_client):
    warm_up()
    assert anon_client.get("/api/health").json()["ready"] is True


@pytest.mark.django_db
def test_a_server_gate_holds_readiness_until_it_passes(monkeypatch, anon_client):
    warm_up()
    monkeypatch.setattr(warmup, "_gates", [])
    others_warm = []
    warmup.add_ready_gate(lambda: bool(others_warm))
    assert anon_client.get("/api/health").json()["ready"] is False
    others_warm.append(True)
    assert anon_client.get("/api/health").json()["ready"] is True


def test_a_failing_hook_does_not_stop_the_others(monkeypatch):
    ran = []

    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(warmup, "_hooks", [broken, lambda: ran.append("next")])
    warmup.run_hooks()
    assert ran == ["next"]


@pytest.mark.django_db
def test_the_apps_register_a_search_each():
    names = {hook.__module__ for hook in warmup._hooks}
    assert {"activities.apps", "memory.apps"} <= names
