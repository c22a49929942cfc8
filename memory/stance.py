"""Whether two stated preferences contradict each other (不吃辣 / 爱吃辣, like / hate jazz).

A preference value is read as a stance (for or against) on an object: a leading marker of
liking or disliking is taken off and what remains is the object. Two values contradict when
their objects are the same and their stances differ. A value with no marker is a plain
statement ("川菜", "humorous") and contradicts nothing: replacing it would need to know what
excludes what, which a rule cannot.
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
    "don't want",
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
)
# Verbs a stance marker may leave in front of the object (不吃辣 / 爱吃辣 -> 辣).
_VERBS = ("吃", "喝", "看", "玩", "去", "听")
_PUNCT = re.compile(r"[\s\u3000,，.。!！?？;；:：'\"“”‘’、~～]+")


def _norm(text: str) -> str:
    return _PUNCT.sub(" ", unicodedata.normalize("NFKC", text or "").lower()).strip()


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


def stance(value: str) -> tuple[str, int] | None:
    """Return ``(object, +1 or -1)`` of a preference value, or None when it states no stance."""
    text = _norm(value)
    for markers, sign in ((AGAINST, -1), (FOR, 1)):
        rest = _strip_marker(text, markers)
        if rest:
            for verb in _VERBS:
                if rest.startswith(verb) and len(rest) > len(verb):
                    rest = rest[len(verb) :]
                    break
            rest = re.sub(r"^(the|a|an)\s+", "", rest)
            rest = re.sub(r"(的|了|啊|呀|哦)+$", "", rest).strip()
            if rest:
                return rest, sign
    return None


def contradicts(a: str, b: str) -> bool:
    """Return whether preference values ``a`` and ``b`` take opposite stances on one object."""
    sa, sb = stance(a), stance(b)
    return sa is not None and sb is not None and sa[0] == sb[0] and sa[1] != sb[1]
