"""System checks of the platform: task settings, input limits, replicas, the bounded stop."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings


def ids(errors) -> list[str]:
    return [e.id for e in errors]


def test_e007_fires_when_the_queue_lock_expires_before_a_task_can_end():
    from config.checks import check_task_settings

    assert check_task_settings() == []
    cluster = {**settings.Q_CLUSTER, "timeout": 300, "retry": 200}
    with override_settings(Q_CLUSTER=cluster):
        assert ids(check_task_settings()) == ["platform.E007"]
    with override_settings(TASKS_PENDING_STALE_SECONDS=0):
        assert ids(check_task_settings()) == ["platform.E007"]


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"RAG_QUERY_MAX_CHARS": 0}, "platform.E020"),
        ({"RAG_QUERY_MAX_CHARS": None}, "platform.E020"),
        ({"DATA_UPLOAD_MAX_MEMORY_SIZE": None}, "platform.E021"),
        ({"DATA_UPLOAD_MAX_MEMORY_SIZE": 10}, "platform.E021"),
    ],
)
def test_unusable_input_limits_are_reported(changes, expected):
    from config.checks import check_input_limits

    with override_settings(**changes):
        assert ids(check_input_limits()) == [expected]


def test_default_input_limits_pass_their_check():
    from config.checks import check_input_limits

    assert check_input_limits() == []


def _with_replica(config: dict) -> dict:
    return {**settings.DATABASES, "replica_1": config}


@pytest.mark.parametrize(
    "replica, changes, expected",
    [
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": "x"}, {}, "platform.E080"),
        ("primary", {}, "platform.E081"),
        (None, {"REPLICA_CONNECT_TIMEOUT": 0}, "platform.E082"),
        (None, {"REPLICA_RETRY_SECONDS": -1}, "platform.E082"),
    ],
)
def test_unusable_replica_settings_are_reported(replica, changes, expected):
    from config.checks import check_replicas

    overrides = dict(changes)
    if replica is not None:
        config = dict(settings.DATABASES["default"]) if replica == "primary" else replica
        overrides.update(DATABASES=_with_replica(config), REPLICA_DATABASES=["replica_1"])
    with override_settings(**overrides):
        assert ids(check_replicas()) == [expected]


def test_no_replicas_pass_their_check():
    from config.checks import check_replicas

    assert check_replicas() == []


def test_the_installed_django_q2_is_a_release_the_bounded_stop_fits():
    from config.checks import check_bounded_stop

    assert check_bounded_stop() == []


def test_w003_fires_for_a_django_q2_release_the_bounded_stop_was_not_checked_against(
    monkeypatch,
):
    from config import worker
    from config.checks import check_bounded_stop

    monkeypatch.setattr(worker, "CHECKED_DJANGO_Q2", frozenset({(0, 0, 1)}))
    assert ids(check_bounded_stop()) == ["platform.W003"]
