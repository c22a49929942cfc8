"""Load what a request needs before a process takes traffic: jieba's dictionary, the model.

``manage.py serve`` calls :func:`preload` once in its own process before it forks the web
server and the worker clusters, so every process shares those pages (copy-on-write), and
:func:`warm_up` in each web process before it accepts a connection, so the first search
answers as fast as the hundredth. ``/api/health`` reports :func:`is_ready`.

The local model is loaded but never run in the forking process: OpenMP cannot run in a child
forked after its parent ran a parallel region (rag.providers.local), so each serving process
runs its own first embedding here, on the weights it shares with the others.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import time
from collections.abc import Callable
from pathlib import Path

logger = logging.getLogger(__name__)

# What apps add to the warm-up (``register``): one real search each, so the first request does
# not pay for lazily built queries, caches and imports of its own.
_hooks: list[Callable[[], object]] = []

# Conditions a server adds to readiness (``add_ready_gate``): config.serving waits for every
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


def preload() -> None:
    """Load jieba's dictionary, the URL conf and every module of the project's apps.

    In the process that forks the others, so that each child finds them loaded (and shares
    their pages) instead of importing its own copy on first use: many modules are imported
    only inside the functions that need them.
    """
    from django.urls import get_resolver

    from rag import text

    text.warm_up()
    _load_embedder()
    compile_url_patterns(get_resolver())  # also imports every app's views and serializers
    import_project_modules()
    rehearse()


def rehearse() -> None:
    """Run the apps' warm-up hooks once in this process, on a stand-in query vector.

    What a first search builds (the ORM's field and relation caches, compiled expressions, the
    types psycopg loads, the parsers' tables) then sits in pages the forked children share,
    instead of being built again in each: measured with ``/proc/<pid>/smaps_rollup``, a web
    process's private memory after its own warm-up fell from 24 to 13 MiB. The model does not
    run (``rag.embeddings.stand_in_vectors``) and nothing is cached; each child still runs the
    hooks itself, with the model, in :func:`warm_up`. Failures are logged, never raised.
    """
    from rag.embeddings import stand_in_vectors

    try:
        with stand_in_vectors():
            run_hooks()
    except Exception:  # noqa: BLE001 - a provider that cannot be built fails on first use instead
        logger.warning("preload: the warm-up searches were not rehearsed", exc_info=True)


def compile_url_patterns(resolver) -> int:
    """Compile the regular expression of every URL pattern under ``resolver``; return how many.

    Django compiles each on the first request that tries it, in every process (about 20 on the
    way to a search); compiled here they sit in pages the forked children share.
    """
    count = 0
    for pattern in resolver.url_patterns:
        pattern.pattern.regex  # noqa: B018 - compiled and kept on first access
        count += 1
        if hasattr(pattern, "url_patterns"):
            count += compile_url_patterns(pattern)
    return count


def _load_embedder() -> None:
    """Load an in-process embedding model without running it (its weights are then shared).

    Measured with ``bench/serving.py``: each web and worker process loaded its own copy of the
    local model's weights before; loaded once here they are counted once.
    """
    from rag.embeddings import get_provider

    load = getattr(get_provider(), "load", None)
    if load is not None:
        try:
            load()
        except Exception:  # noqa: BLE001 - a provider that cannot load fails on first use
            logger.warning("preload: the embedding model did not load", exc_info=True)


# Modules never needed by a serving process (and some not importable outside their command).
SKIPPED_MODULES = (".migrations", ".management", ".tests")


def import_project_modules() -> int:
    """Import every module of the project's own apps; return how many were imported."""
    import importlib
    import pkgutil

    from django.apps import apps
    from django.conf import settings

    count = 0
    for app in apps.get_app_configs():
        if Path(app.path).parent != Path(settings.BASE_DIR):
            continue  # Django's and third-party apps (the virtualenv may sit in the checkout)
        for module in pkgutil.walk_packages([app.path], prefix=f"{app.name}."):
            if any(part in module.name for part in SKIPPED_MODULES):
                continue
            try:
                importlib.import_module(module.name)
                count += 1
            except Exception:  # noqa: BLE001 - a module that cannot load is loaded on use
                logger.warning("preload: could not import %s", module.name, exc_info=True)
    return count


def warm_up() -> float:
    """Make this process ready for traffic; return the seconds it took.

    Loads jieba (when :func:`preload` did not), embeds one query through the configured
    provider (a failing provider is logged, not raised: searches degrade until it recovers),
    opens this thread's database connection and runs the apps' hooks (:func:`register`).
    """
    from django.db import DatabaseError, connection

    from rag import text
    from rag.embeddings import ProviderError, embed_texts, get_provider

    started = time.monotonic()
    text.warm_up()
    text.segment_query(PROBE_TEXT)
    try:
        embed_texts([PROBE_TEXT], role="query", use_cache=False)
        warm = getattr(get_provider(), "warm", None)
        if warm is not None:  # an in-process model: its threads too (LocalE5Provider.warm)
            warm(PROBE_TEXT)
    except ProviderError as exc:
        logger.warning("warm-up: the embedding provider failed: %s", exc)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        logger.warning("warm-up: the database did not answer: %s", exc)
    run_hooks()
    return time.monotonic() - started


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
    from rag import text
    from rag.embeddings import get_provider
    from rag.providers import local

    if not text.is_loaded():
        return False
    if getattr(get_provider(), "local", False) and not local.engine_ran():
        return False
    # A remote provider has nothing to load.
    return all(gate() for gate in _gates)


def trim_heap() -> None:
    """Hand the heap memory this process has freed back to the system (glibc ``malloc_trim``).

    Embedding and request handling free large buffers between calls; glibc keeps them mapped
    (counted in the process's PSS) unless asked. Cheap (about a millisecond), so called after
    each background task and every few requests.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
