"""Offline answers that ask which listed activity is meant: to join one of several (帮我报名
after a list), or after a place the list does not have (第二个几点开始 after a list of one); and
the answer offering the kind asked at other times when the time asked holds none of it."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from activities.models import ActivityStatus
from agent import extract
from agent.context import RuntimeContext
from agent.extract import is_english
from agent.offline_lines import (
    ASK_JOIN_EN,
    ASK_JOIN_ZH,
    activity_lines,
    activity_text,
    listed_ids,
    record_listing,
)


def which_text(ctx: RuntimeContext, calls: list[dict]) -> str:
    """Return "which one do you want to join?" over the listed activities one can still join
    (not gone, cancelled, finished or started since); with one left, whether to join it."""
    english = is_english(ctx.message)
    now = timezone.now()
    items = [
        c["result"]["activity"]
        for c in calls
        if "activity" in c["result"]
        and c["result"]["activity"]["status"] == ActivityStatus.ACTIVE
        and datetime.fromisoformat(c["result"]["activity"]["startAt"]) > now
    ]
    if not items:  # every one listed is gone, cancelled or over since
        if english:
            return "The activities I listed can no longer be joined. Shall I look for others?"
        return "刚才列出的活动都已经报不了名了。要我再找找别的吗？"
    if len(items) == 1:
        ctx.listed = listed_ids(items)  # the one in focus: 报名 / "sign me up" next joins it
        line = activity_text(items[0], english)
        if english:
            return f'Only one of them is still open: {line} Say "sign me up" to join it.'
        return f"只剩这一个还能报名：{line}要报名的话说“报名”。"
    return ask_which(ctx, items, english)


def beyond_text(ctx: RuntimeContext, calls: list[dict]) -> str:
    """Return the last listing again after a message named a place it does not have, or asked
    about a time, place or price without naming one (``ctx.action`` "which"), and ask which one
    is meant (one listed: it is the focus, so 报名 / "sign me up" joins it)."""
    english = is_english(ctx.message)
    items = [c["result"]["activity"] for c in calls if "activity" in c["result"]]
    if not items:  # every one listed is gone since
        gone = "The activities I listed are gone. Shall I look for others?"
        return gone if english else "刚才列出的活动都已经没有了。要我再找找别的吗？"
    ctx.listed, ctx.listed_for = listed_ids(items), ctx.shown_for  # still "which to cancel?"
    if len(items) == 1:
        line = activity_text(items[0], english)
        return f"I only listed one: {line}" if english else f"刚才只列了一个：{line}"
    lines = activity_lines(items, english)
    if ctx.action == "which":  # 那几点呢 after several: their times and places, and which one
        if english:
            return (
                f"Which one do you mean? Here they are again:\n{lines}\n"
                'Say "the second one", for example.'
            )
        return f"你问的是哪一个？刚才的是：\n{lines}\n可以说“第二个”。"
    if english:
        return f"I only listed {len(items)}:\n{lines}\nWhich one do you mean?"
    return f"刚才只列了 {len(items)} 个：\n{lines}\n你说的是哪一个？"


def ask_which(ctx: RuntimeContext, items: list[dict], english: bool) -> str:
    """Return "which one do you want to join?" over ``items``, listed for 第二个 next."""
    ctx.listed = listed_ids(items)
    lines = activity_lines(items, english)
    return f"Which one do you want to join?\n{lines}" if english else f"你想报名哪一个？\n{lines}"


def kind_outside_window_text(ctx: RuntimeContext, calls: list[dict], word: str, english: bool):
    """Return the answer when the time asked held none of the kind asked: say so, name what the
    time holds, and list the kind at other times (the second search, without the time)."""
    window_titles = [a["title"] for a in calls[0]["result"]["results"][:3]]
    items = calls[-1]["result"].get("results") or []
    said = extract.time_said(extract.read(calls[0]["arguments"].get("query", ctx.message)))
    if items:  # 第一个 / 换一批 next are about the kind's listings shown here
        record_listing(ctx, items, calls[-1]["arguments"])
    if english:
        only = ", ".join(f'"{t}"' for t in window_titles)
        head = f'Nothing about "{word}" {said or "at that time"} (only {only} then).'
        if not items:
            return head + " I found none at other times either."
        return f"{head} At other times:\n{activity_lines(items[:3], english)}\n{ASK_JOIN_EN}"
    only = "、".join(f"「{t}」" for t in window_titles)
    head = f"{said or '那段时间'}没有和「{word}」有关的活动（只有{only}）。"
    if not items:
        return head + "其他时间也没有找到。"
    return f"{head}其他时间的有：\n{activity_lines(items[:3], english)}\n{ASK_JOIN_ZH}"
