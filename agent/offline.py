"""The offline answer of each mode: compose the reply from the tool calls' results.

Used when no LLM is configured (and as the fallback when the LLM fails before answering). The
calls come from the planners (agent/offline_plans.py); ``compose`` turns their results into an
answer, for EXPLORE and MANAGE in the user's language (English when the message has no Chinese),
else in Chinese. CHAT turns and questions about what the user said are answered by
agent/offline_recall.py.
"""

from __future__ import annotations

from activities.cues_en import EN_KIND_WORDS
from activities.models import ActivityStatus
from activities.reasons import VIBE_NAMES_EN
from activities.selectors import activity_named_in
from agent import extract, follow_up
from agent.context import RuntimeContext
from agent.extract import is_english
from agent.intent_rules import (
    CHAT,
    CREATE,
    EXPLORE,
    PARTNER,
)
from agent.modes import AgentMode
from agent.offline_choices import ask_which, beyond_text, kind_outside_window_text, which_text
from agent.offline_lines import (
    ASK_JOIN_EN,
    ASK_JOIN_ZH,
    activity_lines,
    days_text,
    record_listing,
    span_text,
    status_text,
    when_text,
)
from agent.offline_manage import (
    my_activities_text,
    reminder_cancel_text,
    reminder_set_text,
    reminder_state_text,
)
from agent.offline_plans import (
    EDIT_RE,
    JOIN_RE,
    NOT_JOINING_RE,
    kind_missing_in_window,
)
from agent.offline_recall import compose_chat, compose_recall, is_recall, persona_values, remembered
from agent.owned import own_activity_named
from agent.task_reminders import cancelled_text, cancels_reminder

# The limits the planner may drop, in the order it drops them: (argument, English, Chinese).
LIMIT_WORDS = (("nearby", "distance", "距离"), ("timeRange", "time", "时间"))


