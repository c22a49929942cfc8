"""The OpenAI-compatible chat provider against a real HTTP fake, and NoLLM."""

from __future__ import annotations

import pytest

from rag.providers.llm import (
    ChatResult,
    LLMUnavailable,
    NoLLM,
    OpenAIChatProvider,
    ProviderError,
    ToolCall,
    build_llm_provider,
)
from tests.fakes.openai_server import FakeOpenAIServer

CHAT = "/v1/chat/completions"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


@pytest.fixture
def srv():
    with FakeOpenAIServer() as server:
        yield server


def make(srv, **options) -> OpenAIChatProvider:
    options = {
        "base_url": srv.base_url,
        "api_key": "sk-test",
        "model": "gpt-4o-mini",
        "timeout": 5,
        **options,
    }
    return OpenAIChatProvider(**options)


def test_plain_chat(srv):
    result = make(srv).chat([{"role": "user", "content": "hello there"}], max_tokens=50)

    assert isinstance(result, ChatResult)
    assert result.content == "(fake) hello there"
    assert result.tool_calls == []
    assert result.finish_reason == "stop"
    assert result.raw["object"] == "chat.completion"
    body = srv.bodies(CHAT)[0]
    assert body["model"] == "gpt-4o-mini"
    assert body["temperature"] == 0.2
    assert body["max_tokens"] == 50
    assert "tools" not in body and "stream" not in body


def test_complete_with_system(srv):
    srv.chat_script.append({"content": "Paris"})

    assert make(srv).complete("Capital of France?", system="Be brief.") == "Paris"
    assert srv.bodies(CHAT)[0]["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Capital of France?"},
    ]


def test_tool_call_parsed_with_dict_arguments(srv):
    srv.chat_script.append({"tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}]})

    result = make(srv).chat([{"role": "user", "content": "weather?"}], tools=[WEATHER])

    assert result.finish_reason == "tool_calls"
    assert result.content == ""
    [call] = result.tool_calls
    assert (call.name, call.arguments) == ("get_weather", {"city": "Oslo"})
    assert call.id
    assert srv.bodies(CHAT)[0]["tools"] == [WEATHER]
    message = result.to_message()
    assert message["tool_calls"][0]["function"]["arguments"] == '{"city": "Oslo"}'


def test_invalid_tool_arguments_raise(srv):
    srv.chat_script.append({"tool_calls": [{"name": "get_weather", "arguments": '{"city": '}]})
    with pytest.raises(ProviderError, match="invalid JSON"):
        make(srv).chat([{"role": "user", "content": "weather?"}], tools=[WEATHER])


def test_stream_deltas_reassemble_the_text(srv):
    text = "The quick brown fox jumps over the lazy dog."
    srv.chat_script.append({"content": text})

    events = list(make(srv).stream([{"role": "user", "content": "go"}]))

    deltas = [e.text for e in events if e.type == "delta"]
    assert len(deltas) > 3
    assert "".join(deltas) == text
    assert events[-1].type == "done" and events[-1].finish_reason == "stop"
    assert srv.bodies(CHAT)[0]["stream"] is True


def test_streamed_tool_call_is_reassembled(srv):
    arguments = {"city": "Reykjavík", "units": "metric", "days": 3}
    srv.chat_script.append(
        {
            "content": "Checking.",
            "tool_calls": [
                {"name": "get_weather", "arguments": arguments},
                {"name": "get_time", "arguments": {}},
            ],
        }
    )

    with make(srv).stream([{"role": "user", "content": "go"}], tools=[WEATHER]) as stream:
        events = list(stream)

    assert "".join(e.text for e in events if e.type == "delta") == "Checking."
    calls = [e.tool_call for e in events if e.type == "tool_call"]
    assert [(c.name, c.arguments) for c in calls] == [("get_weather", arguments), ("get_time", {})]
    assert all(isinstance(c, ToolCall) and c.id for c in calls)
    assert [e.type for e in events[-3:]] == ["tool_call", "tool_call", "done"]
    assert events[-1].finish_reason == "tool_calls"


def test_chat_retries_429(srv):
    headers = {"Retry-After": "0.01"}
    srv.script.append((429, {"error": {"message": "Rate limit reached"}}, headers))

    assert make(srv).complete("hi") == "(fake) hi"
    assert len(srv.requests) == 2


def test_stream_retries_429_then_streams(srv):
    srv.script.append((429, {"error": {"message": "slow down"}}, {"Retry-After": "0.01"}))
    events = list(make(srv).stream([{"role": "user", "content": "again"}]))
    assert "".join(e.text for e in events if e.type == "delta") == "(fake) again"
    assert len(srv.requests) == 2


def test_stream_http_error_raises_before_iteration(srv):
    srv.require_key = "sk-right"
    with pytest.raises(ProviderError, match="Incorrect API key provided") as info:
        make(srv, api_key="sk-wrong").stream([{"role": "user", "content": "hi"}])
    assert info.value.status == 401 and len(srv.requests) == 1


def test_no_llm_refuses_everything():
    llm = build_llm_provider({"PROVIDER": "none", "MODEL": "gpt-4o-mini", "TIMEOUT": 60.0})

    assert isinstance(llm, NoLLM)
    assert (llm.name, llm.enabled) == ("none", False)
    for call in (
        lambda: llm.chat([{"role": "user", "content": "x"}]),
        lambda: llm.stream([{"role": "user", "content": "x"}]),
        lambda: llm.complete("x"),
    ):
        with pytest.raises(LLMUnavailable, match="LLM_PROVIDER"):
            call()
    assert issubclass(LLMUnavailable, ProviderError)


def test_build_openai_provider(srv):
    config = {
        "PROVIDER": "openai",
        "MODEL": "glm-4-flash",
        "BASE_URL": srv.base_url,
        "API_KEY": "sk-test",
        "TIMEOUT": 5.0,
    }
    llm = build_llm_provider(config)
    assert isinstance(llm, OpenAIChatProvider) and llm.enabled and llm.model == "glm-4-flash"
    assert llm.complete("ping") == "(fake) ping"
    assert srv.requests[0][1]["Authorization"] == "Bearer sk-test"
    assert isinstance(build_llm_provider({"PROVIDER": "rag.providers.llm.NoLLM"}), NoLLM)


def test_truncated_stream_raises_retryable(srv):
    srv.chat_script.append({"content": "half an answer", "truncate": True})
    stream = make(srv).stream([{"role": "user", "content": "go"}])
    with pytest.raises(ProviderError, match="ended before") as info:
        list(stream)
    assert info.value.retryable is True


def test_stream_can_be_abandoned(srv):
    srv.chat_script.append({"content": "x" * 400})
    stream = make(srv).stream([{"role": "user", "content": "go"}])
    assert next(stream).type == "delta"
    stream.close()
    assert make(srv).complete("still fine") == "(fake) still fine"


def test_an_error_event_mid_stream_raises_retryable_after_the_text_so_far(srv):
    srv.chat_script.append({"content": "x" * 40, "error": "The server had an error"})
    events = []
    with pytest.raises(ProviderError, match="The server had an error") as info:
        for event in make(srv).stream([{"role": "user", "content": "go"}]):
            events.append(event)
    assert info.value.retryable is True
    assert [e.text for e in events] == ["xxxx"]
