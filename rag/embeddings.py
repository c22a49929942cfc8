"""Embed texts through the configured provider, never sending the same text twice.

``embed_texts`` looks each text up in a per-process LRU (queries) and in the
``EmbeddingCache`` table keyed by (model, role, sha256 of the text), sends only
the misses to the provider in batches of at most ``provider.max_batch``, and
stores the new vectors in the cache.

Callers that answer a user pass a ``budget`` (``embed_query`` always does): the provider then
runs in a small thread pool and the caller waits at most that many seconds, then gets
:class:`ProviderTimeout` and degrades; a result that arrives late still fills the LRU. A
per-process circuit breaker (``config.breaker``) remembers a failure or a timeout for
``EMBEDDING_BREAKER_COOLDOWN_SECONDS``; meanwhile budgeted calls raise
:class:`ProviderUnavailable` at once instead of waiting again. Query-role texts are cut to
``RAG_QUERY_MAX_CHARS`` characters whatever the caller sent (the API rejects longer ones).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from array import array
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.signals import setting_changed
from django.db import IntegrityError, transaction

from config import timing
from config.breaker import CLOSED, OPEN, CircuitBreaker
from config.userdata import TextCache
from rag.models import EmbeddingCache
from rag.providers.embedding import (
    EmbeddingProvider,
    ProviderError,
    build_embedding_provider,
    give_up_at,
)

logger = logging.getLogger(__name__)

__all__ = [
    "DEGRADED_REASONS",
    "ProviderError",
    "ProviderTimeout",
    "ProviderUnavailable",
    "breaker",
    "content_hash",
    "degraded_reason",
    "current_model",
    "embed_query",
    "embed_texts",
    "get_provider",
]

_provider_lock = threading.Lock()
_provider: EmbeddingProvider | None = None
_breaker: CircuitBreaker | None = None
# Threads that run budgeted provider calls; a call past its deadline keeps its thread until it
# ends, so the pool bounds how many late calls one process can pile up.
POOL_SIZE = 4
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_lru_lock = threading.Lock()
_provider_texts = 0
_lru: OrderedDict[tuple[str, str, str], list[float]] = OrderedDict()
LRU_SIZE = 2048


def content_hash(text: str) -> str:
    """Return the sha256 hex digest of a text (the cache and dirty-check key)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ProviderTimeout(ProviderError):
    """Raise when a budgeted call did not finish in time (the call itself goes on)."""

    reason = "embedding_timeout"


class ProviderUnavailable(ProviderError):
    """Raise when the breaker is open: the provider failed moments ago, so it is skipped."""

    reason = "embedding_unavailable"


PROVIDER_UNREACHABLE = "provider unreachable"


def public_provider_error(exc: BaseException | None = None) -> str:
    """Return what a client may be told of a provider failure; the detail goes to the log.

    A provider's error text names its URL (an internal host, a key in a query string) and
    quotes its answer: neither reaches a user (``index_error``) or an anonymous caller
    (``/api/health``). Only the kind of failure does.
    """
    if isinstance(exc, ProviderTimeout):
        return "provider did not answer in time"
    status = getattr(exc, "status", None)
    if isinstance(status, int):
        return f"provider answered HTTP {status}"
    return PROVIDER_UNREACHABLE


# Every reason a degraded search may give (``degraded_reason``), for the API schemas.
DEGRADED_REASONS = ("embedding_failed", "embedding_timeout", "embedding_unavailable")


def degraded_reason(exc: Exception) -> str:
    """Return the short code a degraded answer gives for why it could not embed."""
    return getattr(exc, "reason", None) or "embedding_failed"


def get_provider() -> EmbeddingProvider:
    """Return this process's embedding provider, built once from settings."""
    global _provider
    with _provider_lock:
        if _provider is None:
            _provider = build_embedding_provider(settings.RAG_EMBEDDING)
        return _provider


