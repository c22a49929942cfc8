"""Proactive triggers: notice something in a user's messages and tell the user first.

Each trigger writes :class:`agent.models.SystemEvent` rows and is idempotent through the
``period_key`` (unique per user and kind), so a second run in the same period creates nothing:

- daily digest, key ``YYYY-MM-DD`` (local date): the user's last 24 hours of messages,
  summarised (``memory.summarize.summarise_texts``: the LLM when configured, else extractive);
- interest spike, key ``YYYY-MM-DD`` (one per user per day): a subject (a jieba term of two or
  more characters, stopwords and time words removed) in at least ``interest_spike_count``
  distinct user messages within ``interest_spike_days`` days (live settings), not already
  reported in that window; the payload suggests matching activities;
- deadline reminder, key ``YYYY-MM-DDTHH:MM`` (the local due time, so one per user per due
  time however many messages mention it): a user message with a task word (截止, 开会, 考试,
  ...) and a time ("下周五截止", "明天下午三点开会"), read relative to when it was sent, fires
  once during the day before that time; the payload quotes the first such message and lists
  the ids of all of them known at that run; a reminder asked for at a time ("remind me to
  call mom at 5pm", 明天提醒我交房租: ``REMIND_TASK_RE``) fires once at that time instead, key
  ``asked@YYYY-MM-DDTHH:MM#<digest of what it is about>`` (one per task asked for that time);
  a reminder the user cancelled is not sent unless told again (``told_reminders``);
- activity reminder (``agent.activity_reminders``).

With an LLM configured, the event text is polished by it; offline (or on any LLM error) the
templates below are used.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from activities.search import activities_search
from agent.extract import extract_time_range, is_english
from agent.models import EventKind, SystemEvent
from agent.selectors import agent_settings_get, task_reminders_cancelled
from agent.task_reminders import task_digest
from memory.selectors import messages_between, users_with_messages_since
from memory.summarize import summarise_texts
from rag.llm import get_llm
from rag.text import STOPWORDS, segment_for_index

logger = logging.getLogger(__name__)

DIGEST_MAX_CHARS = 300
DEADLINE_LOOKBACK_DAYS = 30
# How late a reminder asked for at a time may still come (the worker runs every 30 minutes and
# may have been down): past this, a "remind me at 5pm" is no use any more.
ASKED_REMINDER_LATE = timedelta(hours=6)
# Something to hand in, before or after it (交报告, 提交; 报告今天要交, 论文周五得交: not 要交朋友,
# 交流, 交通, an audit of session 53): a task, read by DEADLINE_RE and _DUE_RE alike.
_HAND_IN = r"交(?:报告|作业|材料|稿)|提交|(?:要|得|该|需要|必须)交(?![朋友流通往谈际换])"
# Asking to be reminded of a task at a time ("remind me to call mom at 5pm", 明天提醒我交房租,
# 提醒我一下周五买票): reminded at that time, not the day before (a make-run look, session 54:
# "remind me to buy milk tomorrow" said the user had nothing on tomorrow). Not 提醒我一下 or
# 提前一天提醒我 with nothing after it: the activity in focus (agent.reminding).
REMIND_TASK_RE = re.compile(
    # The time may come first ("remind me at 5pm to call mom", 提醒我8点吃药: an audit, session 54).
    # Not refused: "don't remind me to …", 不用提醒我明天的活动 (the lead's review, session 54).
    r"(?<!n't )(?<!not )(?<!never )"
    r"\bremind me (?:(?:at|on|in|by|tonight|tomorrow|today|this|next|(?:mon|tues|wednes|thurs"
    r"|fri|satur|sun)day)\b[^.?!,]{0,30}?\s)?to\b"
    r"|(?<![不别甭])(?<!不用)(?<!不要)(?<!无需)(?<!需要)(?<!取消)(?<!关掉)(?<!删掉)"
    r"提醒我(?:一下)?(?![一吧哦呀啊吗嘛了呢们])(?=[\u4e00-\u9fff\d])",
    re.IGNORECASE,
)
DEADLINE_RE = re.compile(
    REMIND_TASK_RE.pattern
    + r"|截止|DDL|ddl|deadline|到期|开会|会议|考试|面试|生日|航班|出发|预约|约了|记得|别忘|"
    + _HAND_IN
    # English too: an English user's deadlines went unread (a make-run look, session 51).
    # Not "due to work", "meeting new people", a beer "flight" (an audit, session 51).
    # An appointment too ("I have a dentist appointment tomorrow afternoon" listed the user's
    # activities: an audit, session 51).
    + r"|\b(?:deadline|is due|due (?:on|by)|exam|interview|submit|hand in|appointment)\b",
    re.IGNORECASE,
)
# Refusing the reminders: 不用提醒我, 以后都别提醒我了, "don't remind me", "stop reminding me",
# "no reminders please" (it listed one's activities: an audit, session 52).
REMINDER_REFUSED_RE = re.compile(
    # Only the reminder itself refused: nothing after it but a particle, a pause or the end
    # (不用提醒我吃药, 我不需要提醒你 are about something else: an audit, session 53).
    r"(?:不用|不要|别|甭|无需|不需要|没必要)(?:再|了)?(?:给我)?提醒(?:我)?(?:了|啦|哦|吧|啊|呀|哈)*"
    r"(?=\s*(?:[，,。.!！~～?？]|谢谢|$))"
    # "don't remind me", "stop reminding me (about it)", with nothing after it but what names an
    # activity or the reminder ("don't remind me of my ex" is no reminder: the same audit).
    r"|\b(?:don'?t|do not|no need to|stop|quit|never)\s+(?:ever\s+)?remind(?:ing)?\s+me"
    r"(?=\s*(?:[,.!?;]|$|(?:please|thanks|thank you|again|anymore|any more|the day before)\b"
    r"|about (?:it|this|that|them|anything|activities|events|the \w+(?: \w+)? one)\b))"
    # "no reminders (please)" said alone; "I got no reminder for the hike" is a complaint.
    r"|^\W*(?:ok(?:ay)?\W+|and\W+)?no (?:more )?reminders?(?:\s+please)?\W*$"
    r"|\bturn off (?:the |my )?reminders?\b",
    re.IGNORECASE,
)
# A task's deadline, not an event's time: due by the end of its day when only the day is said.
_DUE_RE = re.compile(
    r"截止|DDL|到期|" + _HAND_IN + r"|\b(?:deadline|is due|due|submit|hand in)\b", re.IGNORECASE
)
# Words too common to be a subject of interest (on top of rag.text.STOPWORDS).
_GENERIC_TEXT = (
    "今天 明天 后天 昨天 周末 晚上 下午 上午 早上 中午 现在 时候 一下 一个 一起 可以 想要 "
    "还是 就是 不是 没有 有没有 什么 怎么 这个 那个 活动 推荐 附近 地方 喜欢 觉得 知道 "
    "感觉 真的 不错 一些 有点 已经 因为 所以 但是 然后 如果 我们 你们 他们 自己 大家 东西 事情 "
    "时间 问题 谢谢 好的 哈哈"
)
# English days and asking words: an English user's note named "saturday" as their interest (an
# audit, session 51).
_GENERIC_TEXT_EN = (
    "monday tuesday wednesday thursday friday saturday sunday weekend weekends today tomorrow "
    "tonight yesterday morning afternoon evening night week weeks next last time something "
    "anything activity activities event events find looking want wanna like love please thanks "
    "thank maybe really also just good great nice fun any some"
)
GENERIC_TERMS = frozenset(_GENERIC_TEXT.split()) | frozenset(_GENERIC_TEXT_EN.split())
POLISH_SYSTEM = "把下面的提醒改写成一句亲切、简洁的中文通知，保留所有事实，只输出改写后的句子。"


def period_day(now: datetime | None = None) -> str:
    """Return today's local date as a period key."""
    return timezone.localdate(now or timezone.now()).isoformat()