def _explore_text(ctx: RuntimeContext, calls: list[dict]) -> str:
    """Return the answer to a search: the results, or why there are none, in the user's language."""
    english = is_english(ctx.message)
    result = calls[-1]["result"]
    items = result.get("results") or []
    unknown = bool(result["meta"].get("nearbyUnknown"))
    first = calls[0]["arguments"]
    values = persona_values(ctx, english=english, results=items[:3])
    if not items and first.get("excludeIds"):  # 换一批 with nothing left
        if english:
            return "That's everything I found for this. Want to look for something else?"
        return "这一类的活动都给你看过了，没有别的了。要不要换个方向找找？"
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
            said = ", ".join(values)
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
        said = "、".join(values)
        remembered_note = f"我记着你的偏好：{said}。" if values else ""
        return head + "。现在的活动里可能没有这一类，换个说法描述一下试试？" + remembered_note
    asked = calls[0]["arguments"].get("query", ctx.message)
    if len(calls) > 1 and (word := kind_missing_in_window(asked, calls[0]["result"])):
        return kind_outside_window_text(ctx, calls, word, english)
    notes = []
    if unknown:
        notes.append(
            "no location known, so across the city"
            if english
            else "没有你附近的位置信息，先按全城推荐"
        )
    # 这周六 said on a Sunday: the search had no time to read; say so rather than list other days
    # as if they were the day asked (a make-run look, session 52).
    passed = extract.passed_time_said(ctx.message)
    if passed:
        notes.append(
            f'"{passed}" has passed, so these are the next ones'
            if english
            else f"「{passed}」已经过了，先看接下来的"
        )
    if values:
        notes.append(
            "by your preferences: " + ", ".join(values)
            if english
            else "按你的偏好：" + "、".join(values)
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
    record_listing(ctx, items, calls[-1]["arguments"])
    lines = activity_lines(items[:3], english)
    if english:
        note = f" ({'; '.join(notes)})" if notes else ""
        ask = ASK_JOIN_EN
        return f"Here is what I found{note}:\n{lines}\n{ask}"
    note = f"（{'；'.join(notes)}）" if notes else ""
    return f"为你找到这些活动{note}：\n{lines}\n{ASK_JOIN_ZH}"


def _join_text(ctx: RuntimeContext, calls: list[dict]) -> str:
    """Return the answer to a join: joined, refused (full, started...) or which one."""
    english = is_english(ctx.message)
    last = calls[-1]
    if last["name"] == "exploreNearby":  # a join request that named no single result
        return ask_which(ctx, last["result"]["results"][:3], english)
    result = last["result"]
    if "error" in result:
        before = calls[-2]["result"] if len(calls) > 1 else {}
        # The search that listed it, or the activity read first (报名第二个).
        listed = before.get("results") or ([before["activity"]] if before.get("activity") else [])
        title = next(
            (a["title"] for a in listed if a["id"] == last["arguments"].get("activityId")), ""
        )
        if not title:  # joined by the title the message named, without a search first
            named = activity_named_in(user=ctx.user, text=ctx.message)
            title = named.title if named is not None else ""
        if isinstance(last["arguments"].get("activityId"), int):
            ctx.focused = last["arguments"]["activityId"]  # 取消这个 next: the one just asked
        reason = (result["error"].get("details") or {}).get("reason")
        if reason == "joined" and title:
            if english:
                return f'You\'re already signed up for "{title}".'
            return f"你已经报名了「{title}」，不用再报。"
        if reason == "full":
            if english:
                return (
                    f'"{title}" is full, so I could not sign you up. Shall I look for similar ones?'
                )
            return f"「{title}」已经满员了，报不上名。要我找找类似的活动吗？"
        if english:
            return f"I could not sign you up: {result['error']['message']}"
        return f"没能报名：{result['error']['message']}"
    activity = result["activity"]
    ctx.focused = activity["id"]
    seats = f"{activity['currentParticipants']}/{activity['maxParticipants']}"
    when = when_text(activity["startAt"], english)
    if english:
        return f'You\'re in: "{activity["title"]}", {when} ({seats} places taken).'
    return f"已帮你报名「{activity['title']}」：{when}，现在 {seats} 人。"


def _details_text(ctx: RuntimeContext, activity: dict) -> str:
    """Return one activity's details (what 第二个几点开始 or "where's the first one?" asks)."""
    english = is_english(ctx.message)
    ctx.focused = activity["id"]
    left = activity["maxParticipants"] - activity["currentParticipants"]
    # "几点结束", "how long is it": the end said beside the start.
    when = span_text(activity["startAt"], activity.get("endAt"), english)
    place = activity.get("locationName") or ("place to be decided" if english else "地点待定")
    about = (activity.get("description") or "").strip()
    status = "" if activity["status"] == ActivityStatus.ACTIVE else activity["status"]
    if english:
        seats = f"{left} places left" if left > 0 else "full"
        state = f" ({status_text(status, True)})" if status else ""
        return (
            f'"{activity["title"]}"{state}: {when}, {place}, {seats}.'
            + (f" {about}" if about else "")
            + ('\nSay "join this one" to sign up.' if left > 0 and not status else "")
        )
    seats = f"还有 {left} 个名额" if left > 0 else "已经满员"
    state = f"（{status_text(status, False)}）" if status else ""
    return (
        f"「{activity['title']}」{state}：{when}，{place}，{seats}。"
        + (about if about else "")
        + ("\n想去的话说“报名这个”就行。" if left > 0 and not status else "")
    )


def _company_for(kind: str, said: str, english: bool) -> str:
    """Return what a search for company is for: the kind as the user said it ("climbing",
    羽毛球), else the type (its English name in English), else "something" / 一起活动的."""
    named = extract.kinds_in(said) if is_english(said) == english else []
    if not english:
        # 找羽毛球搭子, not 找运动搭子 (a make-run look, session 52).
        return named[0].text if named else kind or "一起活动的"
    if named:
        return named[0].text
    words = EN_KIND_WORDS.get(kind) or ()
    return VIBE_NAMES_EN.get(kind) or (words[0] if words else "something")


def _others_looking(n: int, english: bool) -> str:
    """Return how many others look for company likewise, as a clause."""
    if english:
        if not n:
            return "nobody else yet"
        return "1 other person is looking too" if n == 1 else f"{n} others are looking too"
    return f"目前有 {n} 位也在找" if n else "暂时还没有别人在找"


def _partner_status_text(intents: list[dict], english: bool) -> str:
    """Return how the user's open searches for company go: each, and how many look likewise."""
    if not intents:
        if english:
            return "You're not looking for company right now. Who would you like to find?"
        return "你现在没有在找搭子。想找什么样的搭子？"
    lines = []
    for i, intent in enumerate(intents[:5]):
        what = _company_for(intent["activityType"], intent["description"], english)
        others = _others_looking(intent["openMatches"], english)
        # Two searches of one kind differ by their time: say it ("board games" twice read as
        # the same search listed twice: a make-run look, session 54).
        days = days_text(intent.get("timeRange"), english)
        if english:
            when = f" ({days})" if days else ""
            lines.append(f"{i + 1}. Company for {what}{when}: {others}.")
        else:
            when = f"（{days}）" if days else ""
            lines.append(f"{i + 1}. 找{what}搭子{when}：{others}。")
    if english:
        return "Your searches for company:\n" + "\n".join(lines) + "\nI'll tell you when one fits."
    return "你在找的搭子：\n" + "\n".join(lines) + "\n有合适的人我第一时间告诉你。"


def _draft_text(draft: dict, english: bool = False) -> str:
    if english:
        place = draft.get("locationName") or "place to be decided"
        return (
            f'"{draft["title"]}", {when_text(draft["startAt"], english)}, {place}, '
            f"up to {draft['maxParticipants']} people"
        )
    place = draft.get("locationName") or "待定"
    return (
        f"「{draft['title']}」，{when_text(draft['startAt'])}，地点{place}，"
        f"最多 {draft['maxParticipants']} 人"
    )


def compose(mode: AgentMode, ctx: RuntimeContext, calls: list[dict], preferences) -> str:
    """Return the answer of a mode from its tool calls' results.

    A question about what the user said is answered from memory whatever the mode, when memory
    holds an answer: the remembered message is the answer, not the tools' results.
    """
    if ctx.action == "refused":  # 第二个太远了: leave it, offer others
        if is_english(ctx.message):
            return 'OK, not that one. Want to join another, or shall I show others ("more")?'
        return "好的，那就不考虑它。想报名别的，还是要我换一批？"
    if ctx.action == "choose" and all(c["name"] == "getActivity" for c in calls):
        return which_text(ctx, calls)  # 帮我报名 after a list of several: which one
    if ctx.action in ("beyond", "which") and all(c["name"] == "getActivity" for c in calls):
        return beyond_text(ctx, calls)  # 第二个几点开始 after a list of one: what it listed
    if mode.name == CREATE and not calls and EDIT_RE.search(ctx.message):
        named, activity = own_activity_named(ctx)
        if named == "several":  # "move my potluck to 7pm" with two potlucks: ask
            if is_english(ctx.message):
                return "Several of your activities have that name. Which one? Say its full title."
            return "你有好几个活动都叫这个名字，要改哪一个？说一下完整的名称。"
        if named == "joined":  # someone else's: only its organiser changes it
            title = activity["title"]
            if is_english(ctx.message):
                return f'"{title}" is organised by someone else; only its organiser can change it.'
            return f"「{title}」是别人发起的活动，只有发起人能修改。"
    if mode.name == CREATE and not calls and not is_recall(ctx.message):
        # The planner read nothing to organise (第二个太远了 taken for a request): ask.
        if is_english(ctx.message):
            return "Want to organise something? Tell me what, when and for how many people."
        return "想组织活动吗？告诉我做什么、什么时间、几个人，我帮你建草稿。"
    if mode.name == EXPLORE and not calls and JOIN_RE.search(ctx.message):
        # A join pointing at nothing listed or in focus (报名这个 in a new chat): ask which.
        if is_english(ctx.message):
            return (
                "Which activity would you like to join? Tell me its name, or ask me to find some."
            )
        return "你想报名哪个活动？告诉我名字，或者让我先帮你找找。"
    if (
        mode.name == EXPLORE
        and not calls
        and follow_up.asks_for_someone_untold(
            ctx.message, extract.semantic_query(ctx.message), ctx.said_before
        )
    ):
        if is_english(ctx.message):
            return "Who do you mean? Tell me a little about them (their age, what they like)."
        return "你说的是谁呀？跟我说说 ta 的情况（多大、喜欢什么），我帮你找合适的。"
    if mode.name == CHAT or not calls:
        return compose_chat(ctx, preferences)
    if is_recall(ctx.message) and remembered(ctx):
        return compose_recall(ctx)
    last = calls[-1]
    result = last["result"]
    name = last["name"]
    english = is_english(ctx.message)
    joining = name == "joinActivity" or (
        name == "exploreNearby"
        and result.get("results")
        and JOIN_RE.search(ctx.message)
        and not NOT_JOINING_RE.search(ctx.message)
    )
    if joining:
        return _join_text(ctx, calls)
    if "error" in result:
        if english:
            return f"That step did not work: {result['error']['message']}"
        return f"这一步没能完成：{result['error']['message']}"
    if name == "exploreNearby":
        return _explore_text(ctx, calls)
    if name == "getActivity" and mode.name == CREATE:  # the chat's draft, nothing changed
        if english:
            return (
                f"Your draft: {_draft_text(result['activity'], english)}. What should change: "
                'the title, time, place or size? Say "publish" when it\'s right.'
            )
        return (
            f"你的草稿：{_draft_text(result['activity'])}。"
            "要改标题、时间、地点还是人数？确认的话说“发布”。"
        )
    if name == "setActivityReminder":
        told = [c for c in calls if c["name"] == "cancelTaskReminder"]
        if told:  # "cancel all my reminders": the told ones, then the activities'
            return f"{cancelled_text(told[-1], english)}\n{reminder_set_text(last, english)}"
        if any(c["name"] == "joinActivity" for c in calls):  # 报名第一个，不用提醒我
            joined = _join_text(ctx, calls[:-1])
            return joined + (" I won't remind you of it." if english else "到时候不提醒你。")
        return reminder_set_text(last, english)
    if name == "cancelTaskReminder":
        return cancelled_text(last, english)
    if name == "getActivityReminders":
        if cancels_reminder(ctx.message):  # naming none of them: say so, list them
            return reminder_cancel_text(ctx, last, english)
        return reminder_state_text(ctx, last, english)
    if name == "getActivity":
        return _details_text(ctx, result["activity"])
    if name == "updateContext":
        note = last["arguments"]["content"]
        title = result.get("title") or ""
        if english:
            return f'Noted in "{title}": {note}'
        return f"记下了，已加到「{title}」：{note}"
    if name == "createDraft":
        # A time said that has passed (这周六 on a Sunday) gave the draft no time: say so, not a
        # placeholder day as if it were understood (a make-run look, session 51).
        passed = extract.passed_time_said(ctx.message)
        if english:
            note = (
                f'"{passed}" has already passed, so the time is a placeholder: tell me the day. '
                if passed
                else ""
            )
            return (
                f"{note}Draft ready: {_draft_text(result['draft'], english)}. Change the time, "
                'place or size? Say "publish" and I\'ll post it.'
            )
        note = f"「{passed}」已经过了，时间先暂定，想定在哪天告诉我。" if passed else ""
        return (
            f"{note}草稿建好了：{_draft_text(result['draft'])}。"
            "要改时间、地点或人数吗？说“发布”就帮你发出去。"
        )
    if name == "refineDraft" and result["draft"]["status"] != ActivityStatus.DRAFT:
        # One of the user's own published activities, changed by name (not the chat's draft).
        changed = _draft_text(result["draft"], english)
        return f"Updated: {changed}." if english else f"已修改：{changed}。"
    if name == "refineDraft":
        if english:
            return (
                f"Draft updated: {_draft_text(result['draft'], english)}. Anything else? "
                'Say "publish" when it\'s right.'
            )
        return f"已更新草稿：{_draft_text(result['draft'])}。还要改什么吗？确认的话说“发布”。"
    if name == "publishActivity":
        # 取消这个 / "cancel it" next is about the one just published (it asked which of all
        # the user's activities: a make-run look, session 53).
        ctx.focused = result["activity"]["id"]
        title = result["activity"]["title"]
        if english:
            return f'Published! Everyone can see "{title}" and join it now.'
        return f"发布成功！「{title}」现在大家都能看到并报名了。"
    if name == "closePartnerIntent":
        intent = result["partnerIntent"]
        what = _company_for(intent["activityType"], intent["description"], english)
        if english:
            return f"OK, I've stopped looking for company for {what}."
        return f"好的，不再帮你找{what}搭子了。"
    if name == "getPartnerIntents" and extract.stops_partner_search(
        ctx.message, after_partner=ctx.last_intent == PARTNER
    ):
        # Asked to stop one, and none or several are open (plan_partner closes a named one).
        if not result["partnerIntents"]:
            if english:
                return "You're not looking for company right now, so there is nothing to stop."
            return "你现在没有在找搭子，不用停。"
        listed = _partner_status_text(result["partnerIntents"], english).rsplit("\n", 1)[0]
        return listed + ("\nWhich one should I stop?" if english else "\n要停掉哪一个？")
    if name == "getPartnerIntents":
        return _partner_status_text(result["partnerIntents"], english)
    if name in ("createPartnerIntent", "askPreference"):
        intent = calls[0]["result"].get("partnerIntent") or {}
        matches = calls[0]["result"].get("openMatches", 0)
        what = _company_for(intent.get("activityType") or "", ctx.message, english)
        others = _others_looking(matches, english)
        if english:
            text = f"Noted: you're looking for company for {what}"
            text += (
                f"; {others}, I'll keep an eye out."
                if matches
                else "; I'll tell you as soon as someone fits."
            )
            return text + (" " + result["question"] if result.get("question") else "")
        text = f"已帮你记下：想找{what}搭子"
        text += f"，{others}，我会帮你留意。" if matches else "，有合适的人我第一时间告诉你。"
        if name == "askPreference":
            text += result.get("question") or ""
        return text
    if name == "getMyActivities":
        return my_activities_text(ctx, calls, english)
    if name == "leaveActivity":
        title = result["activity"]["title"]
        if english:
            return f'You left "{title}"; your place is free for someone else.'
        return f"已退出「{title}」，名额已经让出来了。"
    if name == "cancelActivity":
        title = result["activity"]["title"]
        cancelled = result.get("action") == "cancelled"
        if english:
            return f'Cancelled "{title}".' if cancelled else f'You left "{title}".'
        return f"{'已取消' if cancelled else '已退出'}「{title}」。"
    return "Done." if english else "好的，已处理。"
