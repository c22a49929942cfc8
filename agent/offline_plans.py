"""The offline planners of each mode: the tool calls a message asks for, picked by rules.

Used when no LLM is configured (and as the fallback when the LLM fails before answering). Each
``plan_*`` function returns the tool calls ``[(name, arguments)]`` for a message, taking earlier
tool results into account where a second call depends on the first (MANAGE's cancel needs the
activity id found by the listing, EXPLORE's join the id found by the search); agent/offline.py
composes the answer from their results.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from django.utils import timezone

from activities.selectors import activity_ids_of_kind, activity_named_in
from agent import draft_fields, extract, follow_up
from agent.context import RuntimeContext
from agent.extract import CJK_RE, is_english
from agent.intent_rules import (
    CREATE,
    EXPLORE,
    JOINED_BY_ME_RE,
    MANAGE,
    MY_OWN_RE,
    ORGANISED_BY_ME_RE,
    PARTNER,
    PAST_ASKED_RE,
    SIGN_UPS_RE,
)
from agent.naming import CANCEL_RE, named_matches
from agent.owned import own_activity_named
from agent.reminding import about_reminders, plan_reminders, without_reminder
from agent.task_reminders import cancels_reminder, cancels_task_reminder, plan_task_reminder
from agent.triggers import deadline_of
from rag.understand.negation import inside, negated_spans

PUBLISH_RE = re.compile(
    r"发布|发出去|确认|就这样|就按这个|按这个发|没问题|可以了"
    r"|\b(?:publish|post it|go ahead|looks good)\b",
    re.IGNORECASE,
)
# Saying not to do it, or asking how: 别取消了, 先别发布, 不取消了, 取消不了吗, "don't publish yet",
# "how do I leave". Nothing that cannot be undone runs on such a message.
HOLD_ON_RE = re.compile(
    r"(?:别|不要|不用|不必|先别|甭|没)(?:帮我|给我)?(?:取消|退出|退掉|删|发布|发出去)|不(?:取消|退出|发布)"
    r"|(?:取消|退|删|发布)不了|怎么(?:取消|退出|退|发布)|(?:取消|退|删|发布)(?:了)?(?:吗|没|没有)"
    r"|\b(?:don'?t|do not|no need to|won'?t|never)\s+(?:want to\s+|wanna\s+|need to\s+)?"
    r"(?:cancel|leave|publish|post|delete|remove|drop)\b"
    # Not backing out (我不想退出, 我没有去不了; an audit, session 50).
    r"|(?:不想|不会|不打算|没有)(?:帮我)?(?:退|取消|去不了|不去|删)"
    r"|\b(?:not yet|never mind)\b|\bhow (?:do|can|could) i\b"
    r"|\b(?:publish|post) (?:it )?later\b",
    re.IGNORECASE,
)
# Asking for a place in an activity the search shows ("报名周六那个徒步", "sign me up").
JOIN_RE = re.compile(
    r"(?:我要|我想|帮我|给我|想)报名|报名(?:第|这|那)|算我一个|\bsign me up\b|\bjoin\b|\bbook me\b"
    # "ok book the second one" (small talk: a make-run look, session 53), a command opening the
    # message: "I'll book it later", "before I book it" join nothing (its audit).
    r"|^\W*(?:(?:ok(?:ay)?|yes|yeah|yep|sure|great|cool|right|then|so|and)\W+)*(?:please\s+)?"
    r"(?:(?:book|reserve) (?:it|this|that|the|us|me|a (?:spot|place|seat))\b|put me down for\b"
    r"|save me a (?:spot|place|seat)\b)"
    # Putting it on one's calendar is joining it: the calendar lists what one joined ("add it to
    # my calendar" listed the user's activities; an audit, session 50).
    r"|\b(?:add|put) (?:it|this|that|this one|that one|the \w+ one) (?:to|in|on|into) my "
    r"(?:calendar|schedule|diary|plans)\b|(?:加|放)(?:到|进)(?:我的)?(?:日程|日历|行程)",
    re.IGNORECASE,
)
# Pointing at an activity (这个我去不了, "can't make it to that one", 第二个…): a cancel that points
# at what this planner cannot see is asked back, never applied to the user's only activity.
POINTING_RE = re.compile(
    r"[这那](?:个|场)|第\s*[一二两三四五六七八九十\d]|\b(?:this|that) one\b", re.IGNORECASE
)
# Saying not to join: 别报第二个, 我不太想报名, "don't sign me up", "I don't want to join".
NOT_JOINING_RE = re.compile(
    r"(?:别|不要|不用|不想|不太想|先别|不)(?:帮我|给我)?(?:报|参加|去)"
    r"|\b(?:don'?t|do not|not)\s+(?:want to\s+|wanna\s+)?(?:join|sign|book)",
    re.IGNORECASE,
)
# Publishing said in so many words: after a turn about something else, 确认 or "looks good" may
# approve a search result, never publish the chat's old draft.
EXPLICIT_PUBLISH_RE = re.compile(r"发布|发出去|\b(?:publish|post it)\b", re.IGNORECASE)
# Organising something (a new draft) and changing one (the draft being edited).
ORGANISE_RE = re.compile(
    r"组织|发起|办(?:个|一个|一场)|搞(?:个|一个|一场)|弄(?:个|一个)|开(?:个|一个)|来一场|攒(?:个|一个)?局"
    r"|张罗|组(?:个|一个)?局|发布(?:一个|一场)"
    r"|\b(?:organi[sz]e|set up|host|create)\b|\b(?:plan|start|run|throw) (?:a|an|another)\b",
    re.IGNORECASE,
)
EDIT_RE = re.compile(
    r"改|换|挪|推迟|提前|延后|\b(?:change|move|make it|rename|push|switch)\b", re.IGNORECASE
)


def joins_something_named(message: str) -> bool:
    """Return whether a join names what to join (报名周六的徒步, "sign me up for the hike"), not
    only points at something (报名这个, "join this one", "sign me up")."""
    # A place in a list (报名第一个, 报名最后一个, "sign me up for the first one") points too:
    # with nothing listed, searching for 「第一个」 found nothing (a make-run look, session 47).
    for place in (extract.ZH_PLACE_RE, extract.EN_PLACE_RE):
        message = place.sub(" ", message)
    topic = extract.semantic_query(message).strip().lower()
    return bool(topic) and topic not in ("this", "that", "this one", "that one", "it", "one")


def kind_missing_in_window(query: str, result: dict) -> str | None:
    """Return the kind word a search's ``query`` asked for when its time window held only a few
    listings (the search's small path, which returns every one of them) and none is of that kind;
    None otherwise. "any food events this week?" answered with the week's one frisbee game (a
    make-run look, session 50): the agent then searches the kind without the time as well."""
    items = result.get("results") or []
    if not items or (result.get("meta") or {}).get("path") != "hard_filter_small":
        return None
    refused = negated_spans(query)
    # A kind refused is not asked for ("anything except food?", 明天除了吃饭还有什么).
    kinds = [k for k in extract.kinds_in(query) if not inside(k.span, refused)]
    if not kinds:
        return None
    # Of the kind by its type or its vibes: 静安飞盘新手局 (运动) is 户外 too (a make-run look,
    # session 51: it was named as not outdoor, then listed as outdoor).
    if any(item.get("type") == kinds[0].label for item in items) or activity_ids_of_kind(
        ids=[item["id"] for item in items], kind=kinds[0].label
    ):
        return None
    start, end = kinds[0].span
    return query[start:end]


def plan_explore(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Search with the semantic part of the message, its time range and "nearby"."""
    if done:
        last = done[-1]
        if last["name"] != "exploreNearby":
            return []
        found = last["result"].get("results") or []
        if found and JOIN_RE.search(ctx.message) and not NOT_JOINING_RE.search(ctx.message):
            # A join names the activity: take the one result the message clearly points to.
            target = _best_match(ctx.message, found)
            return [("joinActivity", {"activityId": target["id"]})] if target else []
        # Nothing found near: search again without "nearby" (the time is the search's own to
        # widen: it goes in the query, as said). Without a known location "nearby" filtered
        # nothing, so dropping it would only repeat the same search.
        relaxed = dict(last["arguments"])
        # Read from the query searched, not the message: "what about tomorrow?" after "any food
        # events this weekend?" searched food tomorrow (agent.follow_up).
        asked = relaxed["query"]
        if len(done) == 1 and kind_missing_in_window(asked, last["result"]):
            topic = extract.semantic_query(asked)
            if topic and topic != asked:  # the time said is left out of the query
                # Without the window's own listings: they were just named as not of the kind.
                shown = [item["id"] for item in found]
                return [("exploreNearby", {**relaxed, "query": topic, "excludeIds": shown})]
        if found or "error" in last["result"]:
            return []
        if "nearby" in relaxed and last["result"].get("meta", {}).get("nearby"):
            relaxed.pop("nearby")
            return [("exploreNearby", relaxed)]
        return []
    if JOIN_RE.search(ctx.message) and not NOT_JOINING_RE.search(ctx.message):
        # A join naming a listing by its whole title joins that one, full or not (the join
        # refuses a full one by name): a new search would hide it and pick another.
        named = activity_named_in(user=ctx.user, text=ctx.message)
        if named is not None:
            return [("joinActivity", {"activityId": named.pk})]
        # "sign me up and remind me the day before" names nothing more than "sign me up".
        if not joins_something_named(without_reminder(ctx.message)):
            return []  # 报名这个 with nothing listed or in focus: the answer asks which
    understood = extract.read(ctx.message)
    topic = extract.semantic_query(ctx.message)
    # 这周末有适合她的活动吗 after 我女儿6岁，喜欢画画: for her, as told.
    for_them = follow_up.someone_said_before(ctx.message, topic, ctx.said_before)
    if follow_up.asks_for_someone_untold(ctx.message, topic, ctx.said_before):
        return []  # 有没有她会喜欢的 with nobody told of: the answer asks who
    topic = for_them or topic
    if ctx.search and not for_them:
        # 有没有不用花钱的 after 周六带孩子去哪玩 narrows that search, 那明天的呢 asks it for
        # another day, "what about food?" for another thing then: not a new search of its own.
        # Asked for the person told of ("anything she'd like on sat or sun?"), it is a search
        # for them, not the last one at another time (a make-run look, session 55).
        changed = follow_up.changed_search(ctx.message, ctx.search)
        if changed is not None:
            return [("exploreNearby", changed)]
    arguments: dict = {"query": topic or ctx.message, "limit": 5}
    # "when she's here": the time (and the liking) the user said of the visit earlier in the chat.
    arguments["query"] = (
        follow_up.visit_said_before(ctx.message, arguments["query"], ctx.said_before)
        or arguments["query"]
    )
    said = extract.time_said(understood)
    if said:
        # The time goes to the search as said, not as a hard filter: the search reads it as its
        # window, answers from it, and when nothing there fits what is asked ranks every row by
        # closeness to it, each outside it marked (activities.search_window), as measured on the
        # held-out sets; the hard filter and dropping it when empty were the agent's own rule
        # (a make-run look, session 47). The time of a feeling (今天有点丧) is no window.
        arguments["query"] = f"{said} {topic}".strip()
    if understood.nearby:
        # Asked even without a known location: the tool then searches everywhere and says so.
        arguments["nearby"] = True
        if understood.radius_km:  # "离我3公里以内"
            arguments["radiusInKm"] = understood.radius_km
    return [("exploreNearby", arguments)]