def breaker() -> CircuitBreaker:
    """Return this process's circuit breaker of the embedding provider."""
    global _breaker
    with _provider_lock:
        if _breaker is None:
            _breaker = CircuitBreaker(
                "embedding", cooldown=settings.EMBEDDING_BREAKER_COOLDOWN_SECONDS
            )
        return _breaker


def reset_provider(**kwargs) -> None:
    """Forget the provider, its breaker and the LRU (settings changed, or a test swapped them)."""
    global _provider, _breaker
    with _provider_lock:
        _provider = None
        _breaker = None
    with _lru_lock:
        _lru.clear()


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=POOL_SIZE, thread_name_prefix="embed")
        return _pool


def _forget_pool_after_fork() -> None:
    # The pool's threads do not exist in a forked child (django-q2 forks its workers).
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_pool_after_fork)


def _on_setting_changed(setting, **kwargs):
    if setting in ("RAG_EMBEDDING", "EMBEDDING_BREAKER_COOLDOWN_SECONDS"):
        reset_provider()


setting_changed.connect(_on_setting_changed)


def current_model() -> str:
    """Return the model name recorded next to every vector made now."""
    return get_provider().model


def _lru_get(key):
    with _lru_lock:
        value = _lru.get(key)
        if value is not None:
            _lru.move_to_end(key)
    return None if value is None else value.tolist()


def _lru_put(key, value) -> None:
    # 4 bytes a dimension instead of a Python float's 32: a full LRU is ~3 MB, not ~25 MB,
    # in every process. Lossless: the vectors are float32 (the model's and pgvector's).
    packed = array("f", value)
    with _lru_lock:
        _lru[key] = packed
        _lru.move_to_end(key)
        while len(_lru) > LRU_SIZE:
            _lru.popitem(last=False)


def embed_texts(
    texts: list[str],
    *,
    role: str = "passage",
    use_cache: bool = True,
    budget: float | None = None,
) -> list:
    """Return one vector (a list of floats) per text, in order.

    ``budget``: the most seconds to wait for the provider (None: wait as long as it takes,
    for background work). Raises ``ProviderError`` when the provider fails, or its subclasses
    ``ProviderTimeout`` / ``ProviderUnavailable`` for a budgeted call; callers degrade.
    """
    if role not in ("passage", "query"):
        raise ValueError("role must be 'passage' or 'query'")
    if not texts:
        return []
    if role == "query":
        # Defence in depth behind the API's own limit: one request embeds a bounded text.
        cap = settings.RAG_QUERY_MAX_CHARS
        texts = [text[:cap] for text in texts]
    provider = get_provider()
    # The dimension is part of the key: the same remote model can be asked for fewer.
    model = f"{provider.model}@{provider.dimensions}"
    hashes = [content_hash(t) for t in texts]
    results: list = [None] * len(texts)
    missing: dict[str, list[int]] = {}
    for i, h in enumerate(hashes):
        cached = _lru_get((model, role, h)) if use_cache else None
        if cached is not None:
            results[i] = cached
        else:
            missing.setdefault(h, []).append(i)
    if missing and use_cache:
        rows = EmbeddingCache.objects.filter(
            model=model, role=role, content_hash__in=list(missing)
        ).values_list("content_hash", "vector")
        for h, vector in rows:
            vec = [float(x) for x in vector]
            for i in missing.pop(h, []):
                results[i] = vec
            _lru_put((model, role, h), vec)
    if missing:
        order = list(missing)
        unique_texts = [texts[missing[h][0]] for h in order]
        late_keys = [(model, role, h) for h in order] if use_cache else None
        with timing.span("embed"):
            vectors = _call_provider(
                provider, unique_texts, role, budget=budget, late_keys=late_keys
            )
        global _provider_texts
        _provider_texts += len(unique_texts)
        new_rows = []
        for h, vec in zip(order, vectors, strict=True):
            vec = [float(x) for x in vec]
            for i in missing[h]:
                results[i] = vec
            if use_cache:  # a caller that opts out keeps its texts out of both caches
                _lru_put((model, role, h), vec)
            new_rows.append(EmbeddingCache(model=model, role=role, content_hash=h, vector=vec))
        if use_cache:
            _store(new_rows)
    return results


