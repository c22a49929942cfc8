"""Fixtures of the serving tests: the real-worker environment the rag tests use too."""

from tests.rag.conftest import worker_env  # noqa: F401 - a fixture, used by name
