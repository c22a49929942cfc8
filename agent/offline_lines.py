"""How the offline answers write an activity: its time, one line of a list, the ids a list
names (what 第二个 points to next)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from django.utils import timezone, translation

from activities.models import ActivityStatus


def day_text(moment: datetime, english: bool = False) -> str:
    """Return the local day of a moment ("Sat 05 Dec", 12月5日(周六))."""
    moment = timezone.localtime(moment)
    if english:
        return f"{moment:%a %d %b}"
    return f"{moment.month}月{moment.day}日(周{'一二三四五六日'[moment.weekday()]})"


def when_text(iso: str, english: bool = False) -> str:
    moment = timezone.localtime(datetime.fromisoformat(iso))
    return f"{day_text(moment, english)} {moment:%H:%M}"


def span_text(start_iso: str, end_iso: str | None, english: bool = False) -> str:
    """Return when an activity runs: its start (:func:`when_text`), then its end, the hour
    alone when it ends the same day ("12月9日(周三) 19:00-21:30")."""
    when = when_text(start_iso, english)
    if not end_iso:
        return when
    start = timezone.localtime(datetime.fromisoformat(start_iso))
    end = timezone.localtime(datetime.fromisoformat(end_iso))
    if end.date() == start.date():
        return f"{when}-{end:%H:%M}"
    return f"{when} - {when_text(end_iso, english)}"


# A clause of a match reason stating a time or a distance, which the line already states, or
# that only these few pass the filters, which the list itself shows (said on every line, it
# repeats).
_REASON_FACT_RE = re.compile(
    r"\d{1,2}:\d{2}|离你|公里|\d\s*米|\bkm\b|\bm from you\b"
    r"|符合筛选条件的只有|pass(?:es)? your filters"
)


def days_text(time_range: dict | None, english: bool = False) -> str:
    """Return the days a time range covers ("Sat 05 Dec", 12月5日(周六), or from one to the
    other), or "" without one."""
    if not time_range or "start" not in time_range:
        return ""

    try:
        start = datetime.fromisoformat(time_range["start"])
        # The end is inclusive to the last microsecond of its day (or the next midnight).
        end = datetime.fromisoformat(time_range.get("end") or time_range["start"])
        first, last = day_text(start, english), day_text(end - timedelta(microseconds=1), english)
    except (TypeError, ValueError):  # a range a model wrote in another shape: no days said
        return ""
    if first == last:
        return first
    return f"{first} - {last}" if english else f"{first}至{last}"


def reason_rest(reason: str, english: bool = False) -> str:
    """Return a match reason without its clauses of time and distance, joined in its language."""
    clauses = re.split(r"[，,；;]\s*", (reason or "").strip().rstrip("。. "))
    return (", " if english else "，").join(
        c for c in clauses if c and not _REASON_FACT_RE.search(c)
    )


def listed_ids(items: list[dict]) -> list[int]:
    """Return the ids of the activities a reply lists, in its order (what 第二个 names next)."""
    return [item["id"] for item in items if isinstance(item.get("id"), int)]


def titles_text(items: list[dict], english: bool = False) -> str:
    """Return the activities' titles in a run ("A", "B" / 「A」、「B」)."""
    if english:
        return ", ".join(f'"{item["title"]}"' for item in items)
    return "、".join(f"「{item['title']}」" for item in items)


def activity_lines(items: list[dict], english: bool = False) -> str:
    """Return the results numbered from 1, one a line (:func:`activity_text`)."""
    return "\n".join(activity_line(i + 1, item, english) for i, item in enumerate(items))


def activity_line(i: int, item: dict, english: bool = False) -> str:
    """Return one numbered result (:func:`activity_text`)."""
    return f"{i}. {activity_text(item, english)}"


def activity_text(item: dict, english: bool = False) -> str:
    """Return one result: title, time, place and distance once each, then why it matches."""
    facts = [when_text(item["startAt"], english)]
    if item.get("locationName"):
        facts.append(item["locationName"])
    distance = item.get("distanceKm")
    if distance is not None:
        facts.append(f"{distance:.1f} km away" if english else f"离你约 {distance:.1f} 公里")
    reason = reason_rest(item.get("matchReason") or "", english)
    if english:
        # A sentence of its own: 'as asked ("tonight")' left alone after the time is "As asked".
        reason = reason[:1].upper() + reason[1:]
        return f"{item['title']}: {', '.join(facts)}." + (f" {reason}." if reason else "")
    return f"{item['title']}：{'，'.join(facts)}。" + (f"{reason}。" if reason else "")


# The question closing a search's answer.
ASK_JOIN_EN = 'Want to join one (say which, e.g. "the first one"), or see others?'
ASK_JOIN_ZH = "想报名哪个（说名字或“第一个”就行），或者要我换一批吗？"


def record_listing(ctx, items: list[dict], arguments: dict) -> None:
    """Record what a search's answer lists (its first three) and the search itself, without the
    ids it left out, so that 第一个 names one of them and 换一批 runs it again."""
    ctx.listed = listed_ids(items[:3])
    ctx.searched = {k: v for k, v in arguments.items() if k != "excludeIds"}


def status_text(status: str, english: bool) -> str:
    """Return an activity's status in the reply's language (the model's translated label)."""
    with translation.override("en" if english else "zh-hans"):
        return str(ActivityStatus(status).label) if status in ActivityStatus.values else status
