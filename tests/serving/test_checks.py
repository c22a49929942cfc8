"""The system checks of the web settings (serving/checks.py)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from serving.bounds import STOP_MARGIN_SECONDS
from serving.checks import check_serving


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"WEB_PROCESSES": 0}, "serving.E070"),
        ({"WEB_THREADS": None}, "serving.E070"),
        ({"WEB_CONN_MAX_AGE": -1}, "serving.E071"),
        ({"WEB_GRACEFUL_TIMEOUT": 60}, "serving.E072"),
    ],
)
def test_unusable_serving_settings_are_reported(changes, expected):
    with override_settings(**changes):
        assert [error.id for error in check_serving()] == [expected]


def test_default_serving_settings_pass_their_check():
    assert check_serving() == []


def test_graceful_stop_may_take_as_long_as_serve_waits_for_a_cluster_and_no_longer():
    # serve gives a cluster Q_STOP_TIMEOUT + STOP_MARGIN_SECONDS (serving/clusters.py).
    limit = int(5 + STOP_MARGIN_SECONDS)
    with override_settings(Q_STOP_TIMEOUT=5, WEB_GRACEFUL_TIMEOUT=limit):
        assert check_serving() == []
    with override_settings(Q_STOP_TIMEOUT=5, WEB_GRACEFUL_TIMEOUT=limit + 1):
        assert [error.id for error in check_serving()] == ["serving.E072"]
