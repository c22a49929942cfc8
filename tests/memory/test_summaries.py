"""Summaries (trigger, legal references verbatim, length), chat context."""

from __future__ import annotations

from memory.models import ChatMessage, Kind
from tests.memory.memory_helpers import ts

LEGAL = "根据《民法典》第1165条，行为人因过错侵害他人民事权益造成损害的，应当承担侵权责任。"
TOPICS = [
    "邻居家装修把我家的墙弄裂了，我想让他们赔偿。",
    "裂缝大概有两米长，已经拍照留证了。",
    "物业说这事他们不管，让我们自己协商。",
    "我问过邻居，他们说是施工队的责任。",
    "施工队的合同是邻居签的，所以邻居应该先赔。",
    "修墙的报价是八千元，我觉得合理。",
    "如果协商不成，我打算去法院起诉。",
    "律师建议先发一封书面的索赔函。",
    "索赔函里要写明损失金额和维修报价。",
    "另外还要保留物业的沟通记录。",
]


def _long_chat(n):
    items = []
    for i in range(n):
        content = LEGAL if i == 5 else TOPICS[i % len(TOPICS)] + f"（第{i}条消息）"
        role = "assistant" if i % 2 else "user"
        items.append(
            {
                "message_id": f"L{i:03d}",
                "ts": ts(i),
                "role": role,
                "content": content,
                "chat_id": "law",
            }
        )
    return items


def test_summary_trigger_keeps_legal_reference(api_client, user, write, memory_settings):
    write(api_client, user.username, _long_chat(20), status=201)
    assert not ChatMessage.objects.filter(kind=Kind.SUMMARY).exists()  # 20 is not more than 20
    write(api_client, user.username, _long_chat(22)[20:], status=201)
    summary = ChatMessage.objects.get(kind=Kind.SUMMARY)
    assert "《民法典》第1165条" in summary.content
    assert 0 < len(summary.content) <= 500
    assert summary.covered_count == 22 and summary.embedding is not None
    assert summary.chat_id == "law" and summary.role == "system"
    assert not ChatMessage.objects.filter(kind=Kind.MESSAGE, summarised=False).exists()
    # A summary is searchable like any message.
    body = api_client.post(
        "/v1/messages/lexical_search",
        {"user_id": user.username, "query_text": "民法典", "filter": {"kind": "summary"}},
        format="json",
    ).json()
    assert [i["message_id"] for i in body["items"]] == [summary.message_id]


def test_summary_respects_live_max_chars(api_client, user, write, memory_settings):
    memory_settings.summary_max_chars = 120
    memory_settings.summary_trigger_messages = 5
    memory_settings.save()
    write(api_client, user.username, _long_chat(8), status=201)
    summary = ChatMessage.objects.get(kind=Kind.SUMMARY)
    assert len(summary.content) <= 120 and "《民法典》第1165条" in summary.content


def test_context_is_summary_plus_later_messages_within_budget(
    api_client, user, write, memory_settings
):
    write(api_client, user.username, _long_chat(22), status=201)
    later = [
        {
            "message_id": f"N{i}",
            "ts": ts(100 + i),
            "role": "user",
            "content": "后来又说了一句话。",
            "chat_id": "law",
        }
        for i in range(5)
    ]
    write(api_client, user.username, later, status=201)
    path = f"/v1/users/{user.username}/chats/law/context"
    body = api_client.get(path, {"budget": 10_000}).json()
    assert body["summary"]["kind"] == "summary"
    assert [m["message_id"] for m in body["messages"]] == [f"N{i}" for i in range(5)]
    assert body["truncated"] is False
    summary_len = len(body["summary"]["content"])
    tight = api_client.get(path, {"budget": summary_len + 2 * 9 + 3}).json()
    assert [m["message_id"] for m in tight["messages"]] == ["N3", "N4"]
    assert tight["truncated"] is True and tight["used_chars"] <= summary_len + 21


def test_extractive_summary_offline_unit(db):
    from memory.summarize import extractive_summary, legal_refs

    texts = [*TOPICS, LEGAL, "依据《消费者权益保护法》第55条，商家欺诈要三倍赔偿。"]
    summary = extractive_summary(texts, max_chars=100)
    assert len(summary) <= 100
    assert legal_refs(summary) == ["《民法典》第1165条", "《消费者权益保护法》第55条"]


LLM_ANSWER = "邻居装修致墙体开裂，依据《民法典》第1165条索赔八千元维修费，协商不成再起诉。"


def test_llm_summary_is_used_when_valid(api_client, user, write, memory_settings, fake_llm):
    memory_settings.summary_trigger_messages = 5
    memory_settings.save()
    fake_llm.chat_script.append({"content": LLM_ANSWER})
    write(api_client, user.username, _long_chat(8), status=201)
    summary = ChatMessage.objects.get(kind=Kind.SUMMARY)
    assert summary.content == LLM_ANSWER
    (request,) = fake_llm.bodies("/v1/chat/completions")
    system = request["messages"][0]["content"]
    assert "500" in system and "《民法典》第1165条" in system
    assert LEGAL in request["messages"][-1]["content"]


def test_llm_summary_over_the_limit_falls_back_to_extractive(db, fake_llm):
    from memory.summarize import extractive_summary, summarise_texts

    texts = [*TOPICS, LEGAL]
    fake_llm.chat_script.append({"content": LLM_ANSWER + "补充说明。" * 30})
    summary = summarise_texts(texts, max_chars=100)
    assert len(fake_llm.bodies("/v1/chat/completions")) == 1
    assert summary == extractive_summary(texts, max_chars=100)
    assert len(summary) <= 100 and "《民法典》第1165条" in summary


def test_llm_summary_dropping_a_legal_reference_falls_back(db, fake_llm):
    from memory.summarize import extractive_summary, summarise_texts

    texts = [*TOPICS, LEGAL]
    fake_llm.chat_script.append({"content": "邻居装修致墙体开裂，索赔八千元维修费。"})
    summary = summarise_texts(texts, max_chars=200)
    assert len(fake_llm.bodies("/v1/chat/completions")) == 1
    assert summary == extractive_summary(texts, max_chars=200)
    assert "《民法典》第1165条" in summary