def polish(text: str) -> str:
    """Return ``text`` rewritten by the LLM when one is configured, else unchanged."""
    llm = get_llm()
    if not llm.enabled:
        return text
    try:
        answer = (llm.complete(text, system=POLISH_SYSTEM, max_tokens=200) or "").strip()
    except Exception as exc:  # noqa: BLE001 - the template stands in
        logger.warning("LLM polish failed, keeping the template: %s", exc)
        return text
    return answer or text


def record_event(*, user, kind: str, period_key: str, build) -> SystemEvent | None:
    """Create the event unless this period has one; ``build()`` makes the payload lazily."""
    if SystemEvent.objects.filter(user=user, kind=kind, period_key=period_key).exists():
        return None
    payload = build()
    if payload is None:
        return None
    try:
        with transaction.atomic():
            return SystemEvent.objects.create(
                user=user, kind=kind, period_key=period_key, payload=payload
            )
    except IntegrityError:  # a concurrent run of the same trigger won
        return None


def mostly_english(texts) -> bool:
    """Return whether most of ``texts`` are English: an event is written in the language the
    user writes in (one language at a time; they were Chinese only until session 51)."""
    texts = list(texts)
    return bool(texts) and 2 * sum(is_english(t) for t in texts) > len(texts)


def daily_digest_for(user, now: datetime | None = None) -> SystemEvent | None:
    """Summarise the user's last 24 hours of messages, once per local day."""

    now = now or timezone.now()

    def build():
        rows = list(
            messages_between(user=user, since=now - timedelta(hours=24), until=now, role=None)
        )
        if not rows:
            return None
        summary = summarise_texts([r.content for r in rows], max_chars=DIGEST_MAX_CHARS)
        if mostly_english(r.content for r in rows if r.role == "user"):
            title = "Your day"
            text = f"We exchanged {len(rows)} messages in the last 24 hours. In short: {summary}"
        else:
            title = "今日回顾"
            text = polish(f"过去 24 小时你和我聊了 {len(rows)} 条消息。要点：{summary}")
        return {
            "title": title,
            "text": text,
            "summary": summary,
            "messageCount": len(rows),
            "since": (now - timedelta(hours=24)).isoformat(),
            "until": now.isoformat(),
        }

    return record_event(
        user=user, kind=EventKind.DAILY_DIGEST, period_key=period_day(now), build=build
    )


