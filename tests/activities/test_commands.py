"""Management commands: backfill_embeddings, upgrade_search, activities_load_demo."""

from __future__ import annotations

import io
import uuid

import pytest
from django.core.management import call_command

from activities.models import Activity, IndexState

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def unindexed(make_activity):
    """Three activities saved without running the indexing task (texts unseen by the cache)."""
    run_id = uuid.uuid4().hex[:8]
    return [
        make_activity(title=f"回填测试 {run_id} {i}", description=f"第 {i} 个") for i in range(3)
    ]


def test_backfill_dry_run_writes_nothing(unindexed, counting_provider):
    output = run("backfill_embeddings", "--dry-run")
    assert "would process 3, skipped 0, errors 0" in output
    assert counting_provider.calls == 0
    assert not Activity.objects.filter(embedding__isnull=False).exists()


def test_backfill_twice(unindexed, counting_provider):
    first = run("backfill_embeddings", "--batch-size", "2")
    assert "processed 3, skipped 0, errors 0" in first
    assert "2/3" in first  # progress per batch
    assert set(Activity.objects.values_list("index_state", flat=True)) == {IndexState.INDEXED}
    calls = counting_provider.calls
    second = run("backfill_embeddings")
    assert "processed 0, skipped 3, errors 0" in second
    assert counting_provider.calls == calls
    forced = run("backfill_embeddings", "--force")
    assert "processed 3, skipped 0" in forced


def test_backfill_counts_errors_and_records_them(unindexed, failing_provider):
    output = run("backfill_embeddings")
    assert "processed 0, skipped 0, errors 3" in output
    assert set(Activity.objects.values_list("index_state", flat=True)) == {IndexState.FAILED}


def test_upgrade_search_pauses_when_rate_limited(unindexed, monkeypatch):
    from activities import backfill as backfill_module
    from rag.embeddings import ProviderError

    real = backfill_module.embed_activities
    failures = {"left": 2}

    def flaky(batch, **kwargs):
        if failures["left"]:
            failures["left"] -= 1
            raise ProviderError("HTTP 429", status=429, retryable=True)
        return real(batch, **kwargs)

    monkeypatch.setattr(backfill_module, "embed_activities", flaky)
    monkeypatch.setattr(backfill_module.time, "sleep", lambda s: None)
    out = io.StringIO()
    call_command("upgrade_search", "--pause-seconds", "0", stdout=out)
    assert "processed 3, skipped 0, errors 0, pauses 2" in out.getvalue()
    again = run("upgrade_search")
    assert "pending migrations: none" in again and "processed 0, skipped 3" in again
    assert "[dry run]" in run("upgrade_search", "--dry-run")


def test_load_demo_is_idempotent(counting_provider, demo_items):
    from django.contrib.auth import get_user_model

    output = run("activities_load_demo")
    assert f"loaded {len(demo_items)} demo activities" in output
    assert len(demo_items) >= 50
    assert Activity.objects.filter(index_state=IndexState.INDEXED).count() == len(demo_items)
    assert get_user_model().objects.filter(username="demo").exists()
    assert "nothing loaded" in run("activities_load_demo")
    assert Activity.objects.count() == len(demo_items)
