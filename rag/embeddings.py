"""Embed texts through the configured provider, never sending the same text twice.

``embed_texts`` looks each text up in a per-process LRU (queries) and in the
``EmbeddingCache`` table keyed by (model, role, sha256 of the text), sends only
the misses to the provider in batches of at most ``provider.max_batch``, and
stores the new vectors in the cache.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict

from django.conf import settings
from django.core.signals import setting_changed
from django.db import IntegrityError, transaction

from rag.providers.embedding import EmbeddingProvider, ProviderError, build_embedding_provider

logger = logging.getLogger(__name__)

__all__ = [
    "ProviderError",
    "content_hash",
    "current_model",
    "embed_query",
    "embed_texts",
    "get_provider",
]

_provider_lock = threading.Lock()
_provider: EmbeddingProvider | None = None
_lru_lock = threading.Lock()
_provider_texts = 0
_lru: OrderedDict[tuple[str, str, str], list[float]] = OrderedDict()
LRU_SIZE = 2048


def content_hash(text: str) -> str:
    """Return the sha256 hex digest of a text (the cache and dirty-check key)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def get_provider() -> EmbeddingProvider:
    """Return this process's embedding provider, built once from settings."""
    global _provider
    with _provider_lock:
        if _provider is None:
            _provider = build_embedding_provider(settings.RAG_EMBEDDING)
        return _provider


def reset_provider(**kwargs) -> None:
    """Forget the provider and the LRU (settings changed, or a test swapped them)."""
    global _provider
    with _provider_lock:
        _provider = None
    with _lru_lock:
        _lru.clear()


def _on_setting_changed(setting, **kwargs):
    if setting == "RAG_EMBEDDING":
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
        return value


def _lru_put(key, value) -> None:
    with _lru_lock:
        _lru[key] = value
        _lru.move_to_end(key)
        while len(_lru) > LRU_SIZE:
            _lru.popitem(last=False)


def embed_texts(texts: list[str], *, role: str = "passage", use_cache: bool = True) -> list:
    """Return one vector (a list of floats) per text, in order.

    Raises ``ProviderError`` when the provider fails; callers degrade.
    """
    from rag.models import EmbeddingCache

    if role not in ("passage", "query"):
        raise ValueError("role must be 'passage' or 'query'")
    if not texts:
        return []
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
        vectors = []
        for start in range(0, len(unique_texts), provider.max_batch):
            vectors.extend(provider.embed(unique_texts[start : start + provider.max_batch], role))
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
    from rag.models import EmbeddingCache

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
    from rag.models import EmbeddingCache

    hashes = _hashes(texts)
    return sum(
        EmbeddingCache.objects.filter(content_hash__in=hashes[start : start + 1000]).count()
        for start in range(0, len(hashes), 1000)
    )


def _hashes(texts) -> list[str]:
    return sorted({content_hash(text) for text in texts if text})


def _store(rows) -> None:
    """Insert cache rows; a concurrent writer of the same key is fine."""
    from rag.models import EmbeddingCache

    try:
        # Savepoint: a failure here must not abort the caller's transaction.
        with transaction.atomic():
            EmbeddingCache.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
    except IntegrityError:  # pragma: no cover - ignore_conflicts makes this rare
        logger.warning("embedding cache insert conflicted; continuing")


def embed_query(text: str) -> list[float]:
    """Return the query-role vector of one text."""
    return embed_texts([text], role="query")[0]
