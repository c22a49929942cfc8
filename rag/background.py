"""The background of a query: its similarity to a fixed sample of everyday text.

How far a hit stands above that background is what the relevance cut reads (rag/relevance.py),
whatever the model's scale: the reference sample (``rag/fixtures/background.txt``) is embedded
once per model and process and kept in the shared embedding cache. ``model_key`` names the
model that fitted parameters and cached vectors belong to.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings

from rag.embeddings import embed_texts, get_provider

REFERENCE_FILE = Path(__file__).resolve().parent / "fixtures" / "background.txt"
BACKGROUND_PERCENTILE = 90.0

_lock = threading.Lock()
_reference: dict[str, np.ndarray] = {}


@dataclass(frozen=True)
class Background:
    """Where a query's similarity to unrelated text sits: its mean and 90th percentile."""

    mean: float
    high: float

    def margin(self, score: float) -> float:
        """Return how far ``score`` stands above the background, as a share of what is left."""
        return (float(score) - self.high) / max(1.0 - self.high, 1e-6)


def model_key(provider=None) -> str:
    """Return the key fitted parameters are stored under: ``provider:model@dimensions``."""
    if provider is None:
        provider = get_provider()
    return f"{provider.name}:{provider.model}@{provider.dimensions}"


def reference_texts() -> list[str]:
    """Return the reference sample's texts (comment and blank lines skipped)."""
    lines = REFERENCE_FILE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def reference_vectors() -> np.ndarray:
    """Return the reference sample embedded (passage role) by the active model, unit length.

    Embedded once per model and process (and kept in the shared embedding cache, so a restart
    reads them back instead of embedding them again). Raises ``ProviderError`` like any embed.
    """

    provider = get_provider()
    key = model_key(provider)
    with _lock:
        cached = _reference.get(key)
    if cached is not None:
        return cached
    # A hosted provider gets the search time budget (and is skipped while its breaker is open),
    # so an outage costs a search no more than the query embedding would; the in-process model
    # is slow when busy, never down, and a cut skipped for want of patience would be wrong.
    budget = None if provider.local else settings.SEARCH_TIME_BUDGET_SECONDS
    texts = reference_texts()
    matrix = np.asarray(embed_texts(texts, role="passage", budget=budget), dtype=np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    with _lock:
        _reference[key] = matrix
    return matrix


def background_of(vector: Sequence[float], reference: np.ndarray | None = None) -> Background:
    """Return the background of a query vector (its similarities to the reference sample)."""
    reference = reference_vectors() if reference is None else reference
    q = np.asarray(vector, dtype=np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    sims = reference @ q
    return Background(
        mean=float(sims.mean()), high=float(np.percentile(sims, BACKGROUND_PERCENTILE))
    )
