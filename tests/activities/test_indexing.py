"""Asynchronous indexing: the embedded text, re-embedding only on relevant changes, failures."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

import pytest

from activities.models import Activity, IndexState
from activities.services import activity_delete, activity_update
from activities.tasks import MAX_ATTEMPTS, activity_index, backoff_seconds
from activities.text import part_of_day
from activities.vibes import infer_vibes, lexicon_vibes, query_vibes

pytestmark = pytest.mark.django_db
SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")


def test_embedding_text_format(make_activity):
    start = datetime(2030, 6, 7, 19, 30, tzinfo=SHANGHAI)  # a Friday evening in Shanghai
    activity = make_activity(
        title="静读会",
        description="一起安静地读书两小时",
        type="读书",
        tags=["读书", "安静"],
        start_at=start,
        location_name="静安·书店",
    )
    assert activity.embedding_text().split("\n") == [
        "标题: 静读会",
        "描述: 一起安静地读书两小时",
        "类型: 读书",
        "标签: 读书, 安静",
        "时间: 周五 晚上",
        "地点: 静安·书店",
        "氛围: 安静, 文艺",
    ]


def test_time_of_day_uses_the_activity_time_zone(make_activity):
    utc_afternoon = datetime(2030, 6, 7, 16, 0, tzinfo=zoneinfo.ZoneInfo("UTC"))
    activity = make_activity(start_at=utc_afternoon)  # 00:00 Saturday in Shanghai
    assert "时间: 周六 深夜" in activity.embedding_text()
    assert [part_of_day(h) for h in (5, 11, 12, 17, 18, 22, 23, 4)] == [
        "早上",
        "早上",
        "下午",
        "下午",
        "晚上",
        "晚上",
        "深夜",
        "深夜",
    ]


def test_vibe_lexicon():
    assert "玩水" in lexicon_vibes(type="运动", description="室内冲浪体验")
    assert "热闹" in lexicon_vibes(type="社交", description="酒吧 livehouse 派对")
    assert "亲子" in lexicon_vibes(type="户外", description="带孩子去农场")
    assert "商务" in lexicon_vibes(type="社交", description="创业者 networking")
    assert "安静" in query_vibes("压力大想发呆")
    # No LLM configured offline: the lexicon answers.
    assert infer_vibes(type="冥想", description="正念") == lexicon_vibes(
        type="冥想", description="正念"
    )


def test_create_indexes_after_commit(make_activity, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity()
    activity.refresh_from_db()
    assert activity.index_state == IndexState.INDEXED
    assert activity.embedding is not None and activity.indexed_at is not None
    assert "桌游" in activity.search_text


def test_only_text_changes_re_embed(
    make_activity, demo_user, counting_provider, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity(title="一个独一无二的标题 A1")
    assert counting_provider.calls == 1
    with django_capture_on_commit_callbacks(execute=True):
        activity_update(activity=activity, user=demo_user, max_participants=20, lat=31.0)
        activity_update(activity=activity, user=demo_user, status="active")
    assert counting_provider.calls == 1  # participants, location and status are not in the text
    with django_capture_on_commit_callbacks(execute=True):
        activity_update(activity=activity, user=demo_user, description="换了一段新的描述 B2")
    assert counting_provider.calls == 2
    activity.refresh_from_db()
    assert "B2" in counting_provider.texts[-1]
    assert activity.index_state == IndexState.INDEXED


def test_task_is_idempotent(make_activity, counting_provider):
    activity = make_activity(title="再跑一次也没事 C3")
    assert activity_index(activity.pk) == "indexed"
    assert activity_index(activity.pk) == "unchanged"
    assert counting_provider.calls == 1
    assert activity_index(987654321) == "gone"


def test_failure_is_recorded_retried_and_never_undoes_the_write(
    make_activity, failing_provider, django_capture_on_commit_callbacks
):
    from django_q.models import Schedule

    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity(title="服务挂了也要保存 D4")
    row = Activity.objects.get(pk=activity.pk)
    assert row.title == "服务挂了也要保存 D4"  # the write stands
    assert row.index_state == IndexState.FAILED
    assert "ProviderError" in row.index_error and row.index_attempts == 1
    retry = Schedule.objects.get(name=f"activities.index.retry:{activity.pk}:1")
    assert retry.func == "activities.tasks.enqueue_index_many"
    assert backoff_seconds(1) < backoff_seconds(2) < backoff_seconds(3)
    for _ in range(MAX_ATTEMPTS - 1):
        status = activity_index(activity.pk)
    assert status == "failed (giving up)"
    assert Activity.objects.get(pk=activity.pk).index_attempts == MAX_ATTEMPTS


def test_deleting_removes_from_search(demo_activities, demo_user):
    from activities.search import activities_search

    surf = next(a for t, a in demo_activities.items() if t.startswith("室内冲浪"))
    activity_delete(activity=surf, user=demo_user)
    outcome = activities_search(semantic_query="冲浪", limit=50)
    assert surf.pk not in {r["id"] for r in outcome["results"]}


def test_admin_reindex_action(
    demo_activities, admin_client, counting_provider, django_capture_on_commit_callbacks
):
    client = admin_client
    ids = [a.pk for a in list(demo_activities.values())[:2]]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/activities/activity/",
            {"action": "reindex", "_selected_action": ids},
        )
    assert response.status_code == 302
    assert all(a.index_state == IndexState.INDEXED for a in Activity.objects.filter(pk__in=ids))


def test_a_provider_failure_is_recorded_without_the_providers_address(
    make_activity, settings, api_client, user
):
    """The creator reads index_error: a hosted provider's URL stays in the server's log."""
    settings.RAG_EMBEDDING = {
        **settings.RAG_EMBEDDING,
        "PROVIDER": "openai",
        "BASE_URL": "http://127.0.0.1:9/v1",  # nothing listens: every call fails
        "MODEL": "text-embedding-3-small",
        "DIMENSIONS": 1536,
        "MAX_RETRIES": 0,
    }
    activity = make_activity(creator=user, title="提供方挂了 P9")
    activity_index(activity.pk)
    row = Activity.objects.get(pk=activity.pk)
    assert row.index_state == IndexState.FAILED
    assert row.index_error == "ProviderError: provider unreachable"
    detail = api_client.get(f"/api/activities/{activity.pk}/")
    assert detail.status_code == 200 and "127.0.0.1" not in detail.content.decode()


def _kind_vector(pk):
    return list(Activity.objects.values_list("meta_embedding", flat=True).get(pk=pk))


def test_the_kind_vector_is_made_in_the_same_call_on_create(
    make_activity, counting_provider, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity(title="类型向量 E5", type="桌游", tags=["策略", "新手"])
    assert counting_provider.calls == 1
    assert "桌游 策略, 新手" in counting_provider.texts
    activity.refresh_from_db()
    assert activity.meta_embedding is not None


def test_the_kind_vector_is_made_again_when_the_tags_change(
    make_activity, demo_user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity(title="换标签 F6", type="桌游", tags=["策略"])
    before = _kind_vector(activity.pk)
    with django_capture_on_commit_callbacks(execute=True):
        activity_update(activity=activity, user=demo_user, tags=["户外", "徒步"])
    assert _kind_vector(activity.pk) != before


def test_a_title_change_keeps_the_kind_vector(
    make_activity, demo_user, django_capture_on_commit_callbacks
):
    # The row's vectors are kept fresh together (one hash over the embedded text): a new title
    # embeds both again, the kind vector from the same type and tags, so it is the same.
    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity(title="改标题 G7", type="桌游", tags=["策略"])
    before = _kind_vector(activity.pk)
    with django_capture_on_commit_callbacks(execute=True):
        activity_update(activity=activity, user=demo_user, title="改过的标题 G8")
    assert _kind_vector(activity.pk) == before


def test_a_row_without_a_kind_vector_is_filled_by_the_backfill(make_activity):
    # Rows indexed before the kind vector existed (migration 0010) are not current: the
    # backfill command embeds them again.
    from activities.backfill import backfill

    activity = make_activity(title="旧行 H8")
    assert activity_index(activity.pk) == "indexed"
    Activity.objects.filter(pk=activity.pk).update(meta_embedding=None)
    assert activity_index(activity.pk) == "indexed"  # not "unchanged"
    Activity.objects.filter(pk=activity.pk).update(meta_embedding=None)
    assert backfill().processed == 1
    assert Activity.objects.get(pk=activity.pk).meta_embedding is not None


def test_a_model_change_makes_the_kind_vector_again_with_the_listing(make_activity):
    # rag_reembed (a new embedding model) writes each row's vectors together: the kind vector
    # of another model is not left beside a listing vector of the current one.
    from io import StringIO

    from django.core.management import call_command

    activity = make_activity(title="换模型 J9", type="桌游", tags=["策略"])
    Activity.objects.filter(pk=activity.pk).update(
        embedding=[0.1] * 384, meta_embedding=[0.1] * 384, embedding_model="retired-model"
    )
    old = _kind_vector(activity.pk)
    call_command("rag_reembed", stdout=StringIO())
    assert _kind_vector(activity.pk) != old


@pytest.mark.django_db
def test_a_row_without_its_kind_vector_is_missing_one_for_rag_reembed(
    make_activity, django_capture_on_commit_callbacks
):
    from rag.reembed import stale_queryset, vector_states

    with django_capture_on_commit_callbacks(execute=True):
        made = make_activity(title="周六桌游", type="桌游", tags=["桌游"])
    assert vector_states(Activity)["missing"] == 0
    Activity.objects.filter(pk=made.pk).update(meta_embedding=None)  # as before migration 0010

    assert vector_states(Activity)["missing"] == 1
    assert list(stale_queryset(Activity).values_list("pk", flat=True)) == [made.pk]
