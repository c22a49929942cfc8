"""Talk to a chat model through an OpenAI-compatible ``/chat/completions`` endpoint.

``build_llm_provider(settings.RAG_LLM)`` returns an :class:`LLMProvider`:
``chat`` answers with a :class:`ChatResult`, ``stream`` yields
:class:`StreamEvent` objects ("delta" pieces of text, whole "tool_call"s, one
final "done"), and ``complete`` is a one-prompt shortcut. Without a configured
model, :class:`NoLLM` raises :class:`LLMUnavailable` so callers can degrade.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from rag.providers.embedding import HostedClient, ProviderError, build_from_config

logger = logging.getLogger(__name__)

__all__ = [
    "ChatResult",
    "LLMProvider",
    "LLMUnavailable",
    "NoLLM",
    "OpenAIChatProvider",
    "ProviderError",
    "StreamEvent",
    "ToolCall",
    "build_llm_provider",
]


class LLMUnavailable(ProviderError):
    """Raise when no language model is configured."""


@dataclass
class ToolCall:
    """One function call the model asked for."""

    id: str
    name: str
    arguments: dict

    def to_openai(self) -> dict:
        """Return the call in the shape an assistant message's ``tool_calls`` takes."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": json.dumps(self.arguments)},
        }


@dataclass
class ChatResult:
    """The model's answer: text, requested tool calls, and why it stopped."""

    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str = "stop"
    raw: dict = field(default_factory=dict)

    def to_message(self) -> dict:
        """Return the assistant message to append to the conversation before tool results."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        return message


@dataclass
class StreamEvent:
    """One event of a streamed answer."""

    type: Literal["delta", "tool_call", "done"]
    text: str = ""
    tool_call: ToolCall | None = None
    finish_reason: str | None = None


class LLMProvider:
    """Base class for chat models."""

    name: str = "base"
    model: str = ""
    enabled: bool = True

    def chat(
        self,
        messages: list[dict],
        *,
        tools: list[dict] | None = None,
        temperature: float = 0.2,
        max_tokens: int | None = None,
    ) -> ChatResult:
        """Return the model's answer to the conversation."""
        raise NotImplementedError

    def stream(
        self,
        messages: list[dict],
        *,
        tools: list[dict] | None = None,
        temperature: float = 0.2,
        max_tokens: int | None = None,
    ) -> Iterator[StreamEvent]:
        """Yield the answer as events; this default wraps one ``chat`` call."""
        result = self.chat(messages, tools=tools, temperature=temperature, max_tokens=max_tokens)
        return _replay(result)

    def complete(self, prompt: str, *, system: str | None = None, max_tokens=None) -> str:
        """Return the model's reply to one user prompt."""
        messages = [{"role": "system", "content": system}] if system else []
        messages.append({"role": "user", "content": prompt})
        return self.chat(messages, max_tokens=max_tokens).content

    def close(self) -> None:
        """Release connections (a no-op by default)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.model!r}>"


def _replay(result: ChatResult) -> Iterator[StreamEvent]:
    if result.content:
        yield StreamEvent("delta", text=result.content)
    for call in result.tool_calls:
        yield StreamEvent("tool_call", tool_call=call)
    yield StreamEvent("done", finish_reason=result.finish_reason)


class NoLLM(LLMProvider):
    """Stand in when no model is configured: every call raises ``LLMUnavailable``."""

    name = "none"
    model = ""
    enabled = False

    def __init__(self, **options):
        pass

    def chat(self, messages, *, tools=None, temperature=0.2, max_tokens=None) -> ChatResult:
        # stream() and complete() call chat() before anything else: they refuse the same way.
        raise LLMUnavailable(
            "No language model is configured: set LLM_PROVIDER=openai with LLM_BASE_URL, "
            "LLM_MODEL and LLM_API_KEY (RAG_LLM).",
            provider=self.name,
        )


class OpenAIChatProvider(LLMProvider):
    """Chat through ``POST {base_url}/chat/completions`` (OpenAI, Zhipu, Ollama, vLLM, ...)."""

    name = "openai"

    def __init__(
        self,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 4,
    ):
        if not model:
            raise ValueError("The openai LLM provider needs a model: set LLM_MODEL (RAG_LLM).")
        self.model = model
        self.hosted = HostedClient(
            provider=self.name,
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            setting_prefix="LLM_",
        )

    def close(self) -> None:
        """Close pooled connections."""
        self.hosted.close()

    def _create(self, messages, tools, temperature, max_tokens, stream: bool):
        body: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "temperature": temperature,
        }
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if tools:
            body["tools"] = list(tools)  # OpenAI's function-calling format
        if stream:
            body["stream"] = True
        return self.hosted.call(
            lambda client, headers: client.chat.completions.create(**body, extra_headers=headers)
        )

    def chat(self, messages, *, tools=None, temperature=0.2, max_tokens=None) -> ChatResult:
        """Return the model's answer; tool-call arguments arrive parsed into dicts."""
        data = self.hosted.answer(self._create(messages, tools, temperature, max_tokens, False))
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices:
            raise self.hosted.error("answer has no choices")
        choice = choices[0]
        message = choice.get("message") or {}
        calls = [
            _tool_call(
                call.get("id") or f"call_{i}",
                (call.get("function") or {}).get("name", ""),
                (call.get("function") or {}).get("arguments"),
            )
            for i, call in enumerate(message.get("tool_calls") or [])
        ]
        finish = choice.get("finish_reason") or ("tool_calls" if calls else "stop")
        return ChatResult(message.get("content") or "", calls, finish, data)

    def stream(self, messages, *, tools=None, temperature=0.2, max_tokens=None):
        """Return an iterator of events; HTTP errors raise here, before the first event.

        Close the iterator (or use it in a ``with`` block) when abandoning it early.
        """
        chunks = self._create(messages, tools, temperature, max_tokens, True)
        return _EventStream(chunks, self.hosted)