def provider_texts() -> int:
    """Return how many texts this process has sent to the provider so far.

    Lets work that runs within a time budget tell real progress from cache hits.
    """
    return _provider_texts


def embedding_cache_forget(*, texts) -> int:
    """Delete the cached vectors of these texts (every model and role); return the rows deleted.

    Used when a user's data is erased. The database rows go in the caller's transaction; this
    process's LRU entries go at once. Other processes' LRUs (at most ``LRU_SIZE`` vectors each,
    never written to disk) keep theirs until evicted or restarted.
    """
    hashes = _hashes(texts)
    wanted = set(hashes)
    with _lru_lock:
        for key in [key for key in _lru if key[2] in wanted]:
            del _lru[key]
    deleted = 0
    for start in range(0, len(hashes), 1000):
        batch = hashes[start : start + 1000]
        deleted += EmbeddingCache.objects.filter(content_hash__in=batch).delete()[0]
    return deleted


def embedding_cache_count(*, texts) -> int:
    """Return how many cached vectors (every model and role) these texts have."""
    hashes = _hashes(texts)
    return sum(
        EmbeddingCache.objects.filter(content_hash__in=hashes[start : start + 1000]).count()
        for start in range(0, len(hashes), 1000)
    )


def _hashes(texts) -> list[str]:
    return sorted({content_hash(text) for text in texts if text})


def embedding_cache_forget_hashes(hashes: list[str]) -> int:
    """Delete cached vectors of erased texts that a task running during the erasure stored."""
    return EmbeddingCache.objects.filter(content_hash__in=hashes).delete()[0]


def text_cache() -> TextCache:
    """Describe the embedding cache to the platform's user-data registry (erasure, export)."""
    return TextCache(
        count=lambda texts: embedding_cache_count(texts=texts),
        forget=lambda texts: embedding_cache_forget(texts=texts),
        keys=_hashes,
        forget_late="rag.embeddings.embedding_cache_forget_hashes",
    )


def _store(rows) -> None:
    """Insert cache rows; a concurrent writer of the same key is fine."""
    try:
        # Savepoint: a failure here must not abort the caller's transaction.
        with transaction.atomic():
            EmbeddingCache.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
    except IntegrityError:  # pragma: no cover - ignore_conflicts makes this rare
        logger.warning("embedding cache insert conflicted; continuing")


def _embed_all(provider: EmbeddingProvider, texts: list[str], role: str) -> list:
    vectors = []
    for start in range(0, len(texts), provider.max_batch):
        vectors.extend(provider.embed(texts[start : start + provider.max_batch], role))
    return vectors