# --- interest spike -------------------------------------------------------------------------


def subject_terms(text: str) -> set[str]:
    """Return the candidate subjects of one message (distinct jieba search-mode terms).

    Search mode also emits the sub-words of long words, so 吃火锅 counts as 火锅 too.
    """
    return {
        term
        for term in segment_for_index(text).split()
        if len(term) >= 2
        and term not in STOPWORDS
        and term not in GENERIC_TERMS
        and not term.isdigit()
        and not re.fullmatch(r"[a-z]{1,2}", term)
    }


def spike_terms(texts: list[str], threshold: int) -> list[tuple[str, int]]:
    """Return terms found in at least ``threshold`` messages, most frequent first."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(subject_terms(text))
    return [(t, n) for t, n in counts.most_common() if n >= threshold]


def interest_spike_for(user, now: datetime | None = None) -> SystemEvent | None:
    """Suggest activities when one subject keeps coming up, once per user per day."""
    now = now or timezone.now()
    row = agent_settings_get()
    days, threshold = row.interest_spike_days, row.interest_spike_count
    since = now - timedelta(days=days)

    def build():
        texts = list(
            messages_between(user=user, since=since, until=now, role="user").values_list(
                "content", flat=True
            )
        )
        reported = {
            (e.payload or {}).get("term")
            for e in SystemEvent.objects.filter(
                user=user, kind=EventKind.INTEREST_SPIKE, created__gte=since
            )
        }
        fresh = [(t, n) for t, n in spike_terms(texts, threshold) if t not in reported]
        if not fresh:
            return None
        term, count = fresh[0]
        suggestions = _suggest(user, term)
        if mostly_english(texts):
            title = f'You keep mentioning "{term}"'
            text = f'You mentioned "{term}" {count} times in the last {days} days. '
            if suggestions:
                titles = ", ".join(f'"{s["title"]}"' for s in suggestions)
                text += f"These activities may suit you: {titles}."
            else:
                text += "Shall I organise something about it, or find you company?"
        else:
            title = f"你最近常聊「{term}」"
            text = f"最近 {days} 天你提到「{term}」{count} 次，"
            if suggestions:
                text += "这些活动也许适合你：" + "、".join(f"「{s['title']}」" for s in suggestions)
            else:
                text += "要不要我帮你发起一个相关的活动，或者找个搭子？"
            text = polish(text)
        return {
            "title": title,
            "text": text,
            "term": term,
            "count": count,
            "windowDays": days,
            "suggestions": suggestions,
        }

    return record_event(
        user=user, kind=EventKind.INTEREST_SPIKE, period_key=period_day(now), build=build
    )


def _suggest(user, term: str) -> list[dict]:
    """Return up to three activities matching a term (none if the search fails)."""

    try:
        found = activities_search(user=user, semantic_query=term, filters={}, limit=3)
    except Exception as exc:  # noqa: BLE001 - a suggestion is optional
        logger.warning("interest spike suggestions failed: %s", exc)
        return []
    return [{"id": r["id"], "title": r["title"], "startAt": r["startAt"]} for r in found["results"]]


# --- deadline reminder ----------------------------------------------------------------------


def deadline_of(text: str, sent: datetime) -> datetime | None:
    """Return when the task a message mentions is due: 09:00 when only a day is named; said on
    that day after 09:00, a task by the day's end ("the essay is due today" at 10:00 is due
    tonight, not three hours ago), a part of the day by its end."""
    if not DEADLINE_RE.search(text) or REMINDER_REFUSED_RE.search(text):
        return None  # no task, or one told with 不用提醒我 (an audit, session 53)
    found = extract_time_range(text, now=sent)
    if found is None:
        return None
    if found.point is not None:
        return found.point
    start = timezone.localtime(found.start)
    if found.start > sent and found.end - found.start < timedelta(hours=23):
        return found.start  # a part of a day ahead ("tomorrow afternoon", 明天凌晨): its start
    morning = start.replace(hour=9, minute=0, second=0, microsecond=0)
    if morning <= sent < found.end and found.end - found.start <= timedelta(days=1):
        # Said on the day, after 09:00: a part of the day under way is due by its end ("due
        # this afternoon" at 12:39: 18:00); the whole day, a task by its end, an event of no
        # time said (an exam today) never (an audit, session 53: all read 23:59).
        end = timezone.localtime(found.end)  # inclusive: 23:59:59.999 for a whole day
        if (end.hour, end.minute) < (23, 59):
            return found.end
        if _DUE_RE.search(text):
            return start.replace(hour=23, minute=59, second=0, microsecond=0)
        return None
    return morning


def deadline_period(due: datetime) -> str:
    """Return the period key of a reminder: the local due time, to the minute (an activity's
    reminder keys its start so too: :func:`activity_reminder_key`)."""
    return timezone.localtime(due).strftime("%Y-%m-%dT%H:%M")


def deadline_reminder_key(due: datetime, *, asked: bool, task: str = "") -> str:
    """Return the period key of a deadline's reminder: its due time, ``asked@`` before it when
    the message asked to be reminded at that time (another event than the day-before one), and
    then what ``task`` is about, so two asked for one time are two (``#`` and a digest of its
    words: "remind me to take my pills at 9" said twice is one)."""
    key = ("asked@" if asked else "") + deadline_period(due)
    if not asked or not task:
        return key
    return f"{key}#{hashlib.sha1(task_digest(task).encode()).hexdigest()[:10]}"


def reminder_window(due: datetime, *, asked: bool) -> tuple[datetime, datetime]:
    """Return when the reminder of a time a message mentions is sent: at that time when the
    message asked to be reminded then (``asked``: ``REMIND_TASK_RE``), else during the day
    before it."""
    if asked:
        return due, due + ASKED_REMINDER_LATE
    return due - timedelta(days=1), due


def told_times(*, user, since: datetime, until: datetime):
    """Yield ``(message, due, asked)`` for each of the user's messages sent in [since, until)
    that mentions a task's time (``asked``: it asked to be reminded then, ``REMIND_TASK_RE``)."""
    for message in messages_between(user=user, since=since, until=until, role="user"):
        due = deadline_of(message.content, message.ts)
        if due is None:
            continue
        asked = bool(REMIND_TASK_RE.search(message.content))
        if asked and due <= message.ts:
            continue  # "at 3pm" said at 15:37: the chat asked when instead
        yield message, due, asked