def plan_create(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Create a draft, or refine/publish the one this chat is editing."""
    if done:
        return []
    # The chat edits its draft until it is published or cancelled, even after a turn about
    # something else ("几点开始的？" listed the activities, then "发布吧" once drafted a new
    # one); a message that organises something without changing anything starts a new draft.
    question = ctx.message.rstrip().endswith(("?", "？"))
    new = bool(ORGANISE_RE.search(ctx.message) and not EDIT_RE.search(ctx.message) and not question)
    # After a turn about something else, only a change (改到周日) or a bare publish (发布吧)
    # is about the draft; a request naming a kind (帮我发布一个读书会) is a new one.
    returning = bool(
        EDIT_RE.search(ctx.message)
        or (EXPLICIT_PUBLISH_RE.search(ctx.message) and not extract.kinds_in(ctx.message))
    )
    editing = ctx.draft_id is not None and (
        (ctx.last_intent == CREATE and not new) or (ctx.last_intent != CREATE and returning)
    )
    asked = is_english(ctx.message) and ctx.message.rstrip().endswith("?")
    publish = PUBLISH_RE.search(ctx.message) and not HOLD_ON_RE.search(ctx.message) and not asked
    if editing and publish and not draft_fields.fields_of(ctx.message):
        return [("publishActivity", {})]
    if editing and (fields := draft_fields.fields_of(ctx.message)):
        return [("refineDraft", draft_fields.keep_time_of_day(ctx, fields))]
    if editing and not new:
        # Nothing to change read ("what time does it start?", a change not understood): show
        # the draft and ask, rather than draft the message itself as a new activity.
        return [("getActivity", {"activityId": ctx.draft_id})]
    if not new and EDIT_RE.search(ctx.message) and (fields := draft_fields.fields_of(ctx.message)):
        # 把羽毛球局改到晚上7点, "move my potluck to 7pm": a change to one of the user's own
        # activities, not a new draft titled by the sentence (a make-run look, session 50).
        named, own = own_activity_named(ctx)
        if named in ("several", "joined"):
            # Which one is not clear, or it is someone else's (the answer says so): no change,
            # and no draft of the sentence (an audit, session 50).
            return []
        if own is not None:
            start = datetime.fromisoformat(own["startAt"])
            changes = draft_fields.keep_time_of_day(ctx, fields, start)
            return [("refineDraft", {"activityId": own["id"], **changes})]
    understood = extract.read(ctx.message)
    fields = draft_fields.fields_of(ctx.message)
    if not (new or fields or extract.kinds_in(ctx.message, understood)):
        # Nothing says what to organise (第二个太远了 read as CREATE): draft nothing.
        return []
    activity_type = extract.extract_activity_type(ctx.message) or "社交"
    arguments = {"title": draft_fields.draft_title(ctx.message, understood, activity_type)}
    arguments |= {"type": activity_type, "description": ctx.message}
    arguments.update(fields)
    arguments.setdefault("maxParticipants", 6)
    return [("createDraft", arguments)]


def plan_partner(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Record the partner intent; ask about the vibe when no vibe preference is known. A
    question about how the search goes (有人匹配上了吗, "any matches yet?") reads the open
    ones instead of recording another."""
    if extract.PARTNER_STATUS_RE.search(ctx.message):
        return [] if done else [("getPartnerIntents", {})]
    if extract.stops_partner_search(ctx.message, after_partner=ctx.last_intent == PARTNER):
        # Read the open searches, then close the one the message names (or the only one).
        if not done:
            return [("getPartnerIntents", {})]
        if len(done) == 1:
            target = _search_named(ctx.message, done[0]["result"].get("partnerIntents") or [])
            if target is not None:
                return [("closePartnerIntent", {"intentId": target["id"]})]
        return []
    if done:
        knows_vibe = any(c.text.startswith("偏好 vibe") for c in ctx.persona)
        if len(done) == 1 and not knows_vibe:
            question = (
                "Do you prefer lively or quiet get-togethers?"
                if is_english(ctx.message)
                else "你更喜欢热闹还是安静的局？"
            )
            return [("askPreference", {"category": "vibe", "question": question})]
        return []
    time_range = extract.extract_time_range(ctx.message)
    arguments: dict = {"description": ctx.message}
    activity_type = extract.extract_activity_type(ctx.message)
    if activity_type:
        arguments["activityType"] = activity_type
    if time_range:
        arguments["timeRange"] = time_range.as_filter()
    return [("createPartnerIntent", arguments)]


# Words of a request to stop a search that name no search: what remains names the one meant.
_NAMES_NO_SEARCH = re.compile(
    r"搭子|伙伴|队友|球友|帮我|一起|取消|停止|停掉|关掉|关闭|找|人|不|了|吧|先|用|再|要|别|必|想"
    r"|\b(?:partners?|buddy|buddies|company|search|searching|looking|stop|cancel|my|for|with"
    r"|the|a|an|and|anyone|someone|people|any|no|longer|need|want|please|request)\b",
    re.I,
)


def _search_named(message: str, intents: list[dict]) -> dict | None:
    """Return the open search for company a request to stop one names.

    What the message says besides its words for stopping and searching names it: the one
    sharing the most words (English) or character pairs (Chinese) with its kind and wording,
    when one shares more than any other; the only one open unless another kind is named ("stop
    looking for a board game partner" with only a badminton search open closes none).
    """

    def grams(text: str) -> set[str]:
        text = text.lower()
        pairs = {text[i : i + 2] for i in range(len(text) - 1)}
        cjk = {p for p in pairs if CJK_RE.match(p[0]) and CJK_RE.match(p[1])}
        return set(re.findall(r"[a-z]{3,}", text)) | cjk

    named = _NAMES_NO_SEARCH.sub(" ", message)
    kind = extract.extract_activity_type(named)
    asked = grams(named)
    if asked:  # the kind it names counts too, in either language ("hiking" is 户外's)
        asked |= grams(kind or "")
    if len(intents) == 1 and (not kind or kind == intents[0]["activityType"]):
        # The only one open, unless the message names another kind: "I no longer need a
        # partner, my friend is coming" closes it.
        return intents[0]
    if not asked:
        return None
    scored = sorted(
        ((len(asked & grams(f"{i['activityType']} {i['description']}")), i) for i in intents),
        key=lambda pair: -pair[0],
    )
    if scored and scored[0][0] and (len(scored) == 1 or scored[0][0] > scored[1][0]):
        return scored[0][1]
    return None


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


def cancel_target(message: str, activities: list[dict], now: datetime | None = None) -> dict | None:
    """Return the activity a request to stop going means, only when it is clear.

    The one activity that holds every word the request names ("我不想参加周六那个徒步了": 徒步;
    nothing named: "我去不了了", "cancel the game") and starts in the time it names, if it names
    one ("取消周日的徒步": not the Saturday hike). A request saying not to (别取消了), asking
    how, or pointing at an activity without naming it (这个我去不了: the listing it points at is
    not this planner's) means none. Leaving or cancelling cannot be undone, so anything less
    clear is asked back. ``now``: the instant time phrases are read from (now when None).
    """
    if HOLD_ON_RE.search(message):
        return None
    words, matching = named_matches(message, activities)
    if POINTING_RE.search(message) and not words:
        return None
    window = extract.extract_time_range(message, now)
    if window is not None:
        matching = [
            a
            for a in matching
            if window.start <= datetime.fromisoformat(a["startAt"]) <= window.end
        ]
    return matching[0] if len(matching) == 1 else None


def shared_context_id(ctx: RuntimeContext) -> int | None:
    """Return the id of the shared context the turn reads (``context:<id>``), if any."""
    for chunk in ctx.shared:
        if chunk.source.startswith("context:"):
            return int(chunk.source.split(":", 1)[1])
    return None


# Cancelling an activity for everyone on it, said as such (取消飞盘局, "cancel the game"), not
# only that one cannot go.
CANCEL_FOR_ALL_RE = re.compile(r"取消|删除|删掉|\bcancel\b|\bcall (?:it )?off\b", re.IGNORECASE)


def plan_manage(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """List the user's activities; to cancel, list first, then cancel the one named.

    A request to note something in the shared context appends it there instead: to the
    context the turn reads (the request's ``context_id``, else the latest updated one).
    """
    if cancels_task_reminder(ctx.message):
        return plan_task_reminder(ctx, done)  # "cancel the reminder about my pills"
    if about_reminders(ctx.message):
        return plan_reminders(ctx, done)  # 不用提醒我 / 恢复提醒 with no activity in focus
    if cancels_reminder(ctx.message):
        return plan_task_reminder(ctx, done)  # "cancel my reminder": which one
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
        elif ORGANISED_BY_ME_RE.search(ctx.message) or (
            SIGN_UPS_RE.search(ctx.message)
            and not (JOINED_BY_ME_RE.search(ctx.message) and not MY_OWN_RE.search(ctx.message))
        ):
            scope = "created"
        elif (
            re.search(
                r"报名|报了|参加|参与|\b(?:signed up|joined|booked|registered)\b", ctx.message, re.I
            )
            and not cancel
        ):
            scope = "joined"
        arguments: dict = {"scope": scope}
        time_range = extract.extract_time_range(ctx.message)
        if time_range and not cancel:
            arguments["timeRange"] = time_range.as_filter()
        elif PAST_ASKED_RE.search(ctx.message) and not cancel:
            # 我之前参加过哪些活动: the ones before now (the tool's default starts today).
            arguments["timeRange"] = {"end": extract.local_now().isoformat()}
        return [("getMyActivities", arguments)]
    first, last = done[0], done[-1]
    if (
        len(done) == 1
        and not cancel
        and first["arguments"].get("scope") == "joined"
        and not first["result"].get("activities")
    ):
        # 我都报名了什么 from an organiser who joined nothing: what they organise answers it
        # better than "nothing" (a make-run look, session 49: one published a game, then asked).
        return [("getMyActivities", {**first["arguments"], "scope": "created"})]
    if (
        len(done) == 1
        and not cancel
        and first["arguments"].get("scope") == "created"
        and not first["result"].get("activities")
    ):
        # "what have I organised?" with drafts only: the drafts, rather than "no activities"
        # beside one drafted a minute ago (an audit, session 55).
        return [("getMyActivities", {**first["arguments"], "scope": "drafts"})]
    if (
        len(done) <= 2
        and not cancel
        and "start" in first["arguments"].get("timeRange", {})  # not "before now"
        and not last["result"].get("activities")
        and "timeRange" in last["arguments"]
        and deadline_of(ctx.message, timezone.now()) is None
    ):
        # 我周六还报了什么 with nothing that day: the ones at other times, said as such, rather
        # than "you have no activities" beside one joined for the Saturday after (a make-run
        # look, session 52). Not for a deadline told (its answer lists only that time).
        arguments = {k: v for k, v in first["arguments"].items() if k != "timeRange"}
        if arguments.get("scope") == "joined":  # an organiser's own count too (an audit, 52)
            arguments["scope"] = "all"
        return [("getMyActivities", arguments)]
    if cancel and len(done) == 1:
        live = [a for a in done[0]["result"].get("activities") or [] if a["status"] != "cancelled"]
        target = cancel_target(ctx.message, live)
        if target:
            if target.get("role") == "participant":
                return [("leaveActivity", {"activityId": target["id"]})]
            if CANCEL_FOR_ALL_RE.search(ctx.message):
                return [("cancelActivity", {"activityId": target["id"]})]
            # 算了我去不了了 from its organiser: cancelling it is everyone's loss, so only an
            # explicit cancel does it (an audit, session 50); the answer asks.
    return []


PLANNERS: dict[str, Callable[[RuntimeContext, list[dict]], list[tuple[str, dict]]]] = {
    EXPLORE: plan_explore,
    CREATE: plan_create,
    PARTNER: plan_partner,
    MANAGE: plan_manage,
}