def _call_provider(provider, texts: list[str], role: str, *, budget, late_keys) -> list:
    """Run the provider, through the breaker, within ``budget`` seconds when one is given.

    Every outcome is recorded in the breaker; only budgeted calls are refused while it is
    open (background work waits for the provider as before, and its own retries apply).
    """
    gate = breaker()
    name = getattr(provider, "name", type(provider).__name__)
    # Duck-typed providers (tests, plug-ins) may lack the flag: treat them as remote.
    local = bool(getattr(provider, "local", False))
    if budget is None:
        try:
            vectors = _embed_all(provider, texts, role)
        except ProviderError as exc:
            gate.failure(str(exc))
            raise
        gate.success()
        return vectors
    if not gate.allow():
        snap = gate.snapshot()
        raise ProviderUnavailable(
            f"{name}: skipped for {snap.retry_in or 0:.1f} s more after a failure: "
            f"{snap.last_error}",
            provider=name,
            retryable=True,
        )
    started = time.monotonic()
    waiting = threading.Event()  # cleared when the caller gave up
    waiting.set()

    def job():
        if not waiting.is_set():
            return None  # queued until after its deadline: nobody waits for it any more
        try:
            # No retry past the deadline; an HTTP attempt may end one budget later at most.
            with give_up_at(started + float(budget), grace=float(budget)):
                vectors = _embed_all(provider, texts, role)
        except ProviderError as exc:
            gate.failure(str(exc))
            raise
        except Exception as exc:
            gate.failure(f"{type(exc).__name__}: {exc}")
            raise
        if waiting.is_set() or local:
            # A remote answer that came too late keeps the breaker open: too slow to wait for.
            gate.success()
        if not waiting.is_set() and late_keys is not None:
            # Too late for its caller; the next request with the same text finds it here.
            for key, vec in zip(late_keys, vectors, strict=True):
                _lru_put(key, [float(x) for x in vec])
        return vectors

    future = _get_pool().submit(job)
    try:
        return future.result(timeout=max(float(budget), 0.0))
    except ProviderError:
        raise
    except TimeoutError:
        waiting.clear()
        elapsed = time.monotonic() - started
        message = f"{name}: no embedding within the {budget:g} s budget"
        if not local:
            # A remote provider this slow is as good as down for interactive callers. The
            # local model is only busy: tripping the breaker would degrade everybody else.
            gate.failure(message)
        logger.warning("%s (waited %.2f s)", message, elapsed)
        raise ProviderTimeout(message, provider=name, retryable=True) from None
    except Exception as exc:  # a bug or an unexpected library error: still only degrade
        logger.exception("embedding provider %s failed", name)
        raise ProviderError(f"{name}: {type(exc).__name__}: {exc}", provider=name) from exc


def embed_query(text: str, *, use_cache: bool = True, budget: float | None = None) -> list[float]:
    """Return the query-role vector of one text, within the search time budget.

    ``budget`` defaults to ``SEARCH_TIME_BUDGET_SECONDS``; on timeout or an open breaker the
    ``ProviderError`` subclasses above are raised for the caller to degrade.
    """
    if budget is None:
        budget = settings.SEARCH_TIME_BUDGET_SECONDS
    return embed_texts([text], role="query", use_cache=use_cache, budget=budget)[0]


def search_budget() -> float:
    """Return the seconds an interactive caller may wait for an embedding."""
    return float(settings.SEARCH_TIME_BUDGET_SECONDS)


# Seconds /api/health waits for its probe (a cheap one-word embedding).
HEALTH_PROBE_BUDGET = 2.0


def provider_health() -> dict:
    """Return the provider's state for /api/health: ok, failing or unknown, and the last error.

    The breaker's record answers when it has one; otherwise (nothing called the provider in
    this process yet, or its cool-down has passed) a one-word probe decides, through the
    breaker and within ``HEALTH_PROBE_BUDGET`` seconds, bypassing the caches.
    """
    gate = breaker()
    snap = gate.snapshot()
    checked = "recent calls"
    if not (snap.state == OPEN and snap.retry_in) and not (snap.state == CLOSED and snap.known):
        checked = "probe"
        try:
            embed_texts(["health"], role="query", use_cache=False, budget=HEALTH_PROBE_BUDGET)
        except ProviderTimeout as exc:
            if getattr(get_provider(), "local", False):  # loading or busy, not down
                return {
                    "state": "unknown",
                    "last_error": public_provider_error(exc),
                    "checked": checked,
                }
        except ProviderError:
            pass
        snap = gate.snapshot()
    if snap.state == CLOSED and snap.known:
        return {"state": "ok", "last_error": None, "checked": checked}
    # Anybody may read the health answer: the detail (URL, answer) only in the server's log.
    logger.warning("embedding provider failing: %s", snap.last_error)
    return {
        "state": "failing",
        "last_error": PROVIDER_UNREACHABLE,
        "checked": checked,
        "retry_in_seconds": None if snap.retry_in is None else round(snap.retry_in, 1),
    }
