"""A deterministic stand-in embedding provider for tests that need some vector, not a meaning.

Each text becomes a unit vector of the configured dimension: its lower-cased characters and
character pairs hashed (BLAKE2b, so the same on every run and machine) into signed buckets,
then normalised. Texts sharing words therefore land near each other and the same text always
gets the same vector, which is all an API, validation, admin or task test asks of a vector; it
costs microseconds and loads no model. Relevance and quality tests keep the real model: they
are marked ``real_model`` (tests/conftest.py, docs/DEVELOPING.md "Tests").

Selected by ``config.settings_test`` (``TEST_EMBEDDING=stand-in``, the default there).
"""

from __future__ import annotations

import hashlib
import math

from rag.providers.embedding import EmbeddingProvider

MODEL = "test-hashing-stand-in"


class HashingEmbeddingProvider(EmbeddingProvider):
    """Embed by hashing character unigrams and bigrams into ``dimensions`` signed buckets."""

    name = "hashing"
    model = MODEL
    max_batch = 256
    local = True

    def __init__(self, dimensions: int = 384, **ignored):
        self.dimensions = int(dimensions)

    def _embed_batch(self, texts: list[str], role: str) -> list[list[float]]:
        return [self.vector(text) for text in texts]

    def vector(self, text: str) -> list[float]:
        """Return the unit vector of ``text`` (the first axis for a text with no characters)."""
        values = [0.0] * self.dimensions
        chars = [c for c in text.lower() if not c.isspace()]
        for feature in chars + [a + b for a, b in zip(chars, chars[1:], strict=False)]:
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dimensions
            values[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = math.sqrt(sum(v * v for v in values))
        if norm == 0.0:
            values[0] = 1.0
            return values
        return [v / norm for v in values]
