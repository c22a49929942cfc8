"""The prompt builder's budget, de-duplication and sources, and the three context passes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.prompt import Chunk, PromptBuilder, count_tokens

SYSTEM = "你是一个助手。"


def test_count_tokens_approximation():
    assert count_tokens("你好") == 2
    assert count_tokens("hello world") == 4  # 2 + 2 (ceil(5/4) each)
    assert count_tokens("") == 0


def test_duplicates_removed_and_sources_recorded():
    chunks = [
        Chunk("persona:preference:1", "偏好 food: 不吃辣", 1.0),
        Chunk("session:msg:m_1", "用户：我周五有空", 0.8),
        Chunk("knowledge:msg:m_1", "用户：我周五有空！", 0.5),  # same after normalising
        Chunk("knowledge:msg:m_2", "用户曾说：喜欢爵士乐", 0.5),
    ]
    built = PromptBuilder(500).build(SYSTEM, chunks, "推荐点周五的活动")
    assert built.sources == ["persona:preference:1", "session:msg:m_1", "knowledge:msg:m_2"]
    assert ("knowledge:msg:m_1", "duplicate") in built.dropped
    assert "[persona:preference:1]" in built.system
    assert built.tokens <= 500


def test_low_priority_chunks_dropped_first():
    chunks = [Chunk(f"knowledge:msg:{i}", "很长的一段话" * 10, 0.1 * i) for i in range(10)]
    built = PromptBuilder(200).build(SYSTEM, chunks, "你好")
    assert built.tokens <= 200
    kept = {c.source for c in built.chunks}
    assert "knowledge:msg:9" in kept and "knowledge:msg:0" not in kept


def test_overlong_user_prompt_is_cut_to_fit():
    built = PromptBuilder(50).build(SYSTEM, [], "字" * 500)
    assert built.tokens <= 50 and built.user.startswith("字")


texts = st.text(alphabet=st.sampled_from(list("你好吗今天天气abc xyz，。123")), max_size=80)


@settings(max_examples=150, deadline=None)
@given(
    budget=st.integers(min_value=20, max_value=400),
    items=st.lists(st.tuples(texts, st.floats(0, 1)), max_size=30),
    user_prompt=texts,
)
def test_budget_is_never_exceeded(budget, items, user_prompt):
    chunks = [Chunk(f"knowledge:msg:{i}", t, p) for i, (t, p) in enumerate(items)]
    built = PromptBuilder(budget).build(SYSTEM, chunks, user_prompt)
    assert built.tokens <= budget
    rendered = [c.text for c in built.chunks]
    from agent.prompt import normalised_hash

    assert len({normalised_hash(t) for t in rendered}) == len(rendered)


@pytest.mark.django_db
def test_build_context_passes_carry_sources(api_client, user, say):
    from agent.context import build_context
    from memory.services import preference_upsert

    preference_upsert(user=user, category="food", value="不吃辣")
    first = say(api_client, "我最近特别想吃火锅")
    context = build_context(user=user, chat_id=first["chat_id"], message="火锅")
    sources = [c.source for c in context.chunks]
    assert any(s.startswith("persona:preference:") for s in sources)
    assert any(s.startswith("session:msg:m_") for s in sources)
    assert any(s.startswith("knowledge:msg:m_") for s in sources)
    assert not context.errors


@pytest.mark.django_db
def test_a_recent_turn_found_by_memory_search_goes_into_the_prompt_once(api_client, user, say):
    from agent.context import build_context

    first = say(api_client, "我最近特别想吃火锅")
    context = build_context(user=user, chat_id=first["chat_id"], message="火锅")
    quoted = [c for c in context.chunks if "我最近特别想吃火锅" in c.text]
    assert {c.section for c in quoted} == {"session", "knowledge"}  # both passes found it
    built = PromptBuilder(3000).build(SYSTEM, context.chunks, "火锅")
    assert built.system.count("我最近特别想吃火锅") == 1
    kept = next(c for c in quoted if c.section == "session")
    dropped = next(c for c in quoted if c.section == "knowledge")
    assert kept.source in built.sources
    assert (dropped.source, "duplicate") in built.dropped


@pytest.mark.django_db
def test_a_chat_summary_from_session_and_knowledge_goes_into_the_prompt_once(user, memory_settings):
    from agent.context import build_context
    from memory.models import ChatMessage
    from memory.services import messages_write
    from memory.summarize import write_summary

    memory_settings.summary_trigger_messages = 2
    memory_settings.save()
    items = [
        {"ts": f"2026-11-20T09:0{i}:00+08:00", "role": "user", "content": text, "chat_id": "c1"}
        for i, text in enumerate(["周末想去爬山。", "最好是人少的山。", "下午出发比较好。"])
    ]
    messages_write(user=user, items=items)
    assert write_summary(user_pk=user.pk, chat_id="c1").startswith("summarised")
    summary = ChatMessage.objects.get(user=user, kind="summary")
    context = build_context(user=user, chat_id="c1", message="爬山")
    sections = {c.section for c in context.chunks if summary.content in c.text}
    assert sections == {"session", "knowledge"}  # a summary is never persona (seed 002)
    built = PromptBuilder(3000).build(SYSTEM, context.chunks, "爬山")
    assert built.system.count(summary.content) == 1
    assert any(s.startswith("session:summary:") for s in built.sources)
    assert (f"knowledge:msg:{summary.message_id}", "duplicate") in built.dropped


@pytest.mark.django_db
def test_persona_pass_puts_the_feedback_closest_to_the_message_first(user):
    from agent.context import persona_pass
    from memory.services import feedback_create, messages_write

    messages_write(
        user=user,
        items=[
            {
                "message_id": "m1",
                "ts": "2026-11-20T09:00:00+08:00",
                "role": "assistant",
                "content": "推荐了一家川菜火锅。",
            },
            {
                "message_id": "m2",
                "ts": "2026-11-20T09:01:00+08:00",
                "role": "assistant",
                "content": "推荐了一条爬山路线。",
            },
        ],
    )
    feedback_create(user=user, target_message_id="m1", rating=-1, comment="火锅太辣了，吃不了辣")
    feedback_create(user=user, target_message_id="m2", rating=1, comment="山路很美，适合徒步")
    hiking = [c.text for c in persona_pass(user, "周末去哪里徒步爬山") if "反馈" in c.text]
    spicy = [c.text for c in persona_pass(user, "想吃点辣的火锅") if "反馈" in c.text]
    assert "徒步" in hiking[0] and "辣" in spicy[0]


@pytest.mark.django_db
def test_a_turn_embeds_its_message_once_and_keeps_it_out_of_the_cache(user, monkeypatch):
    from agent.chat import generate_chat
    from rag import embeddings
    from rag.models import EmbeddingCache

    provider = embeddings.get_provider()
    sent: list[tuple[str, str]] = []
    real_embed = provider.embed

    def recording_embed(texts, role="passage"):
        sent.extend((role, text) for text in texts)
        return real_embed(texts, role)

    monkeypatch.setattr(provider, "embed", recording_embed)
    message = "周末想找个安静的地方看书"
    generate_chat(user=user, message=message, chat_id="once")
    assert sent.count(("query", message)) == 1  # router, persona and knowledge share it
    assert not EmbeddingCache.objects.filter(
        role="query", content_hash=embeddings.content_hash(message)
    ).exists()


def _store(user, message_id, when, content, capture):
    from memory.services import messages_write

    item = {"message_id": message_id, "ts": when.isoformat(), "role": "user", "content": content}
    with capture(execute=True):
        messages_write(user=user, items=[{**item, "chat_id": "old"}])


def test_knowledge_pass_reads_an_ended_time_phrase(user, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    from agent.context import knowledge_pass

    now = timezone.localtime()
    capture = django_capture_on_commit_callbacks
    _store(user, "k1", now - timedelta(days=1), "昨天吃的火锅是海底捞", capture)
    _store(user, "k2", now - timedelta(days=40), "以前吃的火锅是小龙坎", capture)
    keys = [c.key for c in knowledge_pass(user, "昨天吃的火锅叫什么")]
    assert keys == ["msg:k1"]


def test_knowledge_pass_leaves_a_phrase_about_now_unapplied(
    user, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from agent.context import knowledge_pass

    now = timezone.localtime()
    capture = django_capture_on_commit_callbacks
    _store(user, "k2", now - timedelta(days=40), "我不吃辣，吃火锅只点清汤", capture)
    _store(user, "k3", now - timedelta(seconds=1), "今天天气很好", capture)
    # Read as a recall of today, 今天 would keep only k3; the turn talks about now instead.
    keys = [c.key for c in knowledge_pass(user, "今天想吃火锅")]
    assert "msg:k2" in keys


def test_knowledge_pass_leaves_out_the_question_asked_again(
    user, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from agent.context import knowledge_pass

    now = timezone.localtime()
    capture = django_capture_on_commit_callbacks
    _store(user, "s1", now - timedelta(days=3), "帮我记一下：我对花生过敏", capture)
    for i in range(6):
        _store(user, f"q{i}", now - timedelta(days=2, minutes=i), "我对什么过敏来着？", capture)

    keys = [c.key for c in knowledge_pass(user, "我对什么过敏来着")]

    assert "msg:s1" in keys and not [k for k in keys if k.startswith("msg:q")]


@pytest.mark.django_db
def test_persona_pass_keeps_a_preference_that_sorts_last_among_26(user):
    from agent.context import persona_pass
    from memory.services import preference_upsert

    preference_upsert(user=user, category="food", value="不吃辣")
    for i in range(25):  # every one of these sorts before "food" by category
        preference_upsert(user=user, category=f"a{i:02d}", value=f"偏好{i}")

    chunks = persona_pass(user, "推荐一家川菜馆")

    texts = [c.text for c in chunks]
    assert len(texts) == 26
    assert "偏好 food: 不吃辣" in texts
    assert all(c.source.startswith("persona:preference:") for c in chunks)


def test_the_active_shared_context_is_trimmed_to_the_budget_never_dropped():
    notes = "；".join(f"第{i}条笔记内容" for i in range(200))
    shared = Chunk("context:1", f"共享上下文「旅行」：{notes}", 0.95, trim=True)
    built = PromptBuilder(300).build("你是助手。", [shared], "接下来做什么？")
    assert built.sources == ["context:1"] and built.trimmed == ["context:1"]
    assert built.tokens <= 300
    assert built.chunks[0].text.endswith("第199条笔记内容")  # the newest note stays
    assert count_tokens(built.chunks[0].text) < count_tokens(shared.text)


def test_the_shared_context_is_trimmed_not_dropped_when_preferences_fill_the_budget():
    persona = [
        Chunk(f"persona:preference:{i}", f"偏好 a{i}: 喜欢第{i}种活动", 1.0) for i in range(60)
    ]
    notes = "；".join(f"第{i}条笔记内容" for i in range(200))
    shared = Chunk("context:1", f"共享上下文「旅行」：{notes}", 0.95, trim=True)

    built = PromptBuilder(500).build("你是助手。", [*persona, shared], "接下来做什么？")

    assert "context:1" in built.sources and built.trimmed == ["context:1"]
    assert ("persona:preference:59", "budget") in built.dropped
    assert built.chunks[-1].text.endswith("第199条笔记内容") and built.tokens <= 500


def test_a_shared_context_that_fits_is_kept_whole_after_the_preferences():
    persona = [Chunk("persona:preference:1", "偏好 food: 不吃辣", 1.0)]
    shared = Chunk("context:1", "共享上下文「旅行」：planner: 下个月去成都", 0.95, trim=True)

    built = PromptBuilder(500).build("你是助手。", [*persona, shared], "接下来做什么？")

    assert built.sources == ["persona:preference:1", "context:1"] and built.trimmed == []


@pytest.mark.django_db
def test_an_offline_turn_reads_the_shared_context_trimmed_to_its_budget(user):
    from agent.chat import generate_chat
    from memory.services import context_create, update_context

    context = context_create(owner=user, title="旅行", entry="第0条：去成都", agent_name="planner")
    for i in range(1, 120):
        update_context(
            user=user,
            context_id=context.pk,
            agent_name="planner",
            content=f"第{i}条：预算三千元，住宽窄巷子附近",
        )

    result = generate_chat(user=user, message="你好呀，在吗", budget=600)

    assert result["engine"] == "offline"
    assert f"context:{context.pk}" in result["sources"]


def test_the_turn_reads_the_users_latest_shared_context(user):
    from agent.context import build_context
    from memory.services import context_create, update_context

    old = context_create(owner=user, title="旅行", entry="去成都", agent_name="planner")
    latest = context_create(owner=user, title="搬家", entry="周六搬家", agent_name="planner")
    update_context(user=user, context_id=latest.pk, agent_name="agent", content="预算800")
    context = build_context(user=user, chat_id="c1", message="你好")
    (chunk,) = context.shared
    assert chunk.source == f"context:{latest.pk}" and chunk.trim
    assert "周六搬家" in chunk.text and "预算800" in chunk.text
    named = build_context(user=user, chat_id="c1", message="你好", context_id=old.pk)
    assert [c.source for c in named.shared] == [f"context:{old.pk}"]


def test_a_question_about_what_the_user_said_searches_the_users_own_messages(
    user, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from agent.context import knowledge_pass
    from memory.services import messages_write

    now = timezone.localtime()
    with django_capture_on_commit_callbacks(execute=True):
        messages_write(
            user=user,
            items=[
                {
                    "message_id": f"a{i}",
                    "chat_id": "old",
                    "ts": (now - timedelta(hours=1, minutes=i)).isoformat(),
                    "role": "assistant",
                    "content": f"I looked for your name, sorry ({i}): what's your name again?",
                }
                for i in range(12)
            ],
        )
    _store(
        user,
        "u1",
        now - timedelta(days=2),
        "hi, I'm Sam and my name is short",
        capture=(django_capture_on_commit_callbacks),
    )

    chunks = knowledge_pass(user, "what's my name?")

    assert [c.meta["role"] for c in chunks] == ["user"]