def _tool_call(call_id: str, name: str, arguments) -> ToolCall:
    """Build a ToolCall, decoding the JSON argument string the model produced."""
    if isinstance(arguments, dict):
        return ToolCall(call_id, name, arguments)
    text = (arguments or "").strip()
    try:
        parsed = json.loads(text) if text else {}
    except ValueError as exc:
        raise ProviderError(
            f"openai: the model called tool {name!r} with invalid JSON arguments "
            f"({exc}): {text[:200]!r}",
            provider="openai",
        ) from exc
    if not isinstance(parsed, dict):
        raise ProviderError(
            f"openai: tool {name!r} arguments must be a JSON object, got {text[:200]!r}",
            provider="openai",
        )
    return ToolCall(call_id, name, parsed)


class _EventStream:
    """Turn the SDK's stream of chat-completion chunks into StreamEvents."""

    def __init__(self, chunks, hosted: HostedClient):
        self._chunks = chunks
        self._hosted = hosted
        self._events = self._generate()

    def __iter__(self):
        return self

    def __next__(self) -> StreamEvent:
        return next(self._events)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def close(self) -> None:
        """Stop reading and release the connection."""
        self._events.close()
        self._chunks.close()

    def __del__(self):
        # An abandoned stream, even one never iterated, gives its connection back.
        chunks = getattr(self, "_chunks", None)
        if chunks is not None:
            chunks.close()

    def _dicts(self) -> Iterator[dict]:
        try:
            for chunk in self._chunks:
                yield chunk.to_dict()
        except ProviderError:
            raise
        except Exception as exc:
            # Text already went to the caller, so the stream cannot be replayed here: the SDK
            # (an error event) or the connection (httpx2) broke off mid-answer.
            raise self._hosted.error(
                f"stream broke off: {type(exc).__name__}: {exc}", retryable=True
            ) from exc

    def _generate(self) -> Iterator[StreamEvent]:
        # Tool calls arrive as fragments keyed by index; only whole calls are emitted.
        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        try:
            for chunk in self._dicts():
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if delta.get("content"):
                        yield StreamEvent("delta", text=delta["content"])
                    for fragment in delta.get("tool_calls") or []:
                        _merge_fragment(calls, fragment)
                    finish = choice.get("finish_reason") or finish
        finally:
            self._chunks.close()
        if finish is None:
            raise self._hosted.error("stream ended before the answer was complete", retryable=True)
        for index in sorted(calls):
            call = calls[index]
            yield StreamEvent(
                "tool_call",
                tool_call=_tool_call(
                    call["id"] or f"call_{index}", call["name"], call["arguments"]
                ),
            )
        yield StreamEvent("done", finish_reason=finish)


def _merge_fragment(calls: dict[int, dict[str, str]], fragment: dict) -> None:
    """Fold one streamed tool-call fragment into the calls gathered so far."""
    index = fragment.get("index")
    if not isinstance(index, int):
        # Some servers omit the index; match by id, else treat it as a new call.
        matches = [i for i, c in calls.items() if fragment.get("id") and c["id"] == fragment["id"]]
        index = matches[0] if matches else len(calls)
    call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
    if fragment.get("id"):
        call["id"] = fragment["id"]
    function = fragment.get("function") or {}
    if function.get("name"):
        call["name"] = function["name"]
    arguments = function.get("arguments")
    if isinstance(arguments, dict):
        arguments = json.dumps(arguments)
    if arguments:
        call["arguments"] += arguments


# --- Factory --------------------------------------------------------------------

LLM_SHORTCUTS = {
    "none": "rag.providers.llm.NoLLM",
    "openai": "rag.providers.llm.OpenAIChatProvider",
}


def build_llm_provider(config: dict) -> LLMProvider:
    """Build the provider a ``RAG_LLM``-style dict describes.

    ``PROVIDER`` is "none", "openai" or a dotted class path; other keys (MODEL,
    BASE_URL, API_KEY, TIMEOUT, MAX_RETRIES) become keyword arguments.
    """
    return build_from_config(config, LLM_SHORTCUTS, "none", "RAG_LLM", LLMProvider)
