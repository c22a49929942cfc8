"""Asking to be reminded of an activity ("can you remind me the day before?", 提前一天提醒我), or
not to be (不用提醒我, "don't remind me": ``agent.tools_reminders``), or whether one will be
("will I get a reminder?", 怎么没提醒我).

Every activity a user joins or organises is reminded the day before it starts
(``agent.activity_reminders.run_activity_reminders``); the request is read apart from what else the
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
# The English of it, for the router: not "remind me what I said" (memory's).
REMIND_ME_EN_RE = re.compile(
    # Not "you remind me of my brother", "remind me again what we're doing on Saturday?" (an
    # audit, session 54).
    r"\bremind me\b(?!\W+(?:again\W+)?(?:what|when|where|which|who|how|of what)\b)"
    r"(?! of (?:your|his|her|a|an|the way|when)\b)(?! of my (?!activities|events)\w)",
    re.IGNORECASE,
)
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
        and not triggers.REMIND_TASK_RE.search(message)  # "remind me to call mom at 5"
        and not triggers.DEADLINE_RE.search(_REMIND_CLAUSE_RE.sub(" ", message))
        # 会提醒我吗 asks whether, it does not ask for one (it turned a muted one back on: an
        # audit, session 54).
        and not asks_reminder_state(message)
    )


# Asking whether the activities' reminders will come, or why one did not ("will I get a
# reminder?", "did you remind me about the climbing?", "I got no reminder for the hike", 会提醒我
# 吗, 怎么没提醒我): it listed one's activities, or answered from memory (a make-run look,
# session 54). The reminders' state answers it (``getActivityReminders``).
REMINDER_ASKED_RE = re.compile(
    r"\bwill (?:i (?:get|be sent|receive)\b[^?.]*\breminder|you remind me\b(?!\s+to\b))"
    r"|\b(?:did|didn'?t|have|haven'?t|why (?:didn'?t|did ?n'?t|haven'?t)) you remind(?:ed)? me\b"
    r"|\b(?:got|get|received?|had|have) no reminders?\b"
    r"|\b(?:didn'?t|did not|never|haven'?t|have not) (?:get|got|receive[d]?|see|seen) (?:a|an|any|"
    r"the|my)? ?reminders?\b"
    r"|\bwhen (?:will|do|would) (?:you|i) (?:remind|get (?:a|the|my) reminder)"
    r"|\b(?:is|are) (?:the |my )?reminders? (?:on|set|coming)\b"
    r"|会(?:不会)?提醒我(?:吗|嘛|么)?\s*[?？]?\s*$|会不会提醒|有没有提醒|提醒(?:了|过)我?(?:吗|没)"
    r"|(?:怎么|为什么|为啥|咋)(?:没|不)(?:有)?提醒|没(?:有)?收到(?:[^，,。？?]{0,12})?提醒"
    r"|(?:什么时候|几点|哪天)提醒我|提醒(?:开着|打开了|设好了)(?:吗|没)"
    # Which reminders there are ("what reminders do I have?", 我有哪些提醒): it answered "I don't
    # know" after "remind me to take my pills at 8 tonight" (a make-run look, session 55).
    r"|\bwhat reminders (?:do i have|have i (?:got|set)|did i set|are (?:set|on|coming))\b"
    r"|\b(?:list|show|see|check)(?: me)? (?:all )?(?:of )?my reminders\b"
    r"|\b(?:any|my) reminders (?:set|coming|ahead|for (?:today|tonight|tomorrow|this week))\b"
    r"|^\W*(?:my )?reminders\W*$|\bdo i have any reminders\b"
    r"|(?:哪些|什么|几个)提醒|提醒(?:列表|清单)|我的提醒|设(?:了|过)(?:哪些|什么)提醒",
    re.IGNORECASE,
)


# Someone or something else reminding ("老婆怎么没提醒我带钥匙", "I never get reminders from my
# bank", 我没收到验证码提醒): not the activities' reminders (an audit, session 54).
_NOT_OURS_RE = re.compile(
    r"妈|爸|老婆|老公|媳妇|朋友|同事|老板|室友|闹钟|手机|银行|验证码|日历|吃药|带钥匙"
    r"|\b(?:apps?|phone|bank|meds?|medication|pills?|mom|mum|dad|wife|husband|alarm|calendar"
    r"|as a kid|email)\b",
    re.IGNORECASE,
)


def asks_reminder_state(message: str) -> bool:
    """Return whether a message asks whether, or when, the activities' reminders come (会提醒
    我吗, "I got no reminder for the hike"), not someone else's reminding nor a task's own."""
    message = message or ""
    return (
        bool(REMINDER_ASKED_RE.search(message))
        and not _NOT_OURS_RE.search(message)
        and not refuses_reminder(message)
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
    """Return whether a message is about the activities' reminders: off, back on, asked for
    (不用提醒我, 恢复提醒, 提前一天提醒我) or asked about (会提醒我吗)."""
    return (
        refuses_reminder(message)
        or bool(REMINDERS_ON_RE.search(message or ""))
        or asks_reminder(message)
        or asks_reminder_state(message)
    )


def without_refusal(message: str) -> str:
    """Return ``message`` without its refusal of reminders (好的，不用提醒我 -> 好的，)."""
    return _REFUSAL_CLAUSE_RE.sub("", message or "").strip()


def without_reminder(message: str) -> str:
    """Return ``message`` without its "remind me" clause (好的报名吧，记得提醒我 -> 好的报名吧)."""
    return _REMIND_CLAUSE_RE.sub("", message or "").strip()


# The words of a message about the reminders that name no activity ("can you", "the day
# before", 到时候, 会…吗, "got no reminder for").
_REMINDER_WORDS_RE = re.compile(
    r"\b(?:about|of|for|the|one|please|again|can|could|will|would|you|i|me|my|remind(?:ed|ing)?|"
    r"reminders?|day|before|don'?t|forget|to|did|didn'?t|got|get|no|any|a|why|when|is|are|on|"
    r"see|seen|saw|show|shown|come|comes|came|"
    r"set|have|haven'?t|never|receive[d]?|what|which|list|check|all|do|ahead|coming|today|"
    r"tonight|tomorrow|this|week)\b"
    r"|那个|这个|的|记得|到时候|提前一天|前一天|活动|别忘了|不要忘了|提醒|一下|会不会|会|我|你|"
    r"哪些|什么|几个|列表|清单|设|"
    r"怎么|为什么|为啥|咋|没有|没|收到|有|吗|嘛|么|吧|哦|呀|啊|了|过|[?？!！,，.。]",
    re.IGNORECASE,
)


def named_part(message: str) -> str:
    """Return what a message about the reminders names besides them (卡坦岛那个不用提醒我 -> 卡坦
    岛; "don't remind me about the board game one" -> "board game"; "I got no reminder for the
    hike" -> "hike")."""
    rest = REMINDERS_ON_RE.sub(" ", without_refusal(message))
    return _REMINDER_WORDS_RE.sub(" ", rest).strip()


def plan_reminders(ctx, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan 不用提醒我 / 恢复提醒 / 提前一天提醒我 with no activity in focus: read the user's
    activities ahead, then turn off (or back on) the reminder of the one the message names, or
    of every one when it names none; several or none named: nothing more (the answer asks
    which). Asked whether they come (会提醒我吗): read their state."""
    if asks_reminder_state(ctx.message):
        return [] if done else [("getActivityReminders", {})]
    if not done:
        return [("getMyActivities", {"scope": "all"})]
    if len(done) > 1 or "error" in done[-1]["result"]:
        return []
    remind = not refuses_reminder(ctx.message)
    items = [a for a in done[-1]["result"].get("activities") or [] if a["status"] == "active"]
    words, matching = named_matches(named_part(ctx.message), items)
    if not words:
        return [("setActivityReminder", {"remind": remind})]
    if len(matching) == 1:
        return [("setActivityReminder", {"activityId": matching[0]["id"], "remind": remind})]
    return []
