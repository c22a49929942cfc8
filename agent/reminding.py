"""Asking to be reminded of an activity ("can you remind me the day before?", 提前一天提醒我), or
not to be (不用提醒我, "don't remind me": ``agent.tools_reminders``).

Every activity a user joins or organises is reminded the day before it starts
(``agent.triggers.run_activity_reminders``); the request is read apart from what else the
message says (好的报名吧，记得提醒我 joins), and is no request at all beside a refusal or a time
and task of its own (不用提醒我; 明天下午三点开会，提醒我 is a deadline).
"""

from __future__ import annotations

import re

from agent import triggers
from agent.naming import named_matches

# Asking to be reminded of the activity in focus, without a time or task of its own ("can you
# remind me the day before?", 到时候提醒我一下): answered "I don't know" (a make-run look,
# session 52). A deadline with its time ("the essay is due Friday, remind me") is MANAGE's.
REMIND_ME_RE = re.compile(r"\bremind me\b|提醒(?:我|一下)", re.IGNORECASE)
# What makes "remind me" something else: a refusal (不用提醒我, "don't remind me") or a time or
# task of its own (明天下午三点开会，提醒我; "the essay is due Friday, remind me").
_NOT_REMINDING_RE = re.compile(
    # Not "don't forget to remind me", 别忘了提醒我: asking all the more.
    r"不用|不要(?!忘)|别(?!忘)|甭|无需|\bdon'?t\b(?!\s+forget)|\bno need\b|\bnever ?mind\b"
    r"|\d\s*(?:点|:|am\b|pm\b)"
    r"|\bremind me\W+(?:what|when|where|which|who|how)\b",
    re.IGNORECASE,
)
# The reminder clause, to read what else the message asks ("好的报名吧，记得提醒我").
_REMIND_CLAUSE_RE = re.compile(
    r"[，,。]?\s*(?:(?:and|then|but)\s+)?(?:(?:can|could|will|would) you\s+)?(?:please\s+)?"
    r"(?:don'?t forget to\s+)?"
    r"(?:记得|到时候|提前一天|前一天|活动前一天|别忘了|不要忘了)?(?:能|可以|会)?"
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


# Turning the reminders of every activity back on, with none in focus ("turn reminders back
# on", 恢复提醒, 还是提醒我吧): after "stop reminding me" nothing undid it (an audit, session 53).
REMINDERS_ON_RE = re.compile(
    r"\bturn (?:the |my )?reminders? (?:back )?on\b"
    r"|\bremind me (?:of (?:my|the) (?:activities|events) )?again\b"
    r"|恢复提醒|(?:还是|继续)(?:要)?提醒我(?:吧|吗|哦)?\W*$",
    re.IGNORECASE,
)
# A time or a task of its own: 明天三点开会，不用提醒我 is about that, not the activities.
_OWN_TIME_RE = re.compile(r"\d\s*(?:点|:|am\b|pm\b)", re.IGNORECASE)


def refuses_reminder(message: str) -> bool:
    """Return whether a message asks not to be reminded of activities (不用提醒我, "don't remind
    me"), with no time or task of its own."""
    message = message or ""
    return bool(
        triggers.REMINDER_REFUSED_RE.search(message)
        and not _OWN_TIME_RE.search(message)
        and not triggers.DEADLINE_RE.search(message)
    )


# The refusal clause with what goes with it (以后都…了, "please", "thanks"), to read what else the
# message says (好的，不用提醒我 is the refusal alone; 第二个不去了，不用提醒我 cancels first).
_REFUSAL_CLAUSE_RE = re.compile(
    r"(?:以后|今后|之后|这个|那个)?(?:都|也)?(?:" + triggers.REMINDER_REFUSED_RE.pattern + r")"
    r"(?:我|me)?(?:了|啦|哦|吧|啊|呀)?(?:\s*(?:please|thanks|thank you|谢谢|谢啦))?",
    re.IGNORECASE,
)


def about_reminders(message: str) -> bool:
    """Return whether a message turns the reminders off or back on (不用提醒我, 恢复提醒)."""
    return refuses_reminder(message) or bool(REMINDERS_ON_RE.search(message or ""))


def without_refusal(message: str) -> str:
    """Return ``message`` without its refusal of reminders (好的，不用提醒我 -> 好的，)."""
    return _REFUSAL_CLAUSE_RE.sub("", message or "").strip()


def without_reminder(message: str) -> str:
    """Return ``message`` without its "remind me" clause (好的报名吧，记得提醒我 -> 好的报名吧)."""
    return _REMIND_CLAUSE_RE.sub("", message or "").strip()


def _named_part(message: str) -> str:
    """Return what a message about the reminders says besides asking for them (卡坦岛那个不用提醒
    我 -> 卡坦岛那个; "don't remind me about the board game one" -> "board game")."""
    rest = REMINDERS_ON_RE.sub(" ", without_refusal(message))
    return re.sub(r"\b(?:about|of|the|one|please|again)\b|那个|这个|的", " ", rest, flags=re.I)


def plan_reminders(ctx, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan 不用提醒我 / 恢复提醒 with no activity in focus: read the user's activities ahead, then
    turn off (or back on) the reminder of the one the message names, or of every one when it
    names none; several or none named: nothing more (the answer asks which)."""
    if not done:
        return [("getMyActivities", {"scope": "all"})]
    if len(done) > 1 or "error" in done[-1]["result"]:
        return []
    remind = not refuses_reminder(ctx.message)
    items = [a for a in done[-1]["result"].get("activities") or [] if a["status"] == "active"]
    words, matching = named_matches(_named_part(ctx.message), items)
    if not words:
        return [("setActivityReminder", {"remind": remind})]
    if len(matching) == 1:
        return [("setActivityReminder", {"activityId": matching[0]["id"], "remind": remind})]
    return []
