"""Asking to be reminded of an activity: "can you remind me the day before?", 提前一天提醒我.

Every activity a user joins or organises is reminded the day before it starts
(``agent.triggers.run_activity_reminders``); the request is read apart from what else the
message says (好的报名吧，记得提醒我 joins), and is no request at all beside a refusal or a time
and task of its own (不用提醒我; 明天下午三点开会，提醒我 is a deadline).
"""

from __future__ import annotations

import re

from agent import triggers

# Asking to be reminded of the activity in focus, without a time or task of its own ("can you
# remind me the day before?", 到时候提醒我一下): answered "I don't know" (a make-run look,
# session 52). A deadline with its time ("the essay is due Friday, remind me") is MANAGE's.
REMIND_ME_RE = re.compile(r"\bremind me\b|提醒(?:我|一下)", re.IGNORECASE)
# What makes "remind me" something else: a refusal (不用提醒我, "don't remind me") or a time or
# task of its own (明天下午三点开会，提醒我; "the essay is due Friday, remind me").
_NOT_REMINDING_RE = re.compile(
    r"不用|不要|别|甭|无需|\bdon'?t\b|\bno need\b|\bnever ?mind\b|\d\s*(?:点|:|am\b|pm\b)"
    r"|\bremind me\W+(?:what|when|where|which|who|how)\b",
    re.IGNORECASE,
)
# The reminder clause, to read what else the message asks ("好的报名吧，记得提醒我").
_REMIND_CLAUSE_RE = re.compile(
    r"[，,。]?\s*(?:(?:and|then)\s+)?(?:(?:can|could|will|would) you\s+)?(?:please\s+)?"
    r"(?:记得|到时候|提前一天|前一天|活动前一天)?(?:能|可以|会)?"
    r"(?:remind me\b[^.!?，,。]*[?？]?|提醒(?:我|一下)(?:一下)?[吧哦呀啊吗嘛]?[?？]?)",
    re.IGNORECASE,
)


def asks_reminder(message: str) -> bool:
    """Return whether a message asks to be reminded of the activity in focus ("can you remind
    me the day before?", 提前一天提醒我), with no refusal, time or task of its own."""
    message = message or ""
    return bool(
        REMIND_ME_RE.search(message)
        and not _NOT_REMINDING_RE.search(message)
        and not triggers.DEADLINE_RE.search(_REMIND_CLAUSE_RE.sub(" ", message))
    )


def without_reminder(message: str) -> str:
    """Return ``message`` without its "remind me" clause (好的报名吧，记得提醒我 -> 好的报名吧)."""
    return _REMIND_CLAUSE_RE.sub("", message or "").strip()
