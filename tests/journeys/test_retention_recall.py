"""Recall after the 90-day retention, over real HTTP: only a summary is left, and it answers.

On the journey service (``manage.py serve``, tests/journeys/conftest.py; offline agent, local
model). A user's spring chat comes from another system that stored it 100 days ago: staff
import it with ``manage.py memory_import`` and its ``stored_at`` (the supported way to bring
history that is already old; the server's clock is never touched). Staff then run retention
(``manage.py memory_retention``, what the daily task runs): the chat is summarised and its
turns are deleted. The lexical, semantic and hybrid searches still find what the summary
holds, and say it is a summary; the agent's recall quotes it, the cat's name with it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from tests.journeys.helpers import say
from tests.platform.live_service import manage

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

STORED_DAYS_AGO = 100  # past the default 90-day retention period
SUMMARY_EMBEDDED_WITHIN_SECONDS = 120
SEARCHES = ("lexical", "semantic", "hybrid")
SPRING = {
    "zh": {
        "user": "june",
        "chat": ["我家的猫叫年糕，是只橘猫。", "周末想去公园野餐。", "最近在学做红烧肉。"],
        "search": "我的猫叫什么名字",
        "ask": "我之前说我的猫叫什么名字？",
        "name": "年糕",
        "says_summary": "摘要",
    },
    "en": {
        "user": "kyle",
        "chat": [
            "My cat is called Biscuit, a ginger tabby.",
            "I want a picnic in the park this weekend.",
            "Learning to cook braised pork lately.",
        ],
        "search": "what is my cat called",
        "ask": "What did I tell you my cat is called?",
        "name": "Biscuit",
        "says_summary": "summary",
    },
}


def import_old_chat(service, user: str, texts: list[str]) -> None:
    """Import a chat another system stored ``STORED_DAYS_AGO`` days ago (staff, a command).

    The file goes beside the service's database, not under pytest's tmp dir (another pytest
    session starting meanwhile may clean that up).
    """
    path = service.db.data_dir.parent / f"spring-{user}.jsonl"
    stored = datetime.now(UTC) - timedelta(days=STORED_DAYS_AGO)
    lines = [
        {
            "message_id": f"spring_{i}",
            "chat_id": "spring",
            "ts": (stored + timedelta(minutes=i)).isoformat(),
            "role": "user",
            "content": text,
            "stored_at": (stored + timedelta(minutes=i)).isoformat(),
        }
        for i, text in enumerate(texts)
    ]
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    # Q_SYNC off: the service's workers embed what the command stores, as for any write.
    manage(service.db.data_dir, "memory_import", user, str(path), env={"Q_SYNC": "0"})


def messages_left(service, user: str) -> list[dict]:
    return service.get(f"/v1/users/{user}/messages", user).json()["items"]


def retention_leaves_a_summary(service, user: str) -> dict:
    """Run retention as staff do until the chat's turns are gone; return its summary."""

    def only_the_summary():
        items = messages_left(service, user)
        if items and all(item["kind"] == "summary" for item in items):
            return items
        # A run holding the lock (the daily schedule's) answers "skipped": run again.
        manage(service.db.data_dir, "memory_retention", env={"Q_SYNC": "0"})
        return None

    (summary,) = service.wait_until(only_the_summary, 120, interval=1, what="retention ran")

    def embedded():
        (row,) = messages_left(service, user)
        return row if row["embed_state"] == "ready" else None

    return service.wait_until(embedded, SUMMARY_EMBEDDED_WITHIN_SECONDS, what="summary embedded")


@pytest.mark.parametrize("lang", list(SPRING))
def test_after_retention_search_and_recall_find_what_the_summary_holds(service, lang):
    spec = SPRING[lang]
    user = spec["user"]
    import_old_chat(service, user, spec["chat"])

    summary = retention_leaves_a_summary(service, user)

    assert summary["chat_id"] == "spring" and spec["name"] in summary["content"]
    for kind in SEARCHES:
        found = service.post(
            f"/v1/messages/{kind}_search", user, {"user_id": user, "query_text": spec["search"]}
        )
        assert found.status_code == 200, found.text
        first = found.json()["items"][0]
        assert first["message_id"] == summary["message_id"], kind
        assert first["provenance"]["source"]["type"] == "summary", kind
        assert first["provenance"]["source"]["covers"]["count"] == len(spec["chat"]), kind
    recall = say(service, user, spec["ask"], chat_id="back_again")
    assert spec["name"] in recall["reply"] and spec["says_summary"] in recall["reply"]
    assert f"knowledge:msg:{summary['message_id']}" in recall["sources"]
