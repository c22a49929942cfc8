"""Whether two stated preferences contradict each other (不吃辣 / 爱吃辣, like / hate jazz).

A preference value is read as a stance (for or against) on an object: a leading subject (我,
"I") and a marker of liking or disliking are taken off and what remains is the object, in
one vocabulary for both languages ("spicy food" is 辣, "quiet activities" 安静). A value with
no marker ("川菜", "humorous") is for its object, or against it in a category of dislikes.
Two values contradict when they take opposite stances on one object, where being for one of
a pair of opposites (热闹 / 安静, humorous / serious) is being against the other. In a
category that holds one value (tone, length, language, time...) two different values without
a marker contradict too: the newer one is the value now. Categories of likes and dislikes
are one family: liking what one said one dislikes contradicts it.
"""

from __future__ import annotations

import re
import unicodedata

# Longest first: "不喜欢" must win over "喜欢", "don't like" over "like".
AGAINST = (
    "一点都不喜欢",
    "不太喜欢",
    "不喜欢",
    "不爱吃",
    "不爱",
    "不想",
    "不要",
    "不吃",
    "不喝",
    "不看",
    "不玩",
    "不去",
    "讨厌",
    "反感",
    "受不了",
    "拒绝",
    "别",
    "不",
    "don't like",
    "do not like",
    "don't eat",
    "do not eat",
    "can't eat",
    "cannot eat",
    "never eat",
    "don't drink",
    "do not drink",
    "don't want",
    "can't stand",
    "don't enjoy",
    "don't",
    "do not",
    "dislike",
    "dislikes",
    "hate",
    "hates",
    "avoid",
    "avoids",
    "no",
    "not",
)
FOR = (
    "特别喜欢",
    "非常喜欢",
    "很喜欢",
    "最喜欢",
    "喜欢",
    "爱吃",
    "爱喝",
    "爱看",
    "爱玩",
    "爱",
    "想要",
    "想",
    "要",
    "偏爱",
    "偏好",
    "吃",
    "喝",
    "really like",
    "like",
    "likes",
    "love",
    "loves",
    "enjoy",
    "enjoys",
    "prefer",
    "prefers",
    "want",
    "wants",
    "eat",
    "eats",
    "drink",
    "drinks",
)
# Verbs a stance marker may leave in front of the object (不吃辣 / 爱吃辣 -> 辣).
_VERBS = ("吃", "喝", "看", "玩", "去", "听", "eating ", "eat ", "drinking ", "drink ", "to ")
_PUNCT = re.compile(r"[\s\u3000,，.。!！?？;；:：\"“”、~～]+")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_SUBJECT = re.compile(
    r"^(?:我(?:很|也|都|一直|比较|真的)?|i(?: really| also| just)?\s+|i'm\s+|i am\s+)"
)
# Nouns an object may end with that do not change what it is (安静的活动 is 安静).
_TAIL_ZH = re.compile(
    r"的(?:活动|局|地方|环境|氛围|食物|东西|菜)$|(?<=..)(?:活动|氛围)$|(?:的|了|啊|呀|哦)+$"
)
_TAIL_EN = re.compile(r"\s+(?:food|foods|dishes|activities|events|places|things|stuff)$")
# One word for an object in both languages (the stance markers are taken off first).
ALIASES = {
    "spicy": "辣",
    "spicy food": "辣",
    "hot food": "辣",
    "辣的": "辣",
    "辛辣": "辣",
    "quiet": "安静",
    "calm": "安静",
    "peace and quiet": "安静",
    "lively": "热闹",
    "busy": "热闹",
    "crowds": "热闹",
    "crowded": "热闹",
    "noisy": "热闹",
    "吵": "热闹",
    "吵闹": "热闹",
    "人多": "热闹",
    "outdoor": "户外",
    "outdoors": "户外",
    "indoor": "室内",
    "indoors": "室内",
    "alcohol": "酒",
    "drinking": "酒",
    "vegetarian": "素食",
    "素": "素食",
    "幽默": "humorous",
    "funny": "humorous",
    "严肃": "serious",
    "formal": "serious",
    "简洁": "concise",
    "short": "concise",
    "brief": "concise",
    "详细": "detailed",
    "long": "detailed",
}
# Being for the second of a pair is being against the first.
OPPOSITES = {"热闹": "安静", "室内": "户外", "serious": "humorous", "detailed": "concise"}
# Categories that hold one value: a new plain value replaces the one they had.
SINGLE_VALUED = frozenset(
    {"tone", "length", "language", "lang", "style", "format", "time", "city", "budget", "语气"}
)
LIKES = frozenset({"likes", "like", "喜欢"})
DISLIKES = frozenset({"dislikes", "dislike", "不喜欢", "avoid"})


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "").lower().translate(_APOSTROPHES)
    return _PUNCT.sub(" ", text).strip(" '")


