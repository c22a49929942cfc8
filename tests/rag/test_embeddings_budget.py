"""``rag.embeddings`` under faults: the query cap, the time budget and the circuit breaker."""

from __future__ import annotations

import threading

import pytest

from config import breaker as breaker_module
from rag import embeddings
from rag.providers.embedding import EmbeddingProvider, ProviderError
from rag.providers.local import LocalE5Provider

pytestmark = pytest.mark.django_db


class ScriptedProvider(EmbeddingProvider):
    """A remote-like provider that records texts, may fail, and may wait for ``release``."""

    name = "scripted"

    def __init__(self, *, fail: bool = False, slow: bool = False, local: bool = False):
        self.inner = LocalE5Provider()
        self.model, self.dimensions = self.inner.model, self.inner.dimensions
        self.fail, self.slow, self.local = fail, slow, local
        self.release = threading.Event()
        self.finished = threading.Event()
        self.texts: list[str] = []

    def embed(self, texts, role="passage"):
        self.texts.extend(texts)
        try:
            if self.slow:
                self.release.wait(30)
            if self.fail:
                raise ProviderError("scripted: down", provider=self.name, retryable=True)
            return self.inner.embed(texts, role)
        finally:
            self.finished.set()


@pytest.fixture
def install(monkeypatch):
    """Return ``install(provider)``: make it this process's provider, with an empty LRU."""

    def _install(provider):
        monkeypatch.setattr(embeddings, "_provider", provider)
        embeddings._lru.clear()
        return provider

    yield _install
    embeddings._lru.clear()


def test_query_texts_are_cut_to_the_query_limit(install, settings):
    provider = install(ScriptedProvider())
    settings.RAG_QUERY_MAX_CHARS = 10
    embeddings.embed_texts(["周" * 50], role="query")
    assert provider.texts == ["周" * 10]


def test_passage_texts_are_not_cut_to_the_query_limit(install, settings):
    provider = install(ScriptedProvider())
    settings.RAG_QUERY_MAX_CHARS = 10
    embeddings.embed_texts(["周" * 50], role="passage")
    assert provider.texts == ["周" * 50]


def test_query_slower_than_its_budget_raises_provider_timeout(install):
    provider = install(ScriptedProvider(slow=True))
    try:
        with pytest.raises(embeddings.ProviderTimeout):
            embeddings.embed_query("周末爬山", budget=0.1)
    finally:
        provider.release.set()


def test_result_that_arrives_late_is_kept_for_the_next_query(install):
    provider = install(ScriptedProvider(slow=True))
    with pytest.raises(embeddings.ProviderTimeout):
        embeddings.embed_query("周末爬山", budget=0.1)
    provider.release.set()
    provider.finished.wait(30)
    provider.slow = False
    for _ in range(100):  # the late vector lands in the LRU just after the call returns
        if embeddings._lru:
            break
        threading.Event().wait(0.05)
    provider.texts.clear()
    embeddings.embed_query("周末爬山", budget=5)
    assert provider.texts == []


def test_timeout_of_a_remote_provider_opens_the_breaker(install):
    provider = install(ScriptedProvider(slow=True))
    try:
        with pytest.raises(embeddings.ProviderTimeout):
            embeddings.embed_query("周末爬山", budget=0.1)
        with pytest.raises(embeddings.ProviderUnavailable):
            embeddings.embed_query("看电影", budget=5)
    finally:
        provider.release.set()
    assert "看电影" not in provider.texts


def test_timeout_of_the_local_model_does_not_open_the_breaker(install):
    provider = install(ScriptedProvider(slow=True, local=True))
    try:
        with pytest.raises(embeddings.ProviderTimeout):
            embeddings.embed_query("周末爬山", budget=0.1)
    finally:
        provider.release.set()
    assert embeddings.breaker().allow()


def test_failure_skips_the_provider_during_the_cool_down_then_probes(install, monkeypatch):
    now = [500.0]
    monkeypatch.setattr(breaker_module, "_clock", lambda: now[0])
    provider = install(ScriptedProvider(fail=True))
    with pytest.raises(ProviderError):
        embeddings.embed_query("一", budget=5)
    with pytest.raises(embeddings.ProviderUnavailable):
        embeddings.embed_query("二", budget=5)
    now[0] += embeddings.breaker().cooldown
    provider.fail = False
    embeddings.embed_query("三", budget=5)
    assert provider.texts == ["一", "三"]


def test_background_work_still_calls_the_provider_while_the_breaker_is_open(install):
    provider = install(ScriptedProvider(fail=True))
    with pytest.raises(ProviderError):
        embeddings.embed_query("一", budget=5)
    provider.fail = False
    embeddings.embed_texts(["后台"], role="passage")  # no budget: a task, not a request
    assert "后台" in provider.texts
    assert embeddings.breaker().allow()  # and its success closes the breaker


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (embeddings.ProviderTimeout("t"), "embedding_timeout"),
        (embeddings.ProviderUnavailable("u"), "embedding_unavailable"),
        (ProviderError("e"), "embedding_failed"),
    ],
)
def test_degraded_reason_names_the_fault(error, reason):
    assert embeddings.degraded_reason(error) == reason
