"""The real model's vectors kept between test runs (tests/vector_cache.py)."""

from __future__ import annotations

import pytest

from tests import vector_cache
from tests.fakes.hashing_embedder import HashingEmbeddingProvider

TEXTS = [
    "周末 上海 户外活动 weekend hiking",
    "a quiet evening of jazz near the river",
    "",
    # About 545 tokens, more than one window of the model: embedded piece by piece
    # (rag/providers/local.py), the vector combined in float64.
    "一个很长的活动介绍，" * 90,
]


class Counting(HashingEmbeddingProvider):
    """The stand-in, counting the texts it is asked for."""

    def __init__(self):
        super().__init__(dimensions=384)
        self.asked: list[str] = []

    def _embed_batch(self, texts, role):
        self.asked.extend(texts)
        return super()._embed_batch(texts, role)


@pytest.mark.real_model(cache=False)  # the model itself, in this process, is the reference
@pytest.mark.parametrize("role", ["passage", "query"])
@pytest.mark.parametrize(
    "texts",
    [
        pytest.param(TEXTS[:3], id="short"),
        # The model, always, on a text of two windows, twice a role: 4-5 CPU-seconds each, the
        # most of any test of `make check` (docs/BENCHMARKS.md, "make check"); `make test`
        # runs them.
        pytest.param(TEXTS, id="two-windows", marks=pytest.mark.slow),
    ],
)
def test_a_cached_vector_is_the_models_own_vector(real_embedding_provider, tmp_path, role, texts):
    file = tmp_path / "vectors.npz"
    cold = vector_cache.CachedEmbeddingProvider(real_embedding_provider, file)
    first = cold.embed(texts, role)
    cold.save()
    warm = vector_cache.CachedEmbeddingProvider(real_embedding_provider, file)

    cached = warm.embed(texts, role)
    fresh = [real_embedding_provider.embed([text], role)[0] for text in texts]

    assert (cold.computed, warm.computed) == (len(texts), 0)
    assert first == fresh
    assert cached == fresh


def test_only_texts_not_seen_before_reach_the_provider(tmp_path):
    inner = Counting()
    first = vector_cache.CachedEmbeddingProvider(inner, tmp_path / "v.npz")
    first.embed(["a", "b", "a"], "passage")
    first.save()
    second = vector_cache.CachedEmbeddingProvider(inner, tmp_path / "v.npz")

    second.embed(["b", "c"], "passage")
    second.embed(["b"], "query")  # another role: another vector

    assert inner.asked == ["a", "b", "c", "b"]


def test_two_processes_saving_keep_each_others_vectors(tmp_path):
    inner = Counting()
    file = tmp_path / "v.npz"
    one = vector_cache.CachedEmbeddingProvider(inner, file)
    two = vector_cache.CachedEmbeddingProvider(inner, file)
    one.embed(["a"], "passage")
    two.embed(["b"], "passage")
    one.save()
    two.save()

    assert set(vector_cache.load(file, 384)) == {("passage", "a"), ("passage", "b")}


def test_a_damaged_file_is_ignored_and_rewritten(tmp_path):
    file = tmp_path / "v.npz"
    file.write_bytes(b"not a numpy archive")
    inner = Counting()

    with pytest.warns(UserWarning, match="not read"):
        cache = vector_cache.CachedEmbeddingProvider(inner, file)
        vector = cache.embed(["a"], "passage")
        cache.save()  # merged with what the file holds: nothing

    assert inner.asked == ["a"]
    assert vector == inner.embed(["a"], "passage")
    assert list(vector_cache.load(file, 384)) == [("passage", "a")]


def test_a_file_of_vectors_of_another_size_is_not_read(tmp_path):
    file = tmp_path / "v.npz"
    cache = vector_cache.CachedEmbeddingProvider(Counting(), file)
    cache.embed(["a"], "passage")
    cache.save()

    with pytest.warns(UserWarning, match="not a file of this cache"):
        assert vector_cache.load(file, 768) == {}


def test_another_model_reads_another_file():
    assert vector_cache.key(Counting()) != vector_cache.key(HashingEmbeddingProvider(dimensions=8))


@pytest.mark.parametrize(
    ("env", "enabled"),
    [({}, True), ({"CI": "true"}, False), ({"TEST_VECTOR_CACHE": "off"}, False)],
)
def test_the_cache_is_off_under_ci_and_when_turned_off(monkeypatch, env, enabled):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("TEST_VECTOR_CACHE", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    assert vector_cache.enabled() is enabled