def _strip_marker(text: str, markers: tuple[str, ...]) -> str | None:
    for marker in sorted(markers, key=len, reverse=True):
        if not text.startswith(marker):
            continue
        rest = text[len(marker) :]
        ascii_marker = marker.isascii()
        if ascii_marker and rest and not rest.startswith(" "):
            continue  # "nothing" is not "no" + "thing"
        return rest.strip()
    return None


def _object(rest: str) -> str:
    """Return the object a stance is on: verbs, articles and neutral tails off, aliased."""
    for verb in _VERBS:
        if rest.startswith(verb) and len(rest) > len(verb):
            rest = rest[len(verb) :]
            break
    rest = re.sub(r"^(the|a|an|to)\s+", "", rest)
    rest = _TAIL_EN.sub("", rest).strip()
    if rest in ALIASES:
        return ALIASES[rest]
    shorter = _TAIL_ZH.sub("", rest).strip()
    rest = shorter or rest
    return ALIASES.get(rest, rest)


def related_categories(category: str) -> set[str]:
    """Return the categories whose preferences may contradict one in ``category``."""
    key = (category or "").strip().lower()
    if key in LIKES | DISLIKES:
        return set(LIKES | DISLIKES) | {category}
    return {category}


def _marked(text: str) -> tuple[str, int] | None:
    for markers, sign in ((AGAINST, -1), (FOR, 1)):
        rest = _strip_marker(text, markers)
        if rest:
            obj = _object(rest)
            if obj:
                return obj, sign
    return None


def stance(value: str, category: str = "") -> tuple[str, int] | None:
    """Return ``(object, +1 or -1)`` of a preference value in ``category``, or None if empty.

    A value without a marker is for its object (against it in a category of dislikes); the
    second of a pair of :data:`OPPOSITES` is read as the first with the opposite sign.
    """
    text = _SUBJECT.sub("", _norm(value)).strip()
    if not text:
        return None
    found = _marked(text)
    if found is None:
        sign = -1 if (category or "").strip().lower() in DISLIKES else 1
        found = (_object(text), sign)
    obj, sign = found
    if obj in OPPOSITES:
        obj, sign = OPPOSITES[obj], -sign
    return obj, sign


def contradicts(a: str, b: str, category: str = "", category_b: str | None = None) -> bool:
    """Return whether preference values ``a`` and ``b`` (in their categories) contradict.

    ``category`` is ``a``'s category, ``category_b`` ``b``'s (``category`` when not given).
    """
    category_b = category if category_b is None else category_b
    sa, sb = stance(a, category), stance(b, category_b)
    if sa is None or sb is None:
        return False
    if sa[0] == sb[0]:
        return sa[1] != sb[1]
    same = (category or "").strip().lower() == (category_b or "").strip().lower()
    single = same and (category or "").strip().lower() in SINGLE_VALUED
    plain = (
        _marked(_SUBJECT.sub("", _norm(a))) is None and _marked(_SUBJECT.sub("", _norm(b))) is None
    )
    return single and plain
