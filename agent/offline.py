"""The offline run of each mode: pick the tool calls by rules, call them, compose the answer.

Used when no LLM is configured (and as the fallback when the LLM fails before answering). Each
``plan_*`` function returns the tool calls ``[(name, arguments)]`` for a message, taking earlier
tool results into account where a second call depends on the first (MANAGE's cancel needs the
activity id found by the listing, EXPLORE's join the id found by the search); ``compose`` turns
the results into an answer, for EXPLORE and MANAGE in the user's language (English when the
message has no Chinese), else in Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from django.utils import timezone

from activities.selectors import activity_named_in
from agent import extract
from agent.context import RuntimeContext
from agent.modes import AgentMode
from agent.router import CHAT, CREATE, EXPLORE, MANAGE, PARTNER
from agent.triggers import deadline_of
from memory.search import content_tsquery, tsquery_lexemes
from memory.understanding import day_asked, time_zone
from rag.chunking import split_sentences

PUBLISH_RE = re.compile(r"发布|发出去|确认|就这样|就按这个|按这个发|没问题|可以了")
# Not going any more: leave (a joined activity) or cancel (one the user organises).
CANCEL_RE = re.compile(
    r"取消|退出|退掉|退了|不去了|去不了|去不成|删除|删掉|不(?:想|打算|准备|再)?参加|"
    r"\bcancel\b|\bcan'?t make it\b|\bdrop out\b|\bleave\b",
    re.IGNORECASE,
)
# Asking for a place in an activity the search shows ("报名周六那个徒步", "sign me up").
JOIN_RE = re.compile(
    r"(?:我要|我想|帮我|给我|想)报名|报名(?:第|这|那)|算我一个|\bsign me up\b|\bjoin\b|\bbook me\b",
    re.IGNORECASE,
)
CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def is_english(message: str) -> bool:
    """Return whether to answer in English (latin letters and no Chinese character)."""
    return not CJK_RE.search(message or "") and bool(re.search(r"[A-Za-z]", message or ""))


TITLE_RE = re.compile(
    r"(?:标题|名字|活动名)(?:改成|改为|换成|叫|就叫)[「“\"]?([^」”\"，,。！!？?]{2,40})"
)


# A draft named only by a part of the day starts at this hour (the part's window is wider:
# 下午 is 12-18 when searching, but 下午的桌游局 is drafted at 13:00).
DRAFT_HOURS = {"凌晨": 0, "清晨": 6, "早上": 7, "早晨": 7, "上午": 8, "中午": 11, "下午": 13}
DRAFT_HOURS.update({"傍晚": 17, "晚上": 18, "晚间": 18, "夜里": 20, "夜间": 20, "深夜": 22})


def _start_at(time_range: extract.TimeRange | None) -> str | None:
    """Return the draft's start: a clock time, else 19:00 on the day (or the part's start)."""
    if time_range is None:
        return None
    if time_range.point is not None:
        return time_range.point.isoformat()
    start = time_range.start
    part = next((p for p in DRAFT_HOURS if time_range.label.endswith(p)), None)
    if part is not None and start.hour <= DRAFT_HOURS[part]:
        start = start.replace(hour=DRAFT_HOURS[part], minute=0, second=0, microsecond=0)
    elif start.hour < 9 and time_range.end.hour >= 23:  # a whole day: evening by default
        start = start.replace(hour=19, minute=0, second=0, microsecond=0)
    return start.isoformat()


def plan_explore(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Search with the semantic part of the message, its time range and "nearby"."""
    if done:
        last = done[-1]
        if last["name"] != "exploreNearby":
            return []
        found = last["result"].get("results") or []
        if found and JOIN_RE.search(ctx.message):
            # A join names the activity: take the one result the message clearly points to.
            target = _best_match(ctx.message, found)
            return [("joinActivity", {"activityId": target["id"]})] if target else []
        # Nothing found: widen step by step, first the place, then the time.
        relaxed = dict(last["arguments"])
        if found or "error" in last["result"]:
            return []
        # Without a known location "nearby" filtered nothing, so dropping it would only repeat
        # the same search.
        located = last["result"].get("meta", {}).get("nearby")
        for key in ("nearby", "timeRange"):
            if key in relaxed and (key != "nearby" or located):
                relaxed.pop(key)
                return [("exploreNearby", relaxed)]
        return []
    if JOIN_RE.search(ctx.message):
        # A join naming a listing by its whole title joins that one, full or not (the join
        # refuses a full one by name): a new search would hide it and pick another.
        named = activity_named_in(user=ctx.user, text=ctx.message)
        if named is not None:
            return [("joinActivity", {"activityId": named.pk})]
    understood = extract.read(ctx.message)
    time_range = extract.time_range_of(understood)
    arguments: dict = {"query": extract.semantic_query(ctx.message) or ctx.message, "limit": 5}
    if time_range:
        arguments["timeRange"] = time_range.as_filter()
    if understood.nearby:
        # Asked even without a known location: the tool then searches everywhere and says so.
        arguments["nearby"] = True
        if understood.radius_km:  # "离我3公里以内"
            arguments["radiusInKm"] = understood.radius_km
    return [("exploreNearby", arguments)]


