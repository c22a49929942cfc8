"""Cancelling the reminder of a time the user told, by what it is about ("cancel the reminder
about my pills", "don't remind me to take my pills", 取消吃药的提醒, 不用提醒我吃药了).

A reminder asked for at a time ("remind me to take my pills at 9 tonight") or a deadline's the
day before is read from the user's messages (``agent.triggers.told_times``); the user could list
them ("what reminders do I have?") but not cancel one: "cancel the reminder about my pills" said
there was no activity to cancel (a make-run look, session 55). The words the request names are
looked for in what the user said; a request naming an activity instead ("turn off the reminder
for the hike") turns that activity's reminder off.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agent.naming import named_matches, named_words, said_in, singular
from agent.offline_lines import when_text

if TYPE_CHECKING:  # the intent rules read this module, and the context reads them
    from agent.context import RuntimeContext

# Cancelling a reminder by what it is about. Each form names it; one naming nothing ("turn off
# reminders", 不用提醒我) is about the activities' reminders (agent.reminding).
TASK_REMINDER_OFF_RE = re.compile(
    # "cancel the reminder about my pills", "delete my pill reminder", "turn off the reminder for
    # the hike"
    r"\b(?:cancel|delete|remove|clear|scrap|drop|turn off|switch off|kill)\s+(?:the|my|that|this)?"
    r"\s*(?:[\w'-]+\s+){0,3}?reminders?\b"
    # "don't remind me to take my pills", "stop reminding me about the dentist"
    r"|\b(?:don'?t|do not|no need to|stop|quit|never)\s+(?:ever\s+)?remind(?:ing)?\s+me\s+"
    r"(?:to|about|of)\s+\w"
    # "I don't need the pill reminder anymore"
    r"|\b(?:don'?t|do not|no longer) need (?:the|my|that|this|a|any)\s+(?:[\w'-]+\s+){0,3}?"
    r"reminders?\b"
    # 取消吃药的提醒, 删掉明天开会那个提醒, 把吃药的提醒删了, 吃药的提醒不要了
    r"|(?:取消|删掉|删除|删了|去掉|关掉|关闭|撤销|撤掉)[^\s，,。？?！!]{1,14}?提醒"
    # 取消提醒我吃药
    r"|(?:取消|删掉|删除|去掉|关掉|关闭|撤销|撤掉)(?:掉)?提醒我?(?=[\u4e00-\u9fff])(?!一下)"
    r"|把[^\s，,。？?！!]{1,14}?提醒(?:给)?(?:取消|删|去掉|关|撤)"
    r"|[^\s，,。？?！!]{1,14}?提醒(?:不用|不要|取消|删)了?"
    # 不用提醒我吃药了, 别再提醒我交房租了 (不用提醒我 alone refuses every activity's reminder)
    r"|(?:不用|不要|别|甭|无需|不需要)(?:再)?提醒我(?=[\u4e00-\u9fff])(?![了啦哦吧啊呀哈])",
    re.IGNORECASE,
)
# The words of such a request that name nothing: the reminder and its cancelling (the rest of
# what names nothing, agent.naming.named_words takes out).
_REMINDER_WORDS_RE = re.compile(
    r"提醒我|提醒|不用|不要|不需要|无需|甭|别再|别|关掉|关闭|去掉|撤销|撤掉|删了|删|撤|关|给"
    r"|记得|麻烦|帮我|一下|再|也"
    r"|\b(?:reminders?|remind(?:ing)?|about|delete|remove|clear|scrap|drop|turn|switch|off|kill"
    r"|stop|quit|never|ever|no|longer|need|needed|any|more|anymore|also|please|pls|thanks"
    r"|thank|hey|hi|you|can|could|would|will|again)\b",
    re.IGNORECASE,
)


def named_task(message: str) -> list[str]:
    """Return the words a request to cancel a reminder names it by (取消吃药的提醒 -> 吃药;
    "cancel the reminder about my pills" -> pills)."""
    return named_words(_REMINDER_WORDS_RE.sub(" ", message or ""))


def task_digest(text: str) -> str:
    """Return what a reminder asked for is about, the same however it was asked ("remind me at
    11:30pm to feed the cat" and "can you also remind me at 23:30 to feed the cat please": one
    reminder, the re-audit of session 56 found three): its words, singular, sorted."""
    return " ".join(sorted({singular(w.lower()) for w in named_task(text)}))


# Cancelling a reminder naming none (取消提醒, 把提醒取消了, 提醒不要了; "cancel my reminder" is
# read by TASK_REMINDER_OFF_RE): it fell to cancelling an activity, and "the first one" then
# left it (an audit, session 56).
_NONE_NAMED_ZH_RE = re.compile(
    r"(?:取消|删掉|删除|去掉|关掉|关闭|撤销|撤掉)(?:掉)?(?:那个|这个|我的)?提醒"
    r"|把(?:那个|这个|我的)?提醒(?:给)?(?:取消|删|去掉|关|撤)"
    r"|^\W*(?:那个|这个|我的)?提醒(?:不用|不要|取消|删)了?"
)
# Every reminder ("cancel all my reminders", 关掉所有提醒, 提醒全部取消).
_ALL_RE = re.compile(r"\ball\b|\bevery\b|所有|全部|都", re.IGNORECASE)
# Both, for the intent router.
REMINDER_OFF_RE = re.compile(
    f"{TASK_REMINDER_OFF_RE.pattern}|{_NONE_NAMED_ZH_RE.pattern}", re.IGNORECASE
)


def cancels_task_reminder(message: str) -> bool:
    """Return whether a message cancels a reminder naming what it is about."""
    return bool(TASK_REMINDER_OFF_RE.search(message or "")) and bool(named_task(message))


def cancels_reminder(message: str) -> bool:
    """Return whether a message cancels a reminder, naming it or not ("cancel my reminder")."""
    return bool(REMINDER_OFF_RE.search(message or ""))


def task_matches(about: str, tasks: list[dict]) -> list[dict]:
    """Return the told reminders (``said``) holding every word ``about`` names."""
    words = named_task(about)
    if not words:
        return []
    return [t for t in tasks if all(said_in(w, t["said"]) for w in words)]


def plan_task_reminder(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan "cancel the reminder about my pills": read the reminders, then cancel the told ones
    it names or, naming none of them, turn off the reminder of the one activity it names; else
    nothing more (the answer lists the reminders)."""
    if not done:
        return [("getActivityReminders", {})]
    if "error" in done[-1]["result"] or (len(done) > 1 and not _ALL_RE.search(ctx.message)):
        return []
    result = done[0]["result"]
    tasks = result.get("tasks") or []
    reminded = [a for a in result.get("activities") or [] if a.get("remind")]
    if _ALL_RE.search(ctx.message) and not named_task(_ALL_RE.sub(" ", ctx.message)):
        # "cancel all my reminders", 关掉所有提醒: the told ones, then the activities' too.
        called = {c["name"] for c in done}
        if tasks and "cancelTaskReminder" not in called:
            return [("cancelTaskReminder", {"all": True})]
        if reminded and "setActivityReminder" not in called:
            return [("setActivityReminder", {"remind": False})]
        return []
    if not named_task(ctx.message):
        # Naming none: the one reminder there is, else the answer asks which.
        if len(tasks) == 1 and not reminded:
            return [("cancelTaskReminder", {"about": tasks[0]["said"]})]
        if not tasks and len(reminded) == 1:
            return [("setActivityReminder", {"activityId": reminded[0]["id"], "remind": False})]
        return []
    if task_matches(ctx.message, tasks):
        return [("cancelTaskReminder", {"about": ctx.message})]
    _words, matching = named_matches(" ".join(named_task(ctx.message)), reminded)
    if len(matching) == 1:
        return [("setActivityReminder", {"activityId": matching[0]["id"], "remind": False})]
    return []


def cancelled_text(call: dict, english: bool) -> str:
    """Return the answer to a ``cancelTaskReminder`` call: which reminders will not come."""
    tasks = call["result"].get("tasks") or []
    if english:
        lines = "; ".join(f'"{t["said"]}" ({when_text(t["dueAt"], True)})' for t in tasks)
        return f"OK, I won't remind you of {lines}. Tell me again with the time to have it back."
    lines = "；".join(f"「{t['said']}」（{when_text(t['dueAt'])}）" for t in tasks)
    return f"好的，{lines}不再提醒你。想要回来的话，连同时间再跟我说一次。"
