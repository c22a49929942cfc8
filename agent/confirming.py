"""Proposed actions waiting for the user's yes: the state-changing tools a model may only
propose, the question asking to confirm one, and the chat's one waiting proposal (agent.chat)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from agent.context import RuntimeContext
from agent.extract import is_english
from agent.models import AgentSession

# Tools that change state the user shares with others; the LLM may only propose them. What each
# does, in Chinese and in English (the question asking to confirm follows the user's language).
CONFIRM_TOOLS = {
    "publishActivity": "发布活动",
    "cancelActivity": "取消活动",
    "joinActivity": "报名活动",
    "leaveActivity": "退出活动",
}
CONFIRM_TOOLS_EN = {
    "publishActivity": "publish the activity",
    "cancelActivity": "cancel the activity",
    "joinActivity": "join the activity",
    "leaveActivity": "leave the activity",
}
PENDING_TTL = timedelta(minutes=10)
# A bare yes (是的, 确认, "yes"): the answer to a proposed action.
CONFIRM_WORDS = frozenset(
    {"是", "是的", "确认", "确定", "好", "好的", "对", "执行", "yes", "y", "ok", "confirm"}
)
_CONFIRM_STRIP = " \t\r\n。，,.!！~～"
# What a bare yes does when nothing was proposed (``RuntimeContext.action``): the chat says so.
NOTHING_TO_CONFIRM = "nothing to confirm"


def is_confirmation(message: str) -> bool:
    """Return whether a message is a bare yes (是的, 确认, yes...) to a proposed action."""
    return message.strip(_CONFIRM_STRIP).lower() in CONFIRM_WORDS


def describe(name: str, arguments: dict, english: bool = False) -> str:
    """Return what a proposed call does, in one language ("cancel the activity #42")."""
    what = (CONFIRM_TOOLS_EN if english else CONFIRM_TOOLS).get(name, name)
    activity = arguments.get("activityId")
    return f"{what} #{activity}" if activity is not None else what


def confirmation_question(pending: dict, message: str) -> str:
    """Return the question asking the user to confirm ``pending``, in the language of
    ``message``."""
    if is_english(message):
        what = describe(pending["name"], pending["arguments"], english=True)
        return f'\n\nPlease confirm: {what}. Reply "confirm" to go ahead; anything else cancels it.'
    return (
        f"\n\n需要你确认：{describe(pending['name'], pending['arguments'])}。"
        "回复「确认」执行，回复其他内容则取消。"
    )


def reply_asked(ctx: RuntimeContext) -> bool:
    """Return whether the chat's last reply asked the user something (a yes may answer it)."""
    replies = [c.body for c in ctx.session if c.meta.get("role") == "assistant" and c.body]
    return bool(replies) and replies[-1].rstrip().endswith(("?", "？"))


def take_pending(user, chat_id: str) -> dict | None:
    """Remove and return the chat's proposed action, if one is waiting and not expired."""

    session = AgentSession.objects.filter(user=user, chat_id=chat_id).first()
    if session is None or not session.pending_action:
        return None
    pending = session.pending_action
    AgentSession.objects.filter(pk=session.pk).update(pending_action=None)
    proposed = datetime.fromisoformat(pending.get("proposed_at", "1970-01-01T00:00:00+00:00"))
    if timezone.now() - proposed > PENDING_TTL:
        return None
    return pending
