"""What "the first one" or 第二个 points to: the activities the chat's last reply listed.

A reply that lists activities (search results, "which one do you mean", the user's own list)
records their ids in the order it lists them (``RuntimeContext.listed``), and the chat's session
keeps them (``AgentSession.shown``) until another reply lists some. The next message can then
name one by its place: 报名第一个, 第二个几点开始, 最后那个在哪, "sign me up for the 2nd one",
"where's the last one?". A reply about one activity (its details, a join) makes it the focus,
which a message points at: 报名这个, "cancel that one", or a bare 帮我报名 / "sign me up". A
search's reply also keeps the search and every id it showed, so 换一批 / "show me others" runs
it again without them.
"""

from __future__ import annotations

import re

from agent import extract
from agent.context import RuntimeContext
from agent.extract import EN_PLACE_RE, ZH_PLACE_RE
from agent.intent_rules import EXPLORE, MANAGE
from agent.naming import named_words
from agent.offline_plans import HOLD_ON_RE, JOIN_RE, NOT_JOINING_RE, POINTING_RE
from agent.reminding import asks_reminder, refuses_reminder, without_refusal, without_reminder

MAX_CHOICES = 3  # the listed activities "which one?" names again (as a search reply lists 3)
MAX_SEEN = 30  # the ids 换一批 leaves out (exploreNearby's excludeIds holds at most 30)
ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
ZH_DIGITS.update({"九": 9, "十": 10})
EN_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
EN_ORDINALS.update({"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5})

# Pointing at the one activity a reply was about: 这个 / 那个 said alone or before what is asked
# (报名这个, 这个几点开始), not before a time or a thing (这个周末, 这个月, 这个app); "this one",
# "that one".
POINTER_RE = re.compile(
    # 取消这个活动 right after publishing it asked which (a make-run look, session 53).
    r"(?:这个|那个|这场|那场)(?:活动|局)?(?=[\s，,。？?！!~～吧呗呢啊吗呀]*$|几点|几号|在哪|什么时候"
    r"|哪天|怎么样|还有|多少|详细|介绍)|\b(?:this|that) (?:one|activity|event)\b",
    re.IGNORECASE,
)
# A short question about a listed activity's time, place, price or fit that names none (那几点呢,
# 在哪里啊, 要钱吗, "what about the price?", "where is it?"): about the one in focus, else the only
# one shown; after several, which one is asked. It searched "the price" as a kind (an audit,
# session 51).
ABOUT_UNNAMED_RE = re.compile(
    r"^\W*(?:那|那么|所以|嗯)?\W*(?:它|这些|都)?(?:是)?(?:几点|什么时候|哪天|几号|在哪(?:里|儿)?|地址|多少钱"
    r"|收费|要钱|贵不贵|价格|价钱|费用|门票|时间|地点)(?:开始|结束|集合|是多少|多少|是)?"
    r"(?:的|了)?(?:吗|呢|啊|呀|么)?\W*$"
    # 免费吗 asks the price; 那免费的呢 narrows the search (an audit, session 52).
    r"|^\W*(?:那|所以)?\W*(?:它|这个)?(?:是)?免费(?:的)?吗\W*$"
    r"|^\W*(?:(?:and|so|ok)\W+)?(?:what|how) about (?:the )?(?:prices?|costs?|fees?|tickets?|time"
    r"|times|timing|place|location|address|parking)\W*$"
    r"|^\W*(?:(?:and|so|ok)\W+)?(?:how much(?: is it| does it cost| are they)?|is it free"
    r"|what time(?: is it| does it (?:start|end|finish))?|where(?: is it|['’]s it| is that)?"
    r"|when(?: is it|['’]s it)?)\W*$"
    r"|^\W*(?:can you\s+)?remind me\W+(?:what time|when|where|how (?:much|long))\b"
    r"[^.!?]{0,40}\?*\W*$",
    re.IGNORECASE,
)
# A short question about who or what the one activity in focus suits ("is it suitable for
# kids?", "can I bring my dog?", 适合带孩子吗): searched as a kind (a make-run look, session 52).
# Only about the one in focus: after several, 适合新手的 or "is it possible to find something for
# kids" is a search (an audit, session 52).
SUITS_RE = re.compile(
    r"^\W*(?:so\W+)?(?:is|does|can|will|would|should) (?:it|that)(?: one)?\b"
    r"(?![^?]*\b(?:rain|snow|weather|matter)\b)[^.!?]{0,60}\?*\W*$"
    r"|^\W*(?:can|do|should|must) (?:i|we) (?:bring|need|wear|park)\b[^.!?]{0,40}\?*\W*$"
    r"|^\W*(?:那|所以)?\W*(?:这个|那个|它)?(?:适合|可以带|能带|需要带|要带|要不要带)[^，,。？?]{0,10}"
    r"(?:吗|么|嘛|呢)?[？?]?\W*$"
    r"|^\W*(?:小孩|孩子|小朋友|老人|狗|宠物|新手)(?:能|可以)(?:去|来|参加|带)?吗\W*$"
    r"|^\W*(?:这个|那个|它)?(?:有没有停车(?:位|场)?|好停车吗)\W*$",
    re.IGNORECASE,
)
POINTER_MAX_CHARS = 20  # a Chinese message
POINTER_MAX_WORDS = 8  # an English one ("ok sign me up for that one")
# Asking about the activity rather than choosing it: 几点, 在哪, 还有名额吗, "when", "details".
ASKING_RE = re.compile(
    r"[？?]|几点|几号|什么时候|哪天|在哪|哪里|地址|多少|名额|几个人|怎么样|详细|介绍|说说|讲讲|具体"
    r"|是不是|时间|收费|免费|带什么|适合|几岁|多大"
    r"|吗|呢|\b(?:when|where|what|how|is|does|are|can|should|who|details?|more about|tell me)\b",
    re.IGNORECASE,
)
# Refusing or doubting it: 第一个算了, 不要第一个, 不太想报名第二个, "not the first one",
# "I don't want to join that one", "skip the first one".
REFUSING_RE = re.compile(
    r"算了|不行|不要|(?<!是)不是(?!不)|不想(?!去了)|不太想|不用|不喜欢|别|甭|太远|太贵|没兴趣"
    r"|\b(?:not|no|don'?t|do not|skip|nah|never ?mind|sucks|hate)\b",
    re.IGNORECASE,
)
# A choice said alone: 第二个, 就第一个吧, "the 2nd one please", "option 3".
_ALONE_RE = re.compile(
    r"^\W*(?:好的?|行|嗯|那|就|那就|要|选|我要|我选|ok(?:ay)?|yes|sure)?\W*(?:就|要|选)?"
    r"\W*(?:\b(?:i'?ll take|i want|let'?s do|go with)\b)?\W*(?:\bthe\b)?\W*$",
    re.I,
)
# Choosing it with a plain verb beside its place: 第二个报名吧, 参加第二个, 我想去第一个, "go with
# the second one".
_JOIN_WITH_PLACE_RE = re.compile(
    r"报名|参加|报个名|我(?:想|要)?去|想要|\bi'?d like\b|\bgo with\b|\bi'?ll take\b", re.I
)
# Stopping going, said as a command (取消第二个, "cancel the 2nd one"), not asked about
# (第二个取消了吗, "when does the last one leave?").
CANCELLING_RE = re.compile(
    r"取消|退掉|退出|退了|不去了|去不了|去不成|不想去了|不(?:想|打算)?参加了"
    r"|\bcancel\b|\bdrop out\b|\bleave (?:it|that|this|the)\b"
    # "actually I can't go anymore" right after a join (a make-run look, session 51); not "I
    # cannot go wrong", "can't go running with this knee" (an audit, session 51).
    r"|\b(?:can['’]?t|cannot|can not) (?:go|come)(?: anymore| after all)\b|" + extract.CANT_MAKE,
    re.I,
)
# A join that names nothing else: 帮我报名, 好，报名吧, "ok sign me up", "sign me up for it": the
# activity in focus.
BARE_JOIN_RE = re.compile(
    r"^\W*(?:好的?|行|可以|嗯|那|就)?\W*(?:帮我|给我|我要|我想)?(?:报名|报个名)(?:这个|那个)?(?:吧|一下|呗)?\W*$"
    r"|^\W*(?:好的?|行|那)?\W*算我一个\W*$"
    # 好，就它了 after its details: that one (it was small talk: a make-run look, session 52).
    r"|^\W*(?:好的?|好吧|行|那)?\W*(?:那)?就(?:选|要)?(?:它|这个|那个|这场)(?:了|吧)\W*$"
    r"|^\W*(?:ok(?:ay)?|yes|great|sure|cool)?\W*(?:(?:sign me up|book me in|count me in|i'?m in)"
    r"(?:\s+(?:for|to|on)\s+(?:it|this|that))?|(?:join|book) (?:it|this|that)"
    r"|(?:add|put) (?:it|this|that) (?:to|in|on|into) my (?:calendar|schedule|diary|plans))"
    r"(?:\s+please)?\W*$"
    r"|^\W*(?:好的?|行|那)?\W*(?:帮我)?(?:把(?:它|这个|那个))?(?:加|放)(?:到|进)(?:我的)?(?:日程|日历|行程)里?(?:吧)?\W*$",
    re.IGNORECASE,
)
# Asking for other results of the last search: 换一批, 好，换一批, 还有别的吗, "show me others",
# "ok, see others", "more".
_ACK = r"^\W*(?:(?:好的?|行|嗯|那|可以|不喜欢|都不喜欢|ok(?:ay)?|yes|sure|hmm)\W*)?"
MORE_RE = re.compile(
    _ACK
    + r"(?:(?:再)?换一?批|还有(?:别的|其他|其它)?(?:的)?(?:吗|嘛|没有)?\W*$|(?:别的|其他的?)呢\W*$"
    r"|(?:还)?有没有(?:别的|其他的?|其它的?)[^，,。？?]{0,6}?(?:吗|呢|啊)?\W*$|没有(?:别的|其他的?)了?(?:吗|嘛)\W*$"
    r"|(?:are there\s+)?no (?:other|more) (?:options|ones|activities)\W*$"
    r"|再(?:来|推荐|给我)几个"
    r"|(?:(?:show me|see|any|got any|are there)\s+)?(?:some\s+)?"
    r"(?:more|others|other ones|other options)"
    r"(?:\s+(?:ones|options|please))?\W*$|(?:something|anything) else\W*$)",
    re.IGNORECASE,
)


def asks_for_more(message: str) -> bool:
    """Return whether the message, or its last clause, asks for other results of the last
    search (换一批; 第二个太远了，换一批; "too far, show me others")."""
    last = re.split(r"[，,。;；.!！]\s*(?=\S)", message or "")[-1]
    return bool(MORE_RE.search(message or "") or MORE_RE.search(last))


def place_named(message: str) -> tuple[int, re.Match] | None:
    """Return the 1-based place a message names (-1: the last one) and its match, or None."""
    found = ZH_PLACE_RE.search(message)
    if found:
        if found.group(2):
            return -1, found
        digit = found.group(1)
        return (int(digit) if digit.isdigit() else ZH_DIGITS[digit]), found
    found = EN_PLACE_RE.search(message)
    if found:
        word = (found.group(1) or found.group(2) or found.group(3)).lower()
        return (int(word) if word.isdigit() else EN_ORDINALS[word]), found
    return None


# A place or a pointer with the words that carry it ("about the second one", 第二个, "that one"),
# to read what a message says besides naming a listed activity.
_PLACE_WORDS_RE = re.compile(
    r"\b(?:about|for|of|on)\b|"
    + ZH_PLACE_RE.pattern
    + "|"
    + EN_PLACE_RE.pattern
    + "|"
    + POINTER_RE.pattern,
    re.IGNORECASE,
)


def action_of(message: str, *, alone: bool, for_cancel: bool = False) -> str | None:
    """Return what a message naming a listed activity does with it: "cancel", "join",
    "details", "remind" ("remind me the day before": whether it will be), "unremind" (不用提醒我:
    no reminder of it), "refused" (第二个太远了, "not the first one": nothing is done, the reply
    offers others), or None when it is something else (帮我组织第二场读书会): then it is routed
    as if it named none.

    Only a command stops going or joins; a question gets the details. ``alone``: the message is
    the place and nothing else (第二个, "the 2nd one please"), which answers the question the
    listing asked: which to cancel (``for_cancel``) or which to join.
    """
    if refuses_reminder(message):
        rest = without_refusal(message)
        # 不用提醒我 about the one in focus, or naming it (第二个不用提醒我, "don't remind me
        # about the second one"): no reminder of it. Beside a join (报名第一个，不用提醒我) the
        # join goes on and the reminder is refused after it (plan_referenced).
        named = _PLACE_WORDS_RE.sub(" ", rest)
        if not rest or _said_alone(rest) or _said_alone(named):
            return "unremind"
        message = rest
    reminder = asks_reminder(message)
    if reminder:
        # "报名第一个，到时候提醒我": what else it says decides (a join joins; the reminder
        # follows from joining); said alone, whether it will be reminded.
        message = without_reminder(message)
        if not message or _said_alone(message):
            return "remind"
    refusing = REFUSING_RE.search(message) or NOT_JOINING_RE.search(message)
    asking = ASKING_RE.search(re.sub(r"\bcan['’]?t\b", "", message, flags=re.I))
    holding = HOLD_ON_RE.search(message)
    if CANCELLING_RE.search(message) and not asking and not holding:
        return "cancel"
    if holding and not asking:  # 别取消第一个
        return None
    if alone:
        return "cancel" if for_cancel else "join"
    if refusing:
        return "refused"
    if (
        JOIN_RE.search(message)
        or BARE_JOIN_RE.search(message)
        or _JOIN_WITH_PLACE_RE.search(message)
    ) and not asking:
        return "join"
    if ASKING_RE.search(message):
        return "details"
    return "remind" if reminder else None


def stops_going_unnamed(message: str) -> bool:
    """Return whether the message stops going without naming or pointing at an activity or a
    time: 算了我去不了了, 不想去了，帮我退掉, "can't make it after all". Said right after a reply
    about one activity (the join just done), it means that one."""
    message = message or ""
    return bool(
        CANCELLING_RE.search(message)
        and not ASKING_RE.search(re.sub(r"\bcan['’]?t\b", "", message, flags=re.I))
        and not HOLD_ON_RE.search(message)
        and not POINTING_RE.search(message)
        and not named_words(message)
        # A time said, even as the one not going (周六去不了了: read as negated), names which.
        and not (understood := extract.read(message)).times
        and not understood.ignored
    )


def _said_alone(rest: str) -> bool:
    """Return whether what a message says besides the place or pointer is only a filler."""
    return bool(_ALONE_RE.match(re.sub(r"\b(?:please|thanks)\b|吧|呗|好了", "", rest, flags=re.I)))


def asks_which_to_join(message: str, ctx: RuntimeContext) -> bool:
    """Return whether a bare join (帮我报名, "sign me up") follows a listing of several to
    join with none in focus: the answer is a question, which one, not a search for "报名"
    (not after "which one to cancel?", a list of the user's own, nor while a draft is edited)."""
    return (
        len(ctx.shown) > 1
        and ctx.shown_for != "cancel"
        and not ctx.editing_draft
        and bool(BARE_JOIN_RE.search(message or ""))
    )


def asks_about_unnamed(message: str, ctx: RuntimeContext) -> bool:
    """Return whether a short question about a time, place or price (那几点呢, "what about the
    price?") follows a listing of several with none in focus: the answer lists them again and
    asks which one is meant."""
    return (
        len(ctx.shown) > 1 and not ctx.editing_draft and bool(ABOUT_UNNAMED_RE.match(message or ""))
    )


def names_place_beyond(message: str, shown: list[int]) -> bool:
    """Return whether the message names a place the last listing does not have (第二个几点开始
    after a listing of one, "the third one" after two): the answer is that listing again and
    which one is meant, not a search or a draft for the words around the place."""
    placed = place_named(message or "")
    return bool(shown) and placed is not None and placed[0] > len(shown)


def pointed_at(message: str, shown: list[int], focus: int | None = None) -> tuple[int, bool] | None:
    """Return the listed activity ``message`` names by its place, or points at (in a short
    message: the one a later reply was about, ``focus``, else the only one shown), and whether
    the message is that and nothing else; None when it names none, or a place the list does
    not have."""
    message = message or ""
    placed = place_named(message)
    if placed is None:
        # What a pointer or a bare join means: the focus, else the only activity shown.
        target = focus if focus is not None else (shown[0] if len(shown) == 1 else None)
        if target is None:
            return None
        if (
            BARE_JOIN_RE.search(message)
            or BARE_JOIN_RE.search(without_reminder(message))
            or ABOUT_UNNAMED_RE.match(message)
            or SUITS_RE.match(message)
            or asks_reminder(message)
            or refuses_reminder(message)
        ):
            return target, False
        short = len(message) <= POINTER_MAX_CHARS or (
            message.isascii() and len(message.split()) <= POINTER_MAX_WORDS
        )
        pointer = POINTER_RE.search(message) if short else None
        if pointer is None:
            return None
        rest = (message[: pointer.start()] + " " + message[pointer.end() :]).strip()
        return target, _said_alone(rest)
    if len(ZH_PLACE_RE.findall(message)) + len(EN_PLACE_RE.findall(message)) > 1:
        return None  # 保留第一个，取消第二个: which one is acted on is not clear; ask
    place, found = placed
    rest = (message[: found.start()] + " " + message[found.end() :]).strip()
    alone = _said_alone(rest)
    if place == -1:
        return (shown[-1], alone) if shown else None
    return (shown[place - 1], alone) if 1 <= place <= len(shown) else None


def shown_after(ctx: RuntimeContext, *, llm: bool) -> dict | None:
    """Return what the next message can name after this turn (``AgentSession.shown``), or None
    to leave it as it was.

    A reply listing activities replaces it (with the search it ran, for 换一批); a reply about
    one of them (details, a join) makes that one the focus; any other reply ("嗯，让我想想")
    leaves it. An LLM turn clears it: the model's replies list what the offline path never
    read, and a later offline fallback must not act on an older listing.
    """
    if llm:
        return {}
    if ctx.listed is not None:
        focus = ctx.listed[0] if len(ctx.listed) == 1 else None
        entry = {"ids": ctx.listed, "focus": focus, "for": ctx.listed_for}
        if ctx.searched is not None:
            seen = [*ctx.seen, *ctx.listed] if ctx.more else ctx.listed
            entry.update(search=ctx.searched, seen=seen[-MAX_SEEN:])
        elif ctx.search and ctx.action in ("choose", "beyond", "which"):
            # The same listing again (which one?): the search it came from still holds, so
            # "what about indoor ones?" next changes it (an audit, session 52).
            entry.update(search=ctx.search, seen=ctx.seen)
        return entry
    if ctx.focused is not None:
        previous = {"search": ctx.search, "seen": ctx.seen} if ctx.search else {}
        return {"ids": ctx.shown, "focus": ctx.focused, "for": ctx.shown_for, **previous}
    return None


def intent_of(action: str) -> str:
    """Return the intent serving what a message does with a listed activity."""
    return MANAGE if action == "cancel" else EXPLORE


def plan_referenced(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan the tool calls of a message naming a listed activity (``ctx.referenced``, doing
    ``ctx.action``).

    Read the activity first (the answer names it, and one gone since says so), then join it
    (报名第一个), stop going (取消第二个: ``cancelActivity`` leaves one the user joined and cancels
    one the user organises), or nothing more: the details answer a question about it.
    """
    if ctx.action == "refused":
        return []
    if not done:
        return [("getActivity", {"activityId": ctx.referenced})]
    last = done[-1]
    if len(done) == 2 and last["name"] == "joinActivity" and "error" not in last["result"]:
        if refuses_reminder(ctx.message):  # 报名第一个，不用提醒我: joined, not to be reminded
            return [("setActivityReminder", {"activityId": ctx.referenced, "remind": False})]
        return []
    if len(done) > 1 or last["name"] != "getActivity" or "error" in last["result"]:
        return []
    if ctx.action == "cancel":
        return [("cancelActivity", {"activityId": ctx.referenced})]
    if ctx.action == "join":
        return [("joinActivity", {"activityId": ctx.referenced})]
    if ctx.action in ("remind", "unremind"):
        remind = ctx.action == "remind"
        return [("setActivityReminder", {"activityId": ctx.referenced, "remind": remind})]
    return []


def plan_choice(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan "which one?": read the activities the last listing showed, in its order (to join:
    the first few; after a place it does not have: all of it)."""
    if done:
        return []
    shown = ctx.shown[:MAX_CHOICES] if ctx.action == "choose" else ctx.shown[:MAX_SEEN]
    return [("getActivity", {"activityId": pk}) for pk in shown]


def plan_more(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan 换一批: the last search again, without every activity it already showed."""
    if done:
        return []
    return [("exploreNearby", {**ctx.search, "excludeIds": ctx.seen[-MAX_SEEN:]})]
