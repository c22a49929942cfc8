"""The intent router's example index is built by a web process's warm-up, not by a chat turn."""

from __future__ import annotations

import pytest

from agent import router
from rag import embeddings, warmup
from rag.embeddings import ProviderTimeout, provider_texts


@pytest.fixture
def cold_index():
    """The example index not built and its vectors in no in-process cache (the test database
    starts empty, so none there either); rebuilt lazily by later tests as before."""
    router._index.reset()
    with embeddings._lru_lock:
        embeddings._lru.clear()
    yield router._index
    router._index.reset()


def test_the_agent_app_registers_the_router_warm_up():
    assert router.warm_up in warmup._hooks


def test_warm_up_builds_the_index_past_a_search_budget(db, settings, cold_index):
    # A budget this short cuts the build of a chat turn, which then routes by rules alone.
    settings.SEARCH_TIME_BUDGET_SECONDS = 0.001
    with pytest.raises(ProviderTimeout):
        cold_index.get()

    router.warm_up()

    labels, matrix = cold_index.get()
    assert matrix.shape[0] == len(labels) > 100


def test_a_turn_after_the_warm_up_embeds_only_its_message(db, cold_index):
    router.warm_up()
    before = provider_texts()

    scores = router.embedding_scores("周末想去湖边徒步 warm-up router probe")

    assert scores is not None
    assert provider_texts() - before == 1


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("羽毛球局几点开始", "MANAGE"),
        ("when is the potluck?", "MANAGE"),
        ("what's on my calendar this week?", "MANAGE"),
        ("who's coming to my potluck?", "MANAGE"),
        ("move my potluck to 7pm", "CREATE"),
    ],
)
def test_questions_about_and_changes_to_ones_own_activity_are_ruled(message, intent):
    from agent.router import rule_scores

    scores = rule_scores(message)
    assert max(scores, key=scores.get) == intent and scores[intent] > 0


@pytest.mark.parametrize(
    "message",
    ["hi! I just moved here, what's good to do on weekends?", "hey, what's fun to do around here"],
)
def test_a_greeting_before_asking_what_to_do_is_a_search(db, message):
    from agent.router import classify_offline

    assert classify_offline(message).intent == "EXPLORE"


@pytest.mark.parametrize(
    ("message", "intent"), [("what did I organize?", "MANAGE"), ("这个几点开始", None)]
)
def test_what_one_organised_is_managed_and_a_pointer_is_no_named_activity(message, intent):
    from agent.router import rule_scores

    scores = rule_scores(message)
    assert (max(scores, key=scores.get) if any(scores.values()) else None) == intent


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        ("anything on sunday?", "EXPLORE"),
        ("anything happening this weekend", "EXPLORE"),
        ("do I have anything on sunday?", "MANAGE"),
        ("我周日有什么安排", "MANAGE"),
        ("周日有什么活动", "EXPLORE"),
    ],
)
def test_anything_on_a_day_asks_what_is_on_and_do_i_have_asks_about_ones_own(message, intent):
    from agent.router import rule_scores

    scores = rule_scores(message)
    assert max(scores, key=scores.get) == intent and scores[intent] > 0
