"""The offline answers about the user's own activities (MANAGE): the listing of them, the ones a
question names, and which one to cancel when a request to stop going names none clearly."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from agent import extract
from agent.context import RuntimeContext
from agent.intent_rules import OWN_ACTIVITY_RE, SIGN_UPS_RE, START_ASKED_RE
from agent.naming import CANCEL_RE, named_matches
from agent.offline_lines import listed_ids, status_text, titles_text, when_text
from agent.offline_plans import CANCEL_FOR_ALL_RE, HOLD_ON_RE, cancel_target
from agent.reminding import about_reminders, named_part
from agent.task_reminders import named_task
from agent.triggers import DEADLINE_RE, REMIND_TASK_RE, REMINDER_REFUSED_RE, deadline_of


def my_activities_text(ctx: RuntimeContext, calls: list[dict], english: bool) -> str:
    """Return the answer to a listing of the user's activities (the last call's result): the
    ones a question names, which to cancel, or all of them (five, then how many more)."""
    result = calls[-1]["result"]
    items = result.get("activities") or []
    if CANCEL_RE.search(ctx.message):
        return _which_to_cancel(ctx, items, english)
    if about_reminders(ctx.message):
        # 卡坦岛那个不用提醒我 naming none or several of them (agent.reminding.plan_reminders).
        names = titles_text(items[:5], english)
        if english:
            return f"Which one do you mean? {names}" if items else "You have no activities ahead."
        return f"你说的是哪一个？{names}" if items else "你接下来没有活动。"
    if DEADLINE_RE.search(ctx.message) and REMINDER_REFUSED_RE.search(ctx.message):
        # 明天考试，不用提醒我: a task told, its reminder refused (an audit, session 53).
        return "OK, I won't remind you of it." if english else "好的，这个就不提醒你了。"
    now = timezone.now()
    due = deadline_of(ctx.message, now)
    if REMIND_TASK_RE.search(ctx.message):
        # "remind me to call mom at 5pm": reminded then (triggers.reminder_window).
        if due is None or due <= now:
            if english:
                return (
                    'When should I remind you? Say it with the time, e.g. "remind me to call '
                    'mom tomorrow at 5pm".'
                )
            return "什么时候提醒你？连同时间一起说，比如“明天下午五点提醒我给妈妈打电话”。"
        when = when_text(due.isoformat(), english)
        return f"Noted: I'll remind you {when}." if english else f"记下了，{when} 提醒你。"
    if due is not None:
        when = when_text(due.isoformat(), english)
        # Less than a day ahead ("the essay is due today"): the reminder comes before it, not
        # "the day before" (a make-run look, session 53).
        soon = due - now <= timedelta(days=1)
        if english:
            titles = titles_text(items[:5], english)
            head = (
                f"Noted: it's due {when}; I'll remind you before then."
                if soon
                else f"Noted: I'll remind you the day before {when}."
            )
            return head + (f" Your activities then: {titles}." if items else "")
        head = (
            f"记下了：{when} 到期，到时间前我会提醒你。"
            if soon
            else f"记下了，我会在 {when} 的前一天提醒你。"
        )
        return head + ("" if not items else "你这段时间的活动：" + titles_text(items[:5]))
    if not items:
        if english:
            return "You have no activities here yet. Shall I find one or organise one?"
        return "你目前没有相关的活动。要我帮你找找或者发起一个吗？"
    # A question about one of them (我的飞盘局怎么样了, "when is my pottery class?", "who's
    # coming?" right after publishing one) lists the ones it names or the one in focus, or says
    # none is so named and lists them all; "show my events": all of them.
    words, matching = [], []
    if (
        OWN_ACTIVITY_RE.search(ctx.message)
        or START_ASKED_RE.search(ctx.message)
        or SIGN_UPS_RE.search(ctx.message)  # "is anyone coming to the potluck?"
    ):
        words, matching = _named_or_in_focus(ctx, ctx.message, items)
    head = "Your activities:\n" if english else "你的活动：\n"
    if (
        len(calls) > 1
        and "start" in calls[0]["arguments"].get("timeRange", {})
        and "timeRange" not in calls[-1]["arguments"]
    ):  # none then: the others (plan_manage)
        said = extract.time_said(extract.read(ctx.message)) or ("then" if english else "这段时间")
        head = (
            f'You have nothing on "{said}". Your other activities:\n'
            if english
            else f"你「{said}」没有活动。你其他时间的活动：\n"
        )
    elif len(calls) > 1 and result.get("scope") == "created":  # joined none (plan_manage)
        head = (
            "You haven't joined any yet. The ones you organise:\n"
            if english
            else "你还没有报名别人的活动。你发起的活动：\n"
        )
    if words and not matching:
        head = _none_named(words, english) + head
    elif matching:
        items = matching
    ctx.listed = listed_ids(items[:5])
    lines = []
    for i, item in enumerate(items[:5]):
        when = when_text(item["startAt"], english)
        status = status_text(item["status"], english)
        # An organiser's own: how many have signed up ("who has signed up?" asks it).
        seats = f"{item['currentParticipants']}/{item['maxParticipants']}"
        mine = item["role"] == "creator"
        if english:
            taken = f", {seats} signed up" if mine else ""
            role = "organising" if mine else "joined"
            lines.append(f"{i + 1}. {item['title']} ({role}, {status}): {when}{taken}")
        else:
            taken = f"，已报名 {seats} 人" if mine else ""
            role = "发起" if mine else "报名"
            lines.append(f"{i + 1}. {item['title']}（{role}，{status}）：{when}{taken}")
    if len(items) > 5:
        # Not cut silently: a joined one after five drafts looked missing (a make-run look,
        # session 51).
        more = len(items) - 5
        lines.append(
            f"…and {more} more (ask by name, or for drafts or joined ones only)."
            if english
            else f"……还有 {more} 个（可以说名字，或者只看草稿、只看报名的）。"
        )
    return head + "\n".join(lines)


def _which_to_cancel(ctx: RuntimeContext, items: list[dict], english: bool) -> str:
    """Return the answer to a request to stop going that cancelled nothing: held back, or why
    it is unclear (nothing named so, several, not at that time), then the activities to pick."""
    message = ctx.message
    live = [a for a in items if a["status"] != "cancelled"]
    if HOLD_ON_RE.search(message):
        return "OK, nothing is cancelled." if english else "好的，不取消，你的活动都还在。"
    if not live:
        if english:
            return "You have no activity joined or organised that could be cancelled."
        return "你目前没有报名或发起的活动，没有可以取消的。"
    target = cancel_target(message, live)
    if target and target.get("role") != "participant" and not CANCEL_FOR_ALL_RE.search(message):
        # The organiser cannot go: cancelling is for everyone on it, so it is asked first.
        ctx.focused = target["id"]
        if english:
            return (
                f'You organise "{target["title"]}": cancelling it cancels it for everyone. '
                'Cancel it? Say "cancel it".'
            )
        title = target["title"]
        return f"「{title}」是你发起的，取消后大家都去不了。确定要取消吗？说“取消这个”就行。"
    words, matching = named_matches(message, live)
    named = " ".join(words)
    choices = (matching if len(matching) > 1 else live)[:5]
    ctx.listed = listed_ids(choices)
    ctx.listed_for = "cancel"  # "第一个" next names the one to cancel
    if english:
        names = titles_text(choices, english)
        if words and not matching:
            return f"{_none_named(words, english)}Which one? {names}"
        if words and len(matching) > 1:
            return f'Several of your activities match "{named}". Which one? {names}'
        if words:
            return f'"{matching[0]["title"]}" is not at the time you said. Which one? {names}'
        return f"Which one? {names}"
    names = titles_text(choices)
    if words and not matching:
        return f"{_none_named(words, english)}你想取消哪一个？{names}"
    if words and len(matching) > 1:
        return f"有几个活动都对得上「{named}」，你想取消哪一个？{names}"
    if words:
        return f"「{matching[0]['title']}」不在你说的时间。你想取消哪一个？{names}"
    return f"你想取消哪一个？{names}"


def _named_or_in_focus(ctx: RuntimeContext, text: str, items: list[dict]):
    """Return the words ``text`` names activities by and the ones of ``items`` holding them;
    naming none, the one the chat is about (a make-run look, session 54: "who's coming?" right
    after publishing one listed every activity)."""
    words, matching = named_matches(text, items)
    if not words and ctx.focus is not None:
        matching = [item for item in items if item["id"] == ctx.focus]
    return words, matching


def _none_named(words: list[str], english: bool) -> str:
    """Return the sentence saying no activity of the user's is named so."""
    named = " ".join(words)
    return f'None of your activities is "{named}". ' if english else f"你的活动里没有「{named}」。"


