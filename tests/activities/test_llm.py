"""With an LLM configured (the fake OpenAI server): vibes and match reasons, and fallbacks."""

from __future__ import annotations

import pytest

from activities.models import Activity
from activities.search import activities_search
from tests.fakes.openai_server import FakeOpenAIServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def llm_server(settings):
    """A fake OpenAI-compatible chat server configured as the LLM (no retries)."""
    with FakeOpenAIServer() as server:
        settings.RAG_LLM = {
            "PROVIDER": "openai",
            "MODEL": "gpt-4o-mini",
            "BASE_URL": server.base_url,
            "API_KEY": "sk-test",
            "TIMEOUT": 5.0,
            "MAX_RETRIES": 0,
        }
        yield server


def test_vibes_come_from_the_llm(llm_server, make_activity, django_capture_on_commit_callbacks):
    llm_server.chat_script.append({"content": '好的：["安静", "文艺"]'})
    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity(title="LLM 氛围测试 E5", type="桌游")
    row = Activity.objects.get(pk=activity.pk)
    assert row.vibes == ["安静", "文艺"]
    assert "氛围: 安静, 文艺" in row.embedding_text()
    assert row.index_state == "indexed"


def test_unusable_llm_vibes_fall_back_to_the_lexicon(
    llm_server, make_activity, django_capture_on_commit_callbacks
):
    llm_server.chat_script.append({"content": "我不知道"})
    with django_capture_on_commit_callbacks(execute=True):
        activity = make_activity(title="LLM 氛围回退 F6", type="桌游")
    row = Activity.objects.get(pk=activity.pk)
    assert row.vibes == ["社交", "小局"]
    assert row.index_state == "indexed"


def test_match_reasons_from_the_llm_and_fallback(llm_server, make_activity, activity_settings):
    activity_settings.llm_match_reasons = True
    activity_settings.save()
    make_activity(title="桌游局一")
    make_activity(title="桌游局二")
    llm_server.chat_script.append({"content": '["人少好聊天", "新手友好"]'})
    outcome = activities_search(semantic_query="轻松的桌游")
    assert [r["matchReason"] for r in outcome["results"]] == ["人少好聊天", "新手友好"]
    llm_server.chat_script.append({"content": '["只有一条"]'})
    fallback = activities_search(semantic_query="轻松的桌游")
    assert all("「桌游」" in r["matchReason"] for r in fallback["results"])
