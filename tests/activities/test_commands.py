"""Management commands: backfill_embeddings, upgrade_search, activities_load_demo."""

from __future__ import annotations

import io
import uuid
import zoneinfo
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

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


HNSW = "activity_embedding_half_hnsw"


@pytest.fixture
def schema_changes_allowed(unindexed):
    """The unindexed rows, with their deferred foreign-key checks run now.

    The test's transaction holds those checks until commit, and PostgreSQL refuses DDL on a
    table with pending trigger events; the command itself never runs inside such a transaction.
    """
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return unindexed


def index_names() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.get_constraints(cursor, Activity._meta.db_table))


def drop_index(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f'DROP INDEX "{name}"')


def index_definition(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [name])
        return cursor.fetchone()[0]


def test_upgrade_search_recreates_a_dropped_hnsw_index(schema_changes_allowed):
    run("upgrade_search")
    definition = index_definition(HNSW)
    drop_index(HNSW)
    output = run("upgrade_search")
    assert f"index {HNSW}: missing" in output
    assert HNSW in index_names()
    assert index_definition(HNSW) == definition  # the migration's DDL: hnsw, cosine, m, ef


def test_upgrade_search_is_a_no_op_when_the_schema_is_complete(unindexed):
    run("upgrade_search")
    again = run("upgrade_search")
    assert "missing" not in again
    assert "column activities_activity.embedding: vector(384), ok" in again


def test_upgrade_search_dry_run_writes_nothing(schema_changes_allowed, counting_provider):
    drop_index(HNSW)
    before = list(Activity.objects.order_by("pk").values())
    output = run("upgrade_search", "--dry-run")
    assert f"index {HNSW}: missing, would create it" in output
    assert HNSW not in index_names()
    assert list(Activity.objects.order_by("pk").values()) == before
    assert counting_provider.calls == 0


def test_upgrade_search_recreates_a_column_of_another_dimension(schema_changes_allowed):
    run("upgrade_search")
    with connection.cursor() as cursor:
        cursor.execute(
            "ALTER TABLE activities_activity ALTER COLUMN embedding TYPE vector(3) USING NULL"
        )
    output = run("upgrade_search")
    assert "vector(3), EMBEDDING_DIMENSIONS=384" in output
    from rag.db import vector_column_dimensions

    assert vector_column_dimensions(connection, "activities_activity", "embedding") == 384
    assert HNSW in index_names()
    assert Activity.objects.filter(embedding__isnull=False).count() == 3


def test_load_demo_is_idempotent(counting_provider, demo_items):
    from django.contrib.auth import get_user_model

    output = run("activities_load_demo")
    assert f"loaded {len(demo_items)} demo activities" in output
    assert len(demo_items) >= 50
    assert Activity.objects.filter(index_state=IndexState.INDEXED).count() == len(demo_items)
    assert get_user_model().objects.filter(username="demo").exists()
    assert "nothing loaded" in run("activities_load_demo")
    assert Activity.objects.count() == len(demo_items)


def rewind_demo(weeks: int = 3) -> None:
    """Make the demo look loaded ``weeks`` ago: every start and end that many weeks earlier."""
    from django.db.models import F

    gap = timedelta(weeks=weeks)
    Activity.objects.update(start_at=F("start_at") - gap, end_at=F("end_at") - gap)


def local(moment):
    return moment.astimezone(zoneinfo.ZoneInfo("Asia/Shanghai"))


def test_load_demo_moves_started_demo_activities_after_now(demo_activities):
    rewind_demo()
    assert Activity.objects.filter(start_at__lte=timezone.now()).count() > 50
    output = run("activities_load_demo")
    assert "nothing loaded; moved" in output
    assert not Activity.objects.filter(start_at__lte=timezone.now()).exists()


def test_moved_demo_activities_keep_weekday_time_and_duration(demo_activities):
    rewind_demo()
    before = {a.pk: a for a in Activity.objects.all()}
    run("activities_load_demo")
    for row in Activity.objects.all():
        old = before[row.pk]
        assert row.start_at > timezone.now()  # moved, not left where it was
        assert (row.start_at - old.start_at) % timedelta(weeks=1) == timedelta(0)
        assert local(row.start_at).strftime("%a %H:%M") == local(old.start_at).strftime("%a %H:%M")
        if old.end_at is not None:
            assert row.end_at - row.start_at == old.end_at - old.start_at


def test_moving_demo_activities_is_idempotent(demo_activities):
    rewind_demo()
    run("activities_load_demo")
    starts = dict(Activity.objects.values_list("pk", "start_at"))
    assert "moved 0 past demo" in run("activities_load_demo")
    assert dict(Activity.objects.values_list("pk", "start_at")) == starts


def test_only_demo_rows_are_moved(demo_activities, make_activity, user):
    demo = next(iter(demo_activities.values()))
    past = timezone.now() - timedelta(days=2)
    copied = make_activity(creator=user, title=demo.title, location_name=demo.location_name)
    own = make_activity(title="演示用户自己写的活动", location_name=demo.location_name)
    Activity.objects.filter(pk__in=[copied.pk, own.pk]).update(start_at=past)
    assert "moved 0 past demo" in run("activities_load_demo")
    assert set(Activity.objects.filter(start_at=past).values_list("pk", flat=True)) == {
        copied.pk,
        own.pk,
    }


def test_moved_demo_is_searchable_again(demo_activities):
    from activities.search import activities_search

    rewind_demo(weeks=4)
    assert activities_search(semantic_query="玩水")["results"] == []
    run("activities_load_demo")
    assert activities_search(semantic_query="玩水")["results"]


def test_moving_demo_reuses_current_vectors(demo_activities, counting_provider):
    rewind_demo()
    run("activities_load_demo")
    assert not Activity.objects.filter(start_at__lte=timezone.now()).exists()
    assert counting_provider.calls == 0  # weekday and part of day unchanged: same text
    assert set(Activity.objects.values_list("index_state", flat=True)) == {IndexState.INDEXED}


def test_moving_demo_reindexes_a_stale_row_through_the_receiver(
    demo_activities, django_capture_on_commit_callbacks
):
    from activities.selectors import is_current

    rewind_demo()
    stale = next(iter(demo_activities.values()))
    Activity.objects.filter(pk=stale.pk).update(embedding_hash="")
    with django_capture_on_commit_callbacks(execute=True):
        run("activities_load_demo")
    assert is_current(Activity.objects.get(pk=stale.pk))