def reminder_state_text(ctx: RuntimeContext, call: dict, english: bool) -> str:
    """Return the answer to "will I get a reminder?" / 怎么没提醒我 (a ``getActivityReminders``
    call and its result): for the activities the message names (all when it names none, or
    none of them), whether and when each one's reminder comes."""
    items = call["result"].get("activities") or []
    tasks = call["result"].get("tasks") or []
    told = _tasks_text(tasks, english)
    if not items:
        if tasks:
            return told
        if english:
            return "You have no activities ahead, so no reminder is due."
        return "你接下来没有活动，所以没有要发的提醒。"
    # 会提醒我吗 right after joining one: that one's (an audit, session 54).
    words, matching = _named_or_in_focus(ctx, named_part(ctx.message), items)
    head = _none_named(words, english) if words and not matching else ""
    told = f"{told}\n" if told and not words else ""
    return f"{told}{head}{_activities_text(matching or items, english)}"


def reminder_cancel_text(ctx: RuntimeContext, call: dict, english: bool) -> str:
    """Return the answer to cancelling a reminder that names none of them, or none by what the
    message names (a ``getActivityReminders`` call and its result): say so, and list every
    reminder there is, the told ones and the activities' (an audit, session 56, found the told
    ones left out)."""
    tasks = call["result"].get("tasks") or []
    items = [a for a in call["result"].get("activities") or [] if a.get("remind")]
    if not tasks and not items:
        if english:
            return "You have no reminders to cancel."
        return "你现在没有可以取消的提醒。"
    # No activity listed is named next: "the first one" after it left or joined the first of
    # an older listing (the re-audit, session 56); the reminder is named by what it is about.
    ctx.listed, ctx.listed_for = [], ""
    named = " ".join(named_task(ctx.message))
    if english:
        head = f'No reminder of yours is about "{named}".' if named else "Which reminder?"
        head += ' Say what it is about, e.g. "cancel the reminder about the pills".'
    else:
        head = f"你的提醒里没有关于「{named}」的。" if named else "要取消哪个提醒？"
        head += "说一下是关于什么的，比如“取消吃药的提醒”。"
    parts = [head, _tasks_text(tasks, english), _activities_text(items, english) if items else ""]
    return "\n".join(p for p in parts if p)


