"""What a warm-up runs and when a process is ready: the registry apps and servers add to.

Apps register one real search each (:func:`register`, from their ``AppConfig.ready``), a server
adds its own readiness condition (:func:`add_ready_gate`), and ``/api/health`` reports
:func:`is_ready`. How and when a process warms up is decided in one place above every app,
``serving/warmup.py`` (``manage.py serve``); this module only holds what they registered, so
that nothing below the serving package imports it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from rag import text
from rag.embeddings import get_provider
from rag.providers import local

logger = logging.getLogger(__name__)

# What apps add to the warm-up (``register``): one real search each, so the first request does
# not pay for lazily built queries, caches and imports of its own.
_hooks: list[Callable[[], object]] = []

# Conditions a server adds to readiness (``add_ready_gate``): serving.web waits for every
# web process, since a process still warming up takes the CPUs the first request needs.
_gates: list[Callable[[], bool]] = []

# A short query in both scripts the model serves: it runs every layer once.
PROBE_TEXT = "周末 上海 户外活动 weekend hiking"


def register(hook: Callable[[], object]) -> Callable[[], object]:
    """Run ``hook()`` in every warm-up, after the model and jieba (apps call this in ready())."""
    if hook not in _hooks:
        _hooks.append(hook)
    return hook


def add_ready_gate(gate: Callable[[], bool]) -> Callable[[], bool]:
    """Make :func:`is_ready` also require ``gate()`` (a server's own condition)."""
    if gate not in _gates:
        _gates.append(gate)
    return gate


def run_hooks() -> None:
    """Run the apps' warm-up hooks (:func:`register`) on this thread; log, never raise."""
    for hook in _hooks:
        try:
            hook()
        except Exception:  # noqa: BLE001 - a warm-up never keeps a server from starting
            logger.exception("warm-up hook %s failed", getattr(hook, "__qualname__", hook))


def is_ready() -> bool:
    """Return whether this process has jieba loaded and, for the local model, has run it once.

    A server's gates (:func:`add_ready_gate`) must pass too.
    """
    if not text.is_loaded():
        return False
    # Only the in-process model has a first run to wait for; a remote provider (or the tests'
    # in-process stand-in, which is "local" for budgets but runs no engine) has nothing to load.
    if isinstance(get_provider(), local.LocalE5Provider) and not local.engine_ran():
        return False
    return all(gate() for gate in _gates)
