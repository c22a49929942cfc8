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

from agent.context import RuntimeContext
from agent.offline_plans import CANCEL_RE, HOLD_ON_RE, JOIN_RE
from agent.router import EXPLORE, MANAGE

ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
ZH_DIGITS.update({"九": 9, "十": 10})
EN_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
EN_ORDINALS.update({"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5})

# 第二个 / 第2个 / 第三场 / 第一, said alone or before what is asked about it; not 第一次 (the
# first time) or 第二天 (the next day). 最后一个 / 最后那个 is the last one listed.
ZH_PLACE_RE = re.compile(
    r"第\s*([一二两三四五六七八九十]|[1-9])\s*(?:个|条|项|场|家|名|位)"
    r"|第\s*([一二两三四五六七八九十]|[1-9])(?=[\s，,。？?！!吧呗呢啊吗那这]|几|在|是|怎|$)"
    r"|(最后)(?:一|那|这)?(?:个|条|项|场)"
)
# "the second one", "the 2nd", "number 2", "option 3", "#1"; not "the first time", "last week".
EN_PLACE_RE = re.compile(
    r"\b(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+(?:one|option|activity|event)\b"
    r"|\bthe\s+(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\b"
    r"(?!\s+(?:time|times|week|weekend|day|days|month|year|night|morning|evening|thing|minute"
    r"|hour|of|few|two|three))"
    r"|(?:\b(?:number|no\.?|option)\s*|#)([1-9])\b",
    re.IGNORECASE,
)
# Pointing at the one activity the reply showed: 这个 / 那个, "this one", "that one"; counted
# only in a short message that also joins, cancels or asks (那个，我想问下明天的天气 points at
# nothing; 它 and "it" are too often someone's pet or anything else).
POINTER_RE = re.compile(r"这个|那个|这场|那场|\b(?:this|that) one\b", re.I)
POINTER_MAX_CHARS = 20  # a Chinese message
POINTER_MAX_WORDS = 8  # an English one ("ok sign me up for that one")
# Asking about the activity rather than choosing it: 几点, 在哪, 还有名额吗, "when", "details".
ASKING_RE = re.compile(
    r"[？?]|几点|几号|什么时候|哪天|在哪|哪里|地址|多少|名额|几个人|怎么样|详细|介绍|说说|讲讲|具体"
    r"|吗|呢|\b(?:when|where|what|how|is|does|are|details?|more about|tell me)\b",
    re.IGNORECASE,
)


# Saying not to join: 别报第二个, 不去第一个了, "don't sign me up for the first one".
NOT_JOINING_RE = re.compile(
    r"(?:别|不要|不用|不想|先别|不)(?:帮我|给我)?(?:报|参加|去)"
    r"|\b(?:don'?t|do not|not)\s+(?:join|sign|book)",
    re.IGNORECASE,
)


# A join that names nothing else: 帮我报名, 好，报名吧, "ok sign me up": the activity in focus.
BARE_JOIN_RE = re.compile(
    r"^\W*(?:好的?|行|可以|嗯|那|就)?\W*(?:帮我|给我|我要|我想)?(?:报名|报个名)(?:吧|一下|呗)?\W*$"
    r"|^\W*(?:ok(?:ay)?|yes|great|sure|cool)?\W*(?:sign me up|book me in|count me in|i'?m in)"
    r"(?:\s+please)?\W*$",
    re.IGNORECASE,
)
# Asking for other results of the last search: 换一批, 还有别的吗, "show me others", "more".
MORE_RE = re.compile(
    r"^\W*(?:再)?换一?批|^\W*还有(?:别的|其他|其它)(?:的)?(?:吗|嘛|没有)?\W*$|^\W*(?:别的|其他的?)呢\W*$"
    r"|^\W*再(?:来|推荐|给我)几个"
    r"|^\W*(?:(?:show me|any|got any|are there)\s+)?(?:some\s+)?(?:more|others|other ones)"
    r"(?:\s+(?:ones|options|please))?\W*$|^\W*(?:something|anything) else\W*$",
    re.IGNORECASE,
)


def asks_for_more(message: str) -> bool:
    """Return whether the message asks for other results of the last search (换一批)."""
    return bool(MORE_RE.search(message or ""))


def _place(message: str) -> int | None:
    """Return the 1-based place a message names (-1: the last one), or None."""
    found = ZH_PLACE_RE.search(message)
    if found:
        if found.group(3):
            return -1
        digit = found.group(1) or found.group(2)
        return int(digit) if digit.isdigit() else ZH_DIGITS[digit]
    found = EN_PLACE_RE.search(message)
    if found:
        word = (found.group(1) or found.group(2) or found.group(3)).lower()
        return int(word) if word.isdigit() else EN_ORDINALS[word]
    return None


def pointed_at(message: str, shown: list[int], focus: int | None = None) -> int | None:
    """Return the id of the listed activity ``message`` names by its place, or points at (in a
    short message that joins, cancels or asks): the one a later reply was about (``focus``),
    else the only one shown. None when it names none, or a place the list does not have."""
    message = message or ""
    place = _place(message)
    if place is None:
        short = len(message) <= POINTER_MAX_CHARS or (
            message.isascii() and len(message.split()) <= POINTER_MAX_WORDS
        )
        pointing = BARE_JOIN_RE.search(message) or (
            short
            and POINTER_RE.search(message)
            and (JOIN_RE.search(message) or CANCEL_RE.search(message) or ASKING_RE.search(message))
        )
        if not pointing:
            return None
        return focus if focus is not None else (shown[0] if len(shown) == 1 else None)
    if place == -1:
        return shown[-1] if shown else None
    return shown[place - 1] if 1 <= place <= len(shown) else None


def wants_to_join(message: str) -> bool:
    """Return whether a message naming a listed activity chooses it (报名第一个, 就第二个吧,
    "the 2nd one please") rather than asking about it (第一个几点开始, "where's the last one?"),
    refusing it (别报第二个, "don't join the first one") or stopping going (取消第二个)."""
    if NOT_JOINING_RE.search(message) or HOLD_ON_RE.search(message) or CANCEL_RE.search(message):
        return False
    return bool(JOIN_RE.search(message)) or not ASKING_RE.search(message)


def intent_of(message: str) -> str:
    """Return the intent of a message naming a listed activity: MANAGE to stop going (取消第二个),
    else EXPLORE (join it, or say more about it)."""
    if CANCEL_RE.search(message) and not HOLD_ON_RE.search(message):
        return MANAGE
    return EXPLORE


def plan_referenced(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan the tool calls of a message naming a listed activity (``ctx.referenced``).

    Read the activity first (the answer names it, and one gone since says so), then join it
    (报名第一个), stop going (取消第二个: ``cancelActivity`` leaves one the user joined and cancels
    one the user organises), or nothing more: the details answer a question about it.
    """
    if not done:
        return [("getActivity", {"activityId": ctx.referenced})]
    last = done[-1]
    if len(done) > 1 or last["name"] != "getActivity" or "error" in last["result"]:
        return []
    if intent_of(ctx.message) == MANAGE:
        return [("cancelActivity", {"activityId": ctx.referenced})]
    if wants_to_join(ctx.message):
        return [("joinActivity", {"activityId": ctx.referenced})]
    return []


def plan_more(ctx: RuntimeContext, done: list[dict]) -> list[tuple[str, dict]]:
    """Plan 换一批: the last search again, without every activity it already showed."""
    if done:
        return []
    return [("exploreNearby", {**ctx.search, "excludeIds": ctx.seen[-30:]})]
