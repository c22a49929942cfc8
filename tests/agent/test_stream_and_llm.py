"""Server-sent events over a real HTTP connection, and the LLM path against a fake server."""

from __future__ import annotations

import json

import httpx
import pytest

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock


def parse_sse(lines) -> list[tuple[str, dict]]:
    """Return ``[(event, data)]`` from the lines of a server-sent-event stream."""
    events, name, data = [], None, []
    for line in lines:
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "" and name is not None:
            events.append((name, json.loads("\n".join(data))))
            name, data = None, []
    if name is not None:
        events.append((name, json.loads("\n".join(data))))
    return events


SSE_HEADERS = {"Accept": "text/event-stream"}  # what EventSource and every SSE client send


@pytest.mark.django_db(transaction=True)
def test_an_sse_client_reads_the_stream_over_real_http(live_server, user):
    headers = {"Authorization": f"Token {user.api_key}", **SSE_HEADERS}
    with httpx.stream(
        "POST",
        live_server.url + "/api/agent/chat/stream",
        json={"message": "帮我发起一个明天晚上的火锅局"},
        headers=headers,
        timeout=60,
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = parse_sse(response.iter_lines())
    names = [name for name, _ in events]
    assert names[0] == "intent" and names[-1] == "done"
    assert names.index("tool_call") < names.index("tool_result") < names.index("delta")
    intent = events[0][1]
    assert intent["intent"] == "CREATE" and intent["chat_id"]
    deltas = "".join(data["text"] for name, data in events if name == "delta")
    done = events[-1][1]
    assert deltas == done["reply"]
    assert done["tool_calls"][0]["name"] == "createDraft"
    assert done["tool_calls"][0]["result"]["draft"]["type"] == "美食"


@pytest.mark.django_db(transaction=True)
def test_stream_rejects_bad_input_before_streaming(live_server, user):
    headers = {"Authorization": f"Token {user.api_key}"}
    response = httpx.post(
        live_server.url + "/api/agent/chat/stream", json={}, headers=headers, timeout=30
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


@pytest.mark.django_db
def test_bad_input_from_an_sse_client_is_400_in_json_not_a_stream(api_client):
    response = api_client.post("/api/agent/chat/stream", {}, format="json", **_accept(SSE_HEADERS))
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "INVALID_ARGUMENT"
    assert "message" in error["details"]["fields"]


@pytest.mark.django_db
def test_an_sse_client_without_credentials_gets_401_in_json(anon_client):
    body = {"message": "你好"}
    response = anon_client.post(
        "/api/agent/chat/stream", body, format="json", **_accept(SSE_HEADERS)
    )
    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "UNAUTHENTICATED"


@pytest.mark.django_db
def test_a_client_accepting_only_json_is_told_406_in_json(api_client):
    response = api_client.post(
        "/api/agent/chat/stream",
        {"message": "你好"},
        format="json",
        **_accept({"Accept": "application/json"}),
    )
    assert response.status_code == 406
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


def _accept(headers: dict) -> dict:
    return {"HTTP_ACCEPT": headers["Accept"]}


def _stream(client, body) -> list[tuple[str, dict]]:
    response = client.post("/api/agent/chat/stream", body, format="json")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    return parse_sse(text.split("\n"))


@pytest.mark.django_db
def test_llm_tool_call_runs_for_the_authenticated_user(api_client, user, other_user, fake_llm):
    from agent.models import PartnerIntent

    fake_llm.chat_script += [
        {"content": "PARTNER"},  # the router's classification
        {
            "tool_calls": [
                {
                    "name": "createPartnerIntent",
                    "arguments": {
                        "activityType": "户外",
                        "description": "周末爬山",
                        "user_id": other_user.username,
                    },
                }
            ]
        },
        {"content": "好的，已经帮你记下想找人周末爬山的需求，有合适的人会告诉你。"},
    ]
    events = _stream(api_client, {"message": "想找个人周末一起爬山"})
    names = [n for n, _ in events]
    assert names[0] == "intent" and events[0][1]["intent"] == "PARTNER"
    assert events[0][1]["source"] == "llm"
    call = next(d for n, d in events if n == "tool_call")
    assert call["name"] == "createPartnerIntent" and "user_id" not in call["arguments"]
    assert PartnerIntent.objects.get().user == user
    assert not PartnerIntent.objects.filter(user=other_user).exists()
    deltas = [d["text"] for n, d in events if n == "delta"]
    assert len(deltas) > 1  # streamed in pieces
    done = events[-1][1]
    assert "".join(deltas) == done["reply"] and done["reply"].startswith("好的")
    # The second chat request carried the tool result; the mode's tools were offered.
    chat_bodies = [b for b in fake_llm.bodies("/v1/chat/completions") if b.get("tools")]
    offered = {t["function"]["name"] for t in chat_bodies[0]["tools"]}
    assert {"createPartnerIntent", "askPreference"} <= offered
    assert all(
        "user_id" not in json.dumps(t["function"]["parameters"]) for t in chat_bodies[0]["tools"]
    )
    tool_messages = [m for m in chat_bodies[1]["messages"] if m["role"] == "tool"]
    assert json.loads(tool_messages[0]["content"])["partnerIntent"]["activityType"] == "户外"


@pytest.mark.django_db
def test_llm_failure_falls_back_to_offline(api_client, user, fake_llm):
    # Every request fails: the router and the run both fall back to the offline path.
    fake_llm.script += [(500, {"error": {"message": "down"}})] * 10
    events = _stream(api_client, {"message": "你好"})
    done = events[-1][1]
    assert events[0][1]["intent"] == "CHAT" and events[0][1]["source"] != "llm"
    assert done["reply"] and done["engine"] == "offline"


@pytest.mark.django_db
def test_unknown_llm_label_keeps_offline_intent(api_client, user, fake_llm):
    fake_llm.chat_script += [{"content": "I think it is WEATHER"}, {"content": "晴天哦"}]
    events = _stream(api_client, {"message": "我的活动有哪些"})
    assert events[0][1]["intent"] == "MANAGE"


@pytest.mark.django_db
def test_failure_mid_stream_ends_with_an_error_event(api_client, user, monkeypatch):
    from agent import chat

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(chat, "_save_turn", broken)
    events = _stream(api_client, {"message": "你好"})
    names = [n for n, _ in events]
    assert names[0] == "intent" and "delta" in names and names[-1] == "error"
    assert events[-1][1] == {
        "error": {"code": "INTERNAL", "message": "Internal error.", "details": {}}
    }


@pytest.mark.django_db
def test_service_error_mid_stream_keeps_its_code(api_client, user, monkeypatch):
    from agent import chat
    from config.errors import Conflict

    def conflict(*args, **kwargs):
        raise Conflict("A message_id was written concurrently; resend.")

    monkeypatch.setattr(chat, "_save_turn", conflict)
    events = _stream(api_client, {"message": "你好"})
    assert events[-1][0] == "error" and events[-1][1]["error"]["code"] == "CONFLICT"


@pytest.mark.django_db
def test_llm_text_of_every_round_is_the_reply(api_client, user, fake_llm):
    from memory.models import ChatMessage

    fake_llm.chat_script += [
        {"content": "PARTNER"},  # the router's classification
        {
            "content": "好的，我先帮你记下来。",
            "tool_calls": [{"name": "createPartnerIntent", "arguments": {"activityType": "户外"}}],
        },
        {"content": "记好了，有合适的人会告诉你。"},
    ]
    events = _stream(api_client, {"message": "想找个人周末一起爬山"})
    names = [n for n, _ in events]
    assert names.index("delta") < names.index("tool_call")  # text came before the tool call
    deltas = "".join(d["text"] for n, d in events if n == "delta")
    assert deltas == "好的，我先帮你记下来。记好了，有合适的人会告诉你。"
    done = events[-1][1]
    assert done["reply"] == deltas and done["engine"] == "llm"
    stored = ChatMessage.objects.get(user=user, chat_id=done["chat_id"], role="assistant")
    assert stored.content == deltas


@pytest.mark.django_db
def test_llm_without_a_final_answer_gets_one_composed_after_its_text(api_client, user, fake_llm):
    fake_llm.chat_script += [
        {"content": "PARTNER"},
        {
            "content": "我先记一下。",
            "tool_calls": [{"name": "createPartnerIntent", "arguments": {"activityType": "户外"}}],
        },
        {"content": ""},  # the model ends without an answer
    ]
    events = _stream(api_client, {"message": "想找个人周末一起爬山"})
    deltas = "".join(d["text"] for n, d in events if n == "delta")
    done = events[-1][1]
    assert done["reply"] == deltas
    assert deltas.startswith("我先记一下。已帮你记下：想找爬山搭子")


@pytest.mark.django_db
def test_an_llm_turn_leaves_no_listing_nameable_by_place(api_client, user, fake_llm):
    from agent.models import AgentSession

    AgentSession.objects.create(user=user, chat_id="named", shown={"ids": [1, 2], "focus": 2})
    fake_llm.chat_script += [{"content": "CHAT"}, {"content": "听起来不错！"}]
    body = api_client.post(
        "/api/agent/chat", {"message": "今天心情不错", "chat_id": "named"}, format="json"
    ).json()
    assert body["reply"] == "听起来不错！"
    assert AgentSession.objects.get(user=user, chat_id="named").shown == {}


@pytest.mark.django_db
def test_an_llm_turns_off_a_reminder_for_the_user_without_asking_to_confirm(
    api_client, user, other_user, fake_llm, make_activity_for
):
    from activities.services import activity_join
    from agent.models import ReminderMute

    game = make_activity_for(other_user, title="周六桌游局")
    activity_join(activity_id=game.pk, user=user)
    fake_llm.chat_script += [
        {"content": "MANAGE"},
        {"tool_calls": [{"name": "setActivityReminder", "arguments": {"remind": False}}]},
        {"content": "好的，接下来的活动都不提醒你了。"},
    ]
    events = _stream(api_client, {"message": "以后活动都别提醒我了"})
    call = next(d for n, d in events if n == "tool_call")
    assert call["name"] == "setActivityReminder"
    # Only the user's own reminders change: no confirmation is asked, nothing of others moves.
    assert list(ReminderMute.objects.values_list("user_id", "activity_id")) == [(user.pk, game.pk)]
