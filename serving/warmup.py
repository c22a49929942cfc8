"""How a process of ``manage.py serve`` warms up: the one place that decides it.

Two steps, each run once:

- :func:`preload`, in serve's own process before it forks the worker clusters and gunicorn's
  web processes: jieba's dictionary, the embedding model loaded (not run), the configured LLM
  provider (a hosted one with its SDK), the URL conf with every app's views and serializers,
  and what numpy would import on first use (``numpy.ma``, imported with this module). The
  children find them loaded and share those pages copy-on-write (``gc.freeze`` keeps their
  collectors off them). The model does not run here: OpenMP cannot
  run a parallel region in a child forked after its parent ran one.
- :func:`warm_up`, in each web process before its first ``accept`` (gunicorn's
  ``post_worker_init``, serving/web.py): one query segmented and embedded (the model's
  first run in this process), one database round trip, and each app's warm-up search
  (``rag.warmup.register``), so the first user's search takes the path of the hundredth.

``/api/health`` says ``ready`` (``rag.warmup.is_ready``) once this process has run the model and
every web process has warmed up (the gate serving/web.py adds).
"""

from __future__ import annotations

import gc
import logging
import time

# numpy imports numpy.ma on first use of np.unique, np.percentile or np.median (through
# np.ma.is_masked): 6.5 MiB of Python objects that each web process (its warm-up search) and
# each worker that ranks or chunks imported for itself after the fork (measured in a child
# forked after preload, 2026-11-26). Imported here, in serve's process, every process shares it.
import numpy.ma  # noqa: F401
from django.db import DatabaseError, connection, connections
from django.urls import get_resolver

from rag import text
from rag.embeddings import ProviderError, embed_texts, get_provider
from rag.llm import get_llm
from rag.warmup import PROBE_TEXT, run_hooks

logger = logging.getLogger(__name__)


def preload() -> None:
    """Load in this process what every process forked from it needs; then freeze it.

    Call last before forking: no database connection is left open (a connection must never be
    shared by two processes), and the objects made so far are frozen out of the collector.
    """
    text.warm_up()
    load = getattr(get_provider(), "load", None)  # an in-process model: load, never run
    if load is not None:
        try:
            load()
        except Exception:  # noqa: BLE001 - a provider that cannot load fails on first use
            logger.warning("preload: the embedding model did not load", exc_info=True)
    # A hosted LLM (LLM_PROVIDER=openai) brings the openai SDK and what it imports (httpx,
    # pydantic, anyio: 25 MiB and 0.8 s of CPU here). Built on first use instead, each web
    # process and each worker that called the LLM imported its own copy: the web processes
    # grew from 47 to 74 MiB of PSS after a few chat streams, the bulk worker that summarised
    # from 24 to 69 MiB (bench/serving.py, 2026-11-26). Built here, every process shares it.
    # The client opens no connection until it is asked something, so none crosses the fork.
    try:
        get_llm()
    except Exception:  # noqa: BLE001 - a provider that cannot be built fails on first use
        logger.warning("preload: the LLM provider could not be built", exc_info=True)
    get_resolver().url_patterns  # noqa: B018 - imports every app's views and serializers
    connections.close_all()
    gc.collect()
    gc.freeze()


def warm_up() -> float:
    """Make this process ready for traffic; return the seconds it took.

    A failing provider or database is logged, not raised: searches degrade until it recovers.
    """
    started = time.monotonic()
    text.warm_up()
    text.segment_query(PROBE_TEXT)
    try:
        embed_texts([PROBE_TEXT], role="query", use_cache=False)
    except ProviderError as exc:
        logger.warning("warm-up: the embedding provider failed: %s", exc)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        logger.warning("warm-up: the database did not answer: %s", exc)
    run_hooks()
    return time.monotonic() - started