def _activities_text(items: list[dict], english: bool) -> str:
    """Return the reminders of the activities ahead (the first five), under their heading."""
    lines = "\n".join(_reminder_line(i + 1, a, english) for i, a in enumerate(items[:5]))
    title = "Reminders of your activities ahead:" if english else "你接下来活动的提醒："
    return f"{title}\n{lines}"


def _tasks_text(tasks: list[dict], english: bool) -> str:
    """Return the reminders of the times the user told ("remind me to take my pills at 8
    tonight"), each with what they said and when it goes out; "" when there are none."""
    if not tasks:
        return ""
    lines = []
    now = timezone.now()
    for i, task in enumerate(tasks[:5], 1):
        when = when_text(task["remindAt"], english)
        # A deadline's reminder window already open: it goes out at the next run of the trigger.
        soon = datetime.fromisoformat(task["remindAt"]) <= now
        if english:
            state = "I'll remind you shortly" if soon else f"I'll remind you {when}"
            state = "reminded already" if task["reminded"] else state
            lines.append(f'{i}. "{task["said"]}": {state}')
        else:
            state = "马上提醒你" if soon else f"{when} 提醒你"
            state = "已经提醒过了" if task["reminded"] else state
            lines.append(f"{i}. 「{task['said']}」：{state}")
    head = "Your reminders:" if english else "你的提醒："
    return head + "\n" + "\n".join(lines)


def _reminder_line(i: int, activity: dict, english: bool) -> str:
    """Return one activity's reminder state: sent, off, or when it goes out."""
    title, when = activity["title"], when_text(activity["startAt"], english)
    opens = when_text(activity["remindFrom"], english)
    if english:
        if activity["reminded"]:
            state = "reminded already (see your notifications)"
        elif not activity["remind"]:
            state = 'no reminder: you turned it off (say "remind me" to turn it back on)'
        else:
            state = f"a reminder the day before, from {opens}"
        return f'{i}. "{title}" ({when}): {state}'
    if activity["reminded"]:
        state = "已经提醒过了（在通知里）"
    elif not activity["remind"]:
        state = "不提醒：你关掉了（想要的话说“提醒我”）"
    else:
        state = f"前一天提醒你，{opens} 起"
    return f"{i}. 「{title}」（{when}）：{state}"


def reminder_set_text(call: dict, english: bool) -> str:
    """Return the answer to "remind me the day before" (``remind``) or 不用提醒我 about one
    activity or every one ahead (a ``setActivityReminder`` call and its result): every activity
    the user is on is reminded the day before it starts (``agent.activity_reminders``) unless
    muted; one the user is not on is not, and the answer says how to be."""
    result = call["result"]
    items = result.get("activities") or []
    remind = bool(result.get("remind"))
    if "activityId" not in call["arguments"]:  # every activity ahead
        if not items:
            if english:
                return "You have no activities ahead, so there is nothing to remind you of."
            return "你接下来没有活动，没有要提醒的。"
        if english:
            titles = titles_text(items[:5], english)
            if remind:
                return f"I will: the day before each of your activities ahead ({titles})."
            return (
                f'OK, no reminders for your activities ahead: {titles}. Say "turn reminders '
                'back on" if you change your mind.'
            )
        titles = titles_text(items[:5])
        if remind:
            return f"好的：你接下来的活动（{titles}）开始的前一天我都会提醒你。"
        return f"好的，你接下来的活动都不再提醒：{titles}。想恢复的话说“恢复提醒”。"
    activity = items[0]
    when = when_text(activity["startAt"], english)
    if not remind:
        if english:
            return (
                f'OK, no reminder for "{activity["title"]}" ({when}). Say "remind me" if you '
                "change your mind."
            )
        return f"好的，「{activity['title']}」（{when}）开始前不再提醒你。想要的话说“提醒我”。"
    if result.get("onIt"):
        if english:
            return f'I will: the day before "{activity["title"]}" ({when}) you get a reminder.'
        return f"好的：「{activity['title']}」（{when}）开始的前一天我会提醒你。"
    if english:
        return (
            f'You haven\'t joined "{activity["title"]}" ({when}) yet. Say "join this one" and '
            "I'll remind you the day before."
        )
    return f"你还没报名「{activity['title']}」（{when}）。说“报名这个”，开始的前一天我会提醒你。"