def _draft_fields(message: str) -> dict:
    time_range = extract.extract_time_range(message)
    fields: dict = {}
    if time_range:
        fields["startAt"] = _start_at(time_range)
    place = extract.extract_place(message)
    if place:
        fields["locationName"] = place
    people = extract.extract_people(message)
    if people:
        fields["maxParticipants"] = people
    title = TITLE_RE.search(message)
    if title:
        fields["title"] = title.group(1).strip()
    return fields


def plan_create(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Create a draft, or refine/publish the one this chat is editing."""
    if done:
        return []
    editing = ctx.last_intent == CREATE
    if editing and PUBLISH_RE.search(ctx.message) and not _draft_fields(ctx.message):
        return [("publishActivity", {})]
    if editing and (fields := _draft_fields(ctx.message)):
        return [("refineDraft", fields)]
    time_range = extract.extract_time_range(ctx.message)
    activity_type = extract.extract_activity_type(ctx.message) or "社交"
    vibes = extract.extract_vibes(ctx.message)
    label = time_range.label if time_range else ""
    title = f"{label}{vibes[0] if vibes else ''}{activity_type}局"
    arguments = {"title": title, "type": activity_type, "description": ctx.message}
    arguments.update(_draft_fields(ctx.message))
    arguments.setdefault("maxParticipants", 6)
    return [("createDraft", arguments)]


def plan_partner(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Record the partner intent; ask about the vibe when no vibe preference is known."""
    if done:
        knows_vibe = any(c.text.startswith("偏好 vibe") for c in ctx.persona)
        if len(done) == 1 and not knows_vibe:
            return [
                ("askPreference", {"category": "vibe", "question": "你更喜欢热闹还是安静的局？"})
            ]
        return []
    time_range = extract.extract_time_range(ctx.message)
    arguments: dict = {"description": ctx.message}
    activity_type = extract.extract_activity_type(ctx.message)
    if activity_type:
        arguments["activityType"] = activity_type
    if time_range:
        arguments["timeRange"] = time_range.as_filter()
    return [("createPartnerIntent", arguments)]


def _best_match(message: str, activities: list[dict]) -> dict | None:
    """Return the listed activity the message names (most shared characters), if clear."""
    if len(activities) == 1:
        return activities[0]
    scored = []
    for activity in activities:
        text = activity["title"] + activity["type"]
        scored.append((sum(1 for ch in set(text) if ch in message and ch.strip()), activity))
    scored.sort(key=lambda pair: -pair[0])
    if scored and scored[0][0] >= 2 and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][1]
    return None


def shared_context_id(ctx: RuntimeContext) -> int | None:
    """Return the id of the shared context the turn reads (``context:<id>``), if any."""
    for chunk in ctx.shared:
        if chunk.source.startswith("context:"):
            return int(chunk.source.split(":", 1)[1])
    return None


