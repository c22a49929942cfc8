"""Read what a query asks for from two sets of example requests, for any embedding model.

The relevance gate (``rag.relevance``) reads a query against the candidates a search found;
a query that asks for something the surface does not offer at all ("明天会下雨吗", "is the
stock market up today") can still sit close to a few of them through a shared word (a rainy-day
event, a talk on investing). Whether a request is for the surface's things at all is a property
of the request, not of the rows a filter left: this module compares the query with a small
set of example requests *for* the surface (``on``) and one of everyday requests that belong
*elsewhere* (``off``): weather, money, health, paperwork, repairs, shopping, news...

``learned_score`` reads the query against weights fitted on labelled queries instead of examples
(a logistic regression over the query vector, per model; the surface's data file says which sets
it was fitted on): above 0 it reads as a request for something else. A model the file holds no
weights for reads None, and the surface falls back to the margin alone.

``intent_margin`` is the query's mean similarity to its closest ``off`` examples minus that to
its closest ``on`` examples: above 0 it reads more like a request for something else. The surface
decides the threshold (the live cut's ``intentGate``, per model: similarities are a property
of the model). Example sets are plain text files, one request a line, embedded once per model
and process with the query role (request compared with request) and kept in the shared
embedding cache. Business-agnostic: the surface passes its own files.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from django.conf import settings

from config.breaker import CLOSED
from rag import embeddings
from rag.background import model_key

# A query is read against the mean of its NEIGHBOURS closest examples of each set, not the
# single closest: one example sharing a word ("练英语口语" and "帮我翻译这句话") sways a single
# neighbour. Fitted on held-out dev (bench/activities_heldout.py --split dev, replayed by
# bench/activities_fit_cut.py): the highest labelled query's margin to the lowest off-topic
# one above it, 0.017 -> 0.0175 with 1, 0.0069 -> 0.0160 with 2, 0.0026 -> 0.0138 with 3.
NEIGHBOURS = 3

_lock = threading.Lock()
_examples: dict[tuple[str, str], np.ndarray] = {}
_building: dict[tuple[str, str], threading.Lock] = {}
_learned: dict[str, dict] = {}


def example_texts(path: Path) -> list[str]:
    """Return the example requests of a file (comment and blank lines skipped)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def example_vectors(path: Path) -> np.ndarray:
    """Return the example requests of ``path`` embedded (query role) by the active model.

    Embedded once per (model, file) and process, like the relevance reference sample; a hosted
    provider gets the search time budget. Raises ``ProviderError`` like any embed.
    """
    budget = None if embeddings.get_provider().local else settings.SEARCH_TIME_BUDGET_SECONDS
    return embedded_examples(str(path), example_texts(path), budget=budget)


def embedded_examples(name: str, texts: Sequence[str], *, budget: float | None) -> np.ndarray:
    """Return ``texts`` embedded by the active model (query role, unit rows), once per
    (model, ``name``) and process.

    One build per key at a time: a caller arriving during a build waits for it rather than
    embed the same texts again (the agent router's examples, built by every chat turn at once,
    queued every search behind them: docs/SERVING.md, "Streams beside searches"). ``budget``
    as ``embed_texts``: a build it cuts raises and the next call builds again.
    """
    # Keyed by the model that makes the vectors, not by the provider serving it.
    key = (embeddings.current_model(), name)
    with _lock:
        cached = _examples.get(key)
        building = _building.setdefault(key, threading.Lock())
    if cached is not None:
        return cached
    with building:
        with _lock:
            cached = _examples.get(key)
        if cached is not None:
            return cached  # built by the caller this one waited for
        matrix = np.asarray(
            embeddings.embed_texts(list(texts), role="query", budget=budget), dtype=np.float32
        )
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        with _lock:
            _examples[key] = matrix
    return matrix


def provider_answering() -> bool:
    """Return whether the embedding provider's last call in this process did not fail.

    Warm-ups ask this before embedding an example set without a budget: after a failed probe
    they leave the set to the first request, which embeds it under the search budget, rather
    than wait on a provider that is down (or ask it for hundreds of texts in an outage).
    """
    return embeddings.breaker().snapshot().state == CLOSED


def closest(vector: Sequence[float], examples: np.ndarray, k: int = NEIGHBOURS) -> float:
    """Return the mean similarity of a vector to its ``k`` closest examples (unit rows)."""
    if not len(examples):
        return -1.0
    q = np.asarray(vector, dtype=np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    sims = examples @ q
    k = max(1, min(k, len(sims)))
    return float(np.mean(np.partition(sims, len(sims) - k)[-k:]))


def intent_margin(vector: Sequence[float], on: np.ndarray, off: np.ndarray) -> float:
    """Return how much closer the query is to requests for something else than to requests for
    the surface's things (> 0: reads like a request for something else)."""
    return closest(vector, off) - closest(vector, on)


def intent_margin_of(vector: Sequence[float], on_file: Path, off_file: Path) -> float:
    """Return :func:`intent_margin` against the example files of a surface (embedded once)."""
    return intent_margin(vector, example_vectors(on_file), example_vectors(off_file))


def learned_weights(path: Path, key: str) -> tuple[np.ndarray, float] | None:
    """Return (weights, bias) stored in the data file ``path`` for model ``key``, or None when
    the file holds none for it (read once per file and process)."""
    name = str(path)
    with _lock:
        stored = _learned.get(name)
    if stored is None:
        stored = json.loads(Path(path).read_text(encoding="utf-8")).get("models", {})
        with _lock:
            _learned[name] = stored
    entry = stored.get(key)
    if not entry:
        return None
    return np.asarray(entry["weights"], dtype=np.float32), float(entry["bias"])


def learned_score(vector: Sequence[float], path: Path) -> float | None:
    """Return the learned gate's score of a query vector (> 0: reads as a request for something
    else) with the active model's weights in ``path``; None when it holds none for that model
    or they do not fit the vector (another model: the surface reads the margin alone)."""
    fitted = learned_weights(path, model_key())
    q = np.asarray(vector, dtype=np.float32)
    if fitted is None or fitted[0].shape != q.shape:
        return None
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    return float(fitted[0] @ q) + fitted[1]


def reset() -> None:
    """Forget the embedded examples and the learned weights read (tests that switch
    providers)."""
    with _lock:
        _examples.clear()
        _learned.clear()
