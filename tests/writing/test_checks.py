"""System checks writing.E001 and writing.E002 (in-worker debounce wait)."""

from __future__ import annotations

from django.conf import settings
from django.test import override_settings

from writing.checks import check_debounce_worker_wait


def test_default_wait_passes():
    """The configured default raises no error."""
    assert check_debounce_worker_wait() == []


@override_settings(WRITING_DEBOUNCE_WORKER_WAIT=-1)
def test_negative_wait_is_e001():
    """A negative wait is writing.E001."""
    assert [e.id for e in check_debounce_worker_wait()] == ["writing.E001"]


def test_wait_longer_than_task_timeout_is_e002():
    """A wait the worker's task timeout would cut short is writing.E002."""
    with override_settings(
        WRITING_DEBOUNCE_WORKER_WAIT=400.0, Q_CLUSTER={**settings.Q_CLUSTER, "timeout": 300}
    ):
        assert [e.id for e in check_debounce_worker_wait()] == ["writing.E002"]
