"""History moved from another system (``manage.py memory_import``): stored when first stored."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from memory.models import ChatMessage, Kind
from memory.retention import retention_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def history_file(tmp_path):
    """Return ``write(items)``: a JSON Lines file of ``items``, its path."""

    def write(items: list[dict]) -> str:
        path = tmp_path / "history.jsonl"
        path.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in items) + "\n")
        return str(path)

    return write


def _item(mid: str, content: str, **extra) -> dict:
    return {
        "message_id": mid,
        "ts": "2026-05-01T10:00:00Z",
        "role": "user",
        "content": content,
        "chat_id": "spring",
        **extra,
    }


def test_an_imported_message_keeps_when_the_other_system_stored_it(user, history_file):
    stored = timezone.now() - timedelta(days=120)
    path = history_file(
        [_item("h1", "我家的猫叫年糕。", stored_at=stored.isoformat()), _item("h2", "好的。")]
    )

    before = timezone.now()

    call_command("memory_import", user.username, path)

    rows = dict(ChatMessage.objects.filter(user=user).values_list("message_id", "created_at"))
    assert rows["h1"] == stored and rows["h2"] >= before  # without stored_at: stored now


def test_history_past_the_retention_period_leaves_its_summary_after_the_sweep(
    user, history_file, django_capture_on_commit_callbacks
):
    stored = (timezone.now() - timedelta(days=100)).isoformat()
    texts = ["我家的猫叫年糕，是只橘猫。", "周末想去看电影。", "最近在学做饭。"]
    path = history_file([_item(f"h{i}", t, stored_at=stored) for i, t in enumerate(texts)])
    with django_capture_on_commit_callbacks(execute=True):
        call_command("memory_import", user.username, path)
        retention_run(dry_run=False)

    [summary] = ChatMessage.objects.filter(user=user)
    assert summary.kind == Kind.SUMMARY and "年糕" in summary.content


def test_a_time_in_the_future_imports_nothing(user, history_file):
    later = (timezone.now() + timedelta(days=1)).isoformat()
    path = history_file([_item("h1", "今天天气很好。"), _item("h2", "明天见。", stored_at=later)])

    with pytest.raises(CommandError, match=r"items\[1\]\.stored_at"):
        call_command("memory_import", user.username, path)

    assert not ChatMessage.objects.filter(user=user).exists()


def test_an_unknown_user_is_refused(db, history_file):
    with pytest.raises(CommandError, match="No user 'nobody'"):
        call_command("memory_import", "nobody", history_file([_item("h1", "你好。")]))