def plan_manage(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """List the user's activities; to cancel, list first, then cancel the one named.

    A request to note something in the shared context appends it there instead: to the
    context the turn reads (the request's ``context_id``, else the latest updated one).
    """
    note = extract.context_note(ctx.message)
    if note:
        if done:
            return []
        target: dict = {"content": note}
        context_id = shared_context_id(ctx)
        if context_id is not None:
            target["contextId"] = context_id
        return [("updateContext", target)]
    cancel = bool(CANCEL_RE.search(ctx.message))
    if not done:
        scope = "all"
        if "草稿" in ctx.message:
            scope = "drafts"
        elif re.search("我(?:发起|创建|组织|发布)的", ctx.message):
            scope = "created"
        elif re.search("报名|参加|参与", ctx.message) and not cancel:
            scope = "joined"
        arguments: dict = {"scope": scope}
        time_range = extract.extract_time_range(ctx.message)
        if time_range and not cancel:
            arguments["timeRange"] = time_range.as_filter()
        return [("getMyActivities", arguments)]
    if cancel and len(done) == 1:
        target = _best_match(ctx.message, done[0]["result"].get("activities") or [])
        if target and target["status"] != "cancelled":
            if target.get("role") == "participant":
                return [("leaveActivity", {"activityId": target["id"]})]
            return [("cancelActivity", {"activityId": target["id"]})]
    return []


PLANNERS: dict[str, Callable[[RuntimeContext, list[dict]], list[tuple[str, dict]]]] = {
    EXPLORE: plan_explore,
    CREATE: plan_create,
    PARTNER: plan_partner,
    MANAGE: plan_manage,
}


# --- Composing the answer -------------------------------------------------------------------


def _when_text(iso: str, english: bool = False) -> str:
    moment = timezone.localtime(datetime.fromisoformat(iso))
    if english:
        return f"{moment:%a %d %b %H:%M}"
    weekday = "一二三四五六日"[moment.weekday()]
    return f"{moment.month}月{moment.day}日(周{weekday}) {moment:%H:%M}"


# A clause of a match reason stating a time or a distance, which the line already states.
_REASON_FACT_RE = re.compile(r"\d{1,2}:\d{2}|离你|公里|\d\s*米|\bkm\b|\bm from you\b")


def _reason_rest(reason: str, english: bool = False) -> str:
    """Return a match reason without its clauses of time and distance, joined in its language."""
    clauses = re.split(r"[，,；;]\s*", (reason or "").strip().rstrip("。. "))
    return (", " if english else "，").join(
        c for c in clauses if c and not _REASON_FACT_RE.search(c)
    )


def _activity_line(i: int, item: dict, english: bool = False) -> str:
    """Return one result: title, time, place and distance once each, then why it matches."""
    facts = [_when_text(item["startAt"], english)]
    if item.get("locationName"):
        facts.append(item["locationName"])
    distance = item.get("distanceKm")
    if distance is not None:
        facts.append(f"{distance:.1f} km away" if english else f"离你约 {distance:.1f} 公里")
    reason = _reason_rest(item.get("matchReason") or "", english)
    if english:
        return f"{i}. {item['title']}: {', '.join(facts)}." + (f" {reason}." if reason else "")
    return f"{i}. {item['title']}：{'，'.join(facts)}。" + (f"{reason}。" if reason else "")


# The limits the planner may drop, in the order it drops them: (argument, English, Chinese).
LIMIT_WORDS = (("nearby", "distance", "距离"), ("timeRange", "time", "时间"))


def _explore_text(ctx: RuntimeContext, calls: list[dict]) -> str:
    """Return the answer to a search: the results, or why there are none, in the user's language."""
    english = is_english(ctx.message)
    result = calls[-1]["result"]
    items = result.get("results") or []
    unknown = bool(result["meta"].get("nearbyUnknown"))
    first = calls[0]["arguments"]
    values = persona_values(ctx)
    if not items:
        topic = extract.semantic_query(ctx.message)  # never the whole message as a "topic"
        # The planner already dropped the time and distance limits (when they limited anything):
        # an empty answer is about the topic, so it never asks to loosen them.
        dropped = set(first) - set(calls[-1]["arguments"])
        limits = [(en, zh) for k, en, zh in LIMIT_WORDS if k in dropped]
        if english:
            head = f'I found no activities about "{topic}"' if topic else "I found no activities"
            if unknown:
                head += " (I don't know where you are, so I looked everywhere)"
            elif limits:
                head += f", even without the {' and '.join(en for en, _ in limits)} limit"
            said = ", ".join(extract.value_in(v, english=True) for v in values)
            remembered_note = f" I remember your preferences: {said}." if values else ""
            return (
                head
                + ". There may be none of this kind right now; try describing it another way?"
                + remembered_note
            )
        head = f"没有找到和「{topic}」相关的活动" if topic else "没有找到符合的活动"
        if unknown:
            head += "（还不知道你的位置，已经按全城找过）"
        elif limits:
            head += f"，去掉{'和'.join(zh for _, zh in limits)}限制也没有"
        said = "、".join(extract.value_in(v, english=False) for v in values)
        remembered_note = f"我记着你的偏好：{said}。" if values else ""
        return head + "。现在的活动里可能没有这一类，换个说法描述一下试试？" + remembered_note
    notes = []
    if unknown:
        notes.append(
            "no location known, so across the city"
            if english
            else "没有你附近的位置信息，先按全城推荐"
        )
    if values:
        notes.append(
            "by your preferences: " + ", ".join(extract.value_in(v, english=True) for v in values)
            if english
            else "按你的偏好：" + "、".join(extract.value_in(v, english=False) for v in values)
        )
    if len(calls) > 1:
        dropped = set(first) - set(calls[-1]["arguments"])
        if english:
            widened = " and ".join(en for k, en, _ in LIMIT_WORDS if k in dropped)
            notes.append(f"nothing matched as asked, so I dropped the {widened} limit")
        else:
            notes.append(
                "按原条件没找到，已放宽" + "、".join(zh for k, _, zh in LIMIT_WORDS if k in dropped)
            )
    lines = "\n".join(_activity_line(i + 1, item, english) for i, item in enumerate(items[:3]))
    if english:
        note = f" ({'; '.join(notes)})" if notes else ""
        ask = "Want to join one (tell me which), or see others?"
        return f"Here is what I found{note}:\n{lines}\n{ask}"
    note = f"（{'；'.join(notes)}）" if notes else ""
    return f"为你找到这些活动{note}：\n{lines}\n想报名哪个（告诉我名字就行），或者要我换一批吗？"


def _join_text(ctx: RuntimeContext, calls: list[dict]) -> str:
    """Return the answer to a join: joined, refused (full, started...) or which one."""
    english = is_english(ctx.message)
    last = calls[-1]
    if last["name"] == "exploreNearby":  # a join request that named no single result
        lines = "\n".join(
            _activity_line(i + 1, item, english)
            for i, item in enumerate(last["result"]["results"][:3])
        )
        if english:
            return f"Which one do you want to join?\n{lines}"
        return f"你想报名哪一个？\n{lines}"
    result = last["result"]
    if "error" in result:
        listed = (calls[-2]["result"].get("results") or []) if len(calls) > 1 else []
        title = next(
            (a["title"] for a in listed if a["id"] == last["arguments"].get("activityId")), ""
        )
        if not title:  # joined by the title the message named, without a search first
            named = activity_named_in(user=ctx.user, text=ctx.message)
            title = named.title if named is not None else ""
        if (result["error"].get("details") or {}).get("reason") == "full":
            if english:
                return (
                    f'"{title}" is full, so I could not sign you up. Shall I look for similar ones?'
                )
            return f"「{title}」已经满员了，报不上名。要我找找类似的活动吗？"
        if english:
            return f"I could not sign you up: {result['error']['message']}"
        return f"没能报名：{result['error']['message']}"
    activity = result["activity"]
    seats = f"{activity['currentParticipants']}/{activity['maxParticipants']}"
    when = _when_text(activity["startAt"], english)
    if english:
        return f'You\'re in: "{activity["title"]}", {when} ({seats} places taken).'
    return f"已帮你报名「{activity['title']}」：{when}，现在 {seats} 人。"


def _draft_text(draft: dict) -> str:
    place = draft.get("locationName") or "待定"
    return (
        f"「{draft['title']}」，{_when_text(draft['startAt'])}，地点{place}，"
        f"最多 {draft['maxParticipants']} 人"
    )


# A question about what the user said before: 我上周说我的猫叫什么？ / what did I tell you ...
RECALL_ZH_RE = re.compile(r"我.{0,8}?(?:说|提|讲|告诉你?)(?:过|了|的)?|还记得|记不记得|记得我")
QUESTION_ZH_RE = re.compile(r"[？?]|什么|啥|吗|哪|谁|几|多少|怎么")
RECALL_EN_RE = re.compile(
    r"\bwhat (?:did|have) i (?:tell|told|say|said|mention)|\bdid i (?:tell|say|mention)"
    r"|\b(?:do you )?remember what i\b|\bdo you remember\b|\bwhat do you remember about",
    re.I,
)
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
QUOTE_CHARS = 200
# The second best remembered message is quoted too when it is about as close as the best.
SECOND_QUOTE_GAP = 0.05
PERSONA_NOTE_MAX = 3
# A question about a day quotes at most this many of the user's turns of that day.
DAY_QUOTES = 5


def is_recall(text: str) -> bool:
    """Return whether the message asks what the user said before (a question about what was
    discussed on one day, "5月2日我们聊了什么", included: :func:`asks_about_a_day`)."""
    text = text or ""
    if RECALL_EN_RE.search(text) or asks_about_a_day(text):
        return True
    return bool(RECALL_ZH_RE.search(text) and QUESTION_ZH_RE.search(text))


def asks_about_a_day(text: str) -> bool:
    """Return whether the message asks what was discussed on one past day: memory answers it
    with that day's turns (a range read, ``memory.understanding.day_asked``)."""
    return day_asked(text or "", tz=time_zone(None)) is not None


def _date_text(iso: str, english: bool) -> str:
    day = timezone.localtime(datetime.fromisoformat(iso))
    if english:
        return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
    return f"{day.year}年{day.month}月{day.day}日"


def remembered(ctx: RuntimeContext) -> list:
    """Return the knowledge chunks quoting what the user said that best answer the message.

    The user's own messages (not the assistant's, not summaries, not earlier recall
    questions), in the knowledge pass's order: the best, and the second when it shares words
    with the question too and is about as close (``SECOND_QUOTE_GAP``). When none is left (the
    turns of an old chat went with retention), the best chat summary holding a sentence with
    the question's words (:func:`summary_quote`).
    """
    said = _said_by_user(ctx)
    if asks_about_a_day(ctx.message):
        # The day's turns, read as a range: what the user raised that day, in time order.
        return sorted((c for c in said if c.meta.get("range")), key=lambda c: c.meta["ts"])[
            :DAY_QUOTES
        ]
    if not said:
        return [c for c in ctx.knowledge if _is_summary(c) and summary_quote(c, ctx.message)][:1]
    if len(said) < 2:
        return said
    second = said[1]
    if second.meta.get("lexical") and second.priority >= said[0].priority - SECOND_QUOTE_GAP:
        return said[:2]
    return said[:1]


def _is_summary(chunk) -> bool:
    return chunk.meta.get("kind") == "summary" and bool(chunk.meta.get("ts"))


def summary_quote(chunk, question: str) -> str:
    """Return the sentences of a summary chunk holding a content word of ``question``.

    The content words are those the memory search matches on (``memory.search.content_tsquery``:
    no stopwords, no words that ask about a memory, no time phrase); "" when none holds one.
    """
    body = (chunk.body or "").strip()
    words = [w.lower() for w in tsquery_lexemes(content_tsquery(question or ""))]
    sentences = [body[span.start : span.end].strip() for span in split_sentences(body)]
    holding = [s for s in sentences if s and any(w in s.lower() for w in words)]
    return " ".join(holding) if any(s.isascii() for s in holding) else "".join(holding)


def _said_by_user(ctx: RuntimeContext) -> list:
    """Return the knowledge chunks of the user's own statements, in the pass's order."""
    asked = (ctx.message or "").strip()
    said = [
        c
        for c in ctx.knowledge
        if c.meta.get("role") == "user"
        and c.meta.get("kind") != "summary"
        and c.meta.get("ts")
        and (c.body or "").strip()
        and (c.body or "").strip() != asked
        and not is_recall(c.body or "")
        and not (c.body or "").rstrip().endswith(("?", "？"))
    ]
    return said


def compose_recall(ctx: RuntimeContext) -> str:
    """Return the answer to "what did I say": the remembered messages quoted with their dates."""
    english = is_english(ctx.message)
    found = remembered(ctx)

    def quoted(chunk) -> str:
        body = (chunk.body or "").strip()
        if _is_summary(chunk):
            body = summary_quote(chunk, ctx.message)
        if len(body) > QUOTE_CHARS:
            body = body[:QUOTE_CHARS] + "…"
        return f'"{body}"' if english else f"「{body}」"

    if not found:
        if english:
            return (
                "I looked through what you've told me but couldn't find that. "
                "Tell me again and I'll remember it."
            )
        return "我翻了翻你跟我说过的话，没找到这件事。再告诉我一次吧，我会记下来。"
    dates = [_date_text(c.meta["ts"], english) for c in found]
    if _is_summary(found[0]):
        # Only the summary is left of that chat: say so rather than quote it as the user's words.
        if english:
            return f"From the summary of our chat up to {dates[0]}: {quoted(found[0])}"
        return f"我们{dates[0]}及之前那次对话的摘要里记着：{quoted(found[0])}"
    if asks_about_a_day(ctx.message):
        lines = [f"- {quoted(c)}" for c in found]
        if english:
            return f"On {dates[0]} you told me:\n" + "\n".join(lines)
        return f"{dates[0]}你跟我说了：\n" + "\n".join(lines)
    if len(found) == 1:
        if english:
            return f"On {dates[0]} you told me: {quoted(found[0])}"
        return f"你在{dates[0]}跟我说过：{quoted(found[0])}"
    if english:
        lines = [f"- On {d}: {quoted(c)}" for d, c in zip(dates, found, strict=True)]
        return "Here is what you told me:\n" + "\n".join(lines)
    lines = [f"- {d}：{quoted(c)}" for d, c in zip(dates, found, strict=True)]
    return "你跟我说过：\n" + "\n".join(lines)


def persona_values(ctx: RuntimeContext, limit: int = PERSONA_NOTE_MAX) -> list[str]:
    """Return the values of the persona's stated preferences, the most relevant first."""
    values = [c.meta["value"] for c in ctx.persona if c.meta.get("value")]
    return values[:limit]


def compose_chat(ctx: RuntimeContext, preferences: list[tuple[str, str]]) -> str:
    """Return a warm small-talk answer from templates, in the language of the message.

    A question about what the user said before is answered from memory (:func:`compose_recall`).
    """
    text = ctx.message
    english = is_english(text)
    if preferences:
        if english:
            said = ", ".join(extract.value_in(value, english=True) for _, value in preferences)
            return (
                f"Got it: {said}. I'll keep that in mind when I find activities or people for you."
            )
        said = "、".join(extract.value_in(value, english=False) for _, value in preferences)
        return f"记住啦：{said}。之后帮你找活动或约人时我会考虑这一点。"
    if is_recall(text):
        return compose_recall(ctx)
    if LIVE_INFO_RE.search(text) and (unknown := compose_unknown(text)):
        return unknown
    if english:
        if re.search(r"thank", text, re.I):
            return "You're welcome! Anything else on your mind, or something to do? Just ask."
        if re.search(r"\b(?:hello|hi|hey|good (?:morning|evening))\b", text, re.I):
            return (
                "Hi! I'm Xiaoyi: I can chat, find activities, set one up or find you company. "
                "What would you like to do today?"
            )
        return compose_unknown(text) or "I see. Tell me more, I'm listening."
    if re.search(r"谢谢|多谢|thank", text, re.I):
        return "不客气！还有什么想聊的，或者想找点事做，随时叫我。"
    if re.search(r"难过|伤心|失恋|压力|累|烦|不开心|被.*骂", text):
        return "听起来你现在挺不容易的，抱抱你。想说说发生了什么吗？我在听。"
    if re.search(r"你好|在吗|嗨|早上好|晚上好|hello|hi\b", text, re.I):
        return "你好呀！我是小忆，可以陪你聊天，也能帮你找活动、组局、找搭子。今天想做点什么？"
    if re.search(r"晚安|睡了", text):
        return "晚安，好好休息，明天见！"
    if re.search(r"你是谁|你叫什么|你会什么|你能做什么|机器人", text):
        return (
            "我是小忆，一个会记住你偏好的生活助手：能聊天、推荐活动、帮你发起活动、找搭子，"
            "也能管理你报名的活动。"
        )
    return compose_unknown(text) or "嗯嗯，我明白。多跟我说说吧，我都记着呢。"


# Questions only live data answers (markets, prices, news, scores, forecasts, traffic): the
# agent has none of it, and says so instead of nodding along ("我都记着呢").
LIVE_INFO_RE = re.compile(
    r"股票|股市|大盘|[AaＡ]股|港股|美股|基金|汇率|比特币|币价|金价|油价|房价|新闻|头条|比分|赛果|"
    r"彩票|开奖|天气预报|天气怎么样|会不会下雨|路况|航班|"
    r"\b(?:stocks?|stock market|shares|nasdaq|dow jones|exchange rates?|bitcoin|crypto|news|"
    r"headlines|scores?|lottery|weather|forecast|gold price|oil price|traffic)\b",
    re.IGNORECASE,
)
# A question or a request to look something up (not a statement to listen to).
QUESTION_RE = re.compile(
    r"[？?]|吗|怎么样|怎样|如何|为什么|为啥|多少|几点|是不是|什么时候|告诉我|查一下|查查|帮我查|"
    r"^(?:what|how|is|are|was|were|will|why|when|who|which|where|can|could|do|does|did|"
    r"should)\b|\b(?:tell me|check|look up)\b",
    re.IGNORECASE,
)
CAN_DO_ZH = "我能帮你找活动、发起活动、找搭子，也记得你跟我说过的事。"
CAN_DO_EN = "I can find activities, set one up, find you company, and remember what you tell me."


def compose_unknown(text: str) -> str | None:
    """Return an honest answer to a question the agent has no way to answer, else None.

    Live information (a market, a price, the news, a score, the weather) is named as what it
    cannot look up; any other question is answered "I don't know". Nothing is recommended
    and no search filter is blamed: none was used.
    """
    english = is_english(text)
    if not QUESTION_RE.search(text.strip()):
        return None
    if LIVE_INFO_RE.search(text):
        if english:
            return (
                "I can't answer that: I have no live information such as stock prices, news "
                f"or the weather, and I'd rather not guess. {CAN_DO_EN}"
            )
        return f"这个我帮不上：我查不到股票、新闻、天气这类实时信息，也不想瞎猜。{CAN_DO_ZH}"
    if english:
        return f"I don't know the answer to that, and I have no way to look it up. {CAN_DO_EN}"
    return f"这个问题我答不上来，我手边没有这方面的信息。{CAN_DO_ZH}"


def compose(mode: AgentMode, ctx: RuntimeContext, calls: list[dict], preferences) -> str:
    """Return the answer of a mode from its tool calls' results.

    A question about what the user said is answered from memory whatever the mode, when memory
    holds an answer: the remembered message is the answer, not the tools' results.
    """
    if mode.name == CHAT or not calls:
        return compose_chat(ctx, preferences)
    if is_recall(ctx.message) and remembered(ctx):
        return compose_recall(ctx)
    last = calls[-1]
    result = last["result"]
    name = last["name"]
    english = is_english(ctx.message)
    joining = name == "joinActivity" or (
        name == "exploreNearby" and result.get("results") and JOIN_RE.search(ctx.message)
    )
    if joining:
        return _join_text(ctx, calls)
    if "error" in result:
        if english:
            return f"That step did not work: {result['error']['message']}"
        return f"这一步没能完成：{result['error']['message']}"
    if name == "exploreNearby":
        return _explore_text(ctx, calls)
    if name == "updateContext":
        note = last["arguments"]["content"]
        title = result.get("title") or ""
        if english:
            return f'Noted in "{title}": {note}'
        return f"记下了，已加到「{title}」：{note}"
    if name == "createDraft":
        return (
            f"草稿建好了：{_draft_text(result['draft'])}。"
            "要改时间、地点或人数吗？说“发布”就帮你发出去。"
        )
    if name == "refineDraft":
        return f"已更新草稿：{_draft_text(result['draft'])}。还要改什么吗？确认的话说“发布”。"
    if name == "publishActivity":
        return f"发布成功！「{result['activity']['title']}」现在大家都能看到并报名了。"
    if name in ("createPartnerIntent", "askPreference"):
        intent = calls[0]["result"].get("partnerIntent") or {}
        what = intent.get("activityType") or "一起活动的"
        matches = calls[0]["result"].get("openMatches", 0)
        text = f"已帮你记下：想找{what}搭子"
        text += (
            f"，目前有 {matches} 位也在找同伴，我会帮你留意。"
            if matches
            else "，有合适的人我第一时间告诉你。"
        )
        if name == "askPreference":
            text += result.get("question") or ""
        return text
    if name == "getMyActivities":
        items = result.get("activities") or []
        if CANCEL_RE.search(ctx.message):
            live = [a for a in items if a["status"] != "cancelled"]
            if english:
                if not live:
                    return "You have no activity joined or organised that could be cancelled."
                names = ", ".join(f'"{a["title"]}"' for a in live[:5])
                return f"Which one? {names}"
            if not live:
                return "你目前没有报名或发起的活动，没有可以取消的。"
            names = "、".join(f"「{a['title']}」" for a in live[:5])
            return f"你想取消哪一个？{names}"
        due = deadline_of(ctx.message, timezone.now())
        if due is not None:
            when = _when_text(due.isoformat())
            head = f"记下了，我会在 {when} 的前一天提醒你。"
            return head + (
                ""
                if not items
                else "你这段时间的活动：" + "、".join(f"「{a['title']}」" for a in items[:5])
            )
        if not items:
            if english:
                return "You have no activities here yet. Shall I find one or organise one?"
            return "你目前没有相关的活动。要我帮你找找或者发起一个吗？"
        lines = []
        for i, item in enumerate(items[:5]):
            when = _when_text(item["startAt"], english)
            if english:
                role = "organising" if item["role"] == "creator" else "joined"
                lines.append(f"{i + 1}. {item['title']} ({role}, {item['status']}): {when}")
                continue
            role = "发起" if item["role"] == "creator" else "报名"
            lines.append(f"{i + 1}. {item['title']}（{role}，{item['status']}）：{when}")
        return ("Your activities:\n" if english else "你的活动：\n") + "\n".join(lines)
    if name == "leaveActivity":
        title = result["activity"]["title"]
        if english:
            return f'You left "{title}"; your place is free for someone else.'
        return f"已退出「{title}」，名额已经让出来了。"
    if name == "cancelActivity":
        verb = "已取消" if result.get("action") == "cancelled" else "已退出"
        return f"{verb}「{result['activity']['title']}」。"
    return "好的，已处理。"