def told_reminders(*, user, since: datetime, until: datetime) -> dict[str, dict]:
    """Return the reminders the user's messages sent in [since, until) tell, by period key, each
    ``{"due": local due time, "asked": bool, "messages": [oldest first], "told": the latest
    message's time}``; none the user cancelled after last telling it ("cancel the reminder about
    my pills": ``TaskReminderMute``).

    Several messages about the same time are one deadline: one reminder. A reminder asked for at
    a time is another event than a deadline's the day before it (one key would let the first
    sent stand for both: an audit, session 54), and one per task asked (the pills and the plants
    at 23:00 were one, the second never sent nor cancellable: an audit, session 56).
    """
    found: dict[str, dict] = {}
    for message, due, asked in told_times(user=user, since=since, until=until):
        key = deadline_reminder_key(due, asked=asked, task=message.content)
        told = found.setdefault(
            key, {"due": timezone.localtime(due), "asked": asked, "messages": []}
        )
        told["messages"].append(message)
        told["told"] = message.ts  # oldest first: the last is the latest
    cancelled = task_reminders_cancelled(user=user, period_keys=found)
    return {
        key: told
        for key, told in found.items()
        if key not in cancelled or told["told"] > cancelled[key]
    }


def deadline_reminders_for(user, now: datetime | None = None) -> list[SystemEvent]:
    """Remind the user once of each time their messages mention: during the day before it, or
    at it when they asked to be reminded then."""
    now = now or timezone.now()
    since = now - timedelta(days=DEADLINE_LOOKBACK_DAYS)
    due_now = {}
    for key, told in told_reminders(user=user, since=since, until=now).items():
        opens, closes = reminder_window(told["due"], asked=told["asked"])
        if opens <= now < closes:
            due_now[key] = told
    created = []
    for key, told in due_now.items():
        local_due, messages = told["due"], told["messages"]

        def build(first=messages[0], messages=messages, local_due=local_due):
            # In the language the deadline was told in.
            today = local_due.date() == timezone.localtime(now).date()
            if is_english(first.content):
                title = "Today's reminder" if today else "Tomorrow's reminder"
                text = (
                    f'Reminder: you said "{first.content}", due {local_due:%a %d %b %H:%M}. '
                    "Don't forget!"
                )
            else:
                when = f"{local_due.month}月{local_due.day}日 {local_due:%H:%M}"
                title = "今天的提醒" if today else "明天的提醒"
                text = polish(f"提醒：你之前说「{first.content}」，时间是 {when}，别忘了哦。")
            return {
                "title": title,
                "text": text,
                "messageId": first.message_id,
                "messageIds": [m.message_id for m in messages],
                "dueAt": local_due.isoformat(),
            }

        event = record_event(
            user=user,
            kind=EventKind.DEADLINE_REMINDER,
            period_key=key,
            build=build,
        )
        if event is not None:
            created.append(event)
    return created


# --- all users -----------------------------------------------------------------------------


def run_daily_digest(now: datetime | None = None) -> int:
    """Write today's digest for every user active in the last 24 hours; return how many."""
    now = now or timezone.now()
    return sum(
        1
        for u in users_with_messages_since(since=now - timedelta(hours=24))
        if daily_digest_for(u, now)
    )


def run_interest_spike(now: datetime | None = None) -> int:
    """Check every recently active user for an interest spike; return events created."""
    now = now or timezone.now()
    since = now - timedelta(days=agent_settings_get().interest_spike_days)
    return sum(1 for u in users_with_messages_since(since=since) if interest_spike_for(u, now))


def run_deadline_reminders(now: datetime | None = None) -> int:
    """Write due reminders for every user; return events created."""
    now = now or timezone.now()
    since = now - timedelta(days=DEADLINE_LOOKBACK_DAYS)
    return sum(len(deadline_reminders_for(u, now)) for u in users_with_messages_since(since=since))
