"""Refused times and negated words, read with the refusal markers of
``rag.understand.negation`` (the one reader of negation and its scope).

- :func:`refused_time`: whether a time phrase is one the person cannot or will not make
  (``rag.understand`` ignores it as ``"negated"``);
- :func:`refused_word`: whether a word is negated where it stands (a lexicon cue names nothing).
"""

from __future__ import annotations

import re

from rag.understand.negation import (
    EN_TIME_REFUSING,
    ZH_CLOSING,
    ZH_NOT_FREE,
    ZH_NOT_WANTING,
    ZH_TIME_REFUSING,
    en_markers,
    zh_markers,
    zh_negates,
)

# --- a refused time ---------------------------------------------------------------------------

# Right after a time, in its clause, that it is not free (晚上没空, 早上实在起不来, 周六要加班,
# "sunday is out", "tonight i'm busy"); general usage, not fitted.
_NOT_FREE_AFTER = re.compile(
    r"[^，。,.!?！？;；\n]{0,3}?(?:实在|真的|根本|都|总|老|一般)?(?:"
    + "|".join(sorted(ZH_CLOSING + ZH_NOT_FREE, key=len, reverse=True))
    + r")|\s*(?:is|are|'s)\s+(?:out|no\s+good|not\s+good|a\s+no)\b"
    r"|\s*,?\s*(?:i'?m|i\s+am|im)\s+(?:busy|working|not\s+free|away|unavailable)\b",
    re.I,
)
# What may stand between a refusal and the time it refuses ("not on sunday", "except this
# friday"; 不要周末).
_TIME_GAP = re.compile(r"(?:\s+(?:on|in|at|this|the))?\s*", re.I)


def refused_time(text: str, span: tuple[int, int]) -> bool:
    """Return whether the time phrase at ``span`` of ``text`` is one the person cannot or will
    not make: a refusal of :data:`ZH_TIME_REFUSING` / :data:`EN_TIME_REFUSING` right before it,
    or that it is not free right after it."""
    if _NOT_FREE_AFTER.match(text, span[1]):
        return True
    ends = [end for _, end in zh_markers(text, ZH_TIME_REFUSING)]
    ends += [
        m.end() for m in en_markers(text) if " ".join(m[0].lower().split()) in EN_TIME_REFUSING
    ]
    return any(end <= span[0] and _TIME_GAP.fullmatch(text, end, span[0]) for end in ends)


# --- a negated word ---------------------------------------------------------------------------

# A word is negated by a word of not wanting ending at most this many characters before it in
# its clause ("不用跟人聊天"), or by 不 / 没 / 别 right before it ("不吃辣", "不辣"; not
# "不错的音乐", nor 特别 or 别的). An exclusion (除了火锅) or a closing comment (球类运动就算了)
# refuses one thing of a kind the query still names.
NEGATION_REACH = 4
ZH_NEAR_NEGATORS = "不没别"
_CLAUSE_END = re.compile(r"[,，.。!！?？、;；:：\n]")


def refused_word(text: str, index: int) -> bool:
    """Return whether the word starting at ``index`` of ``text`` names nothing the query asks
    for, being negated where it stands (see :data:`NEGATION_REACH`)."""
    before = _CLAUSE_END.split(text[max(0, index - NEGATION_REACH) : index])[-1]
    start = index - len(before)
    if any(start <= s and e <= index for s, e in zh_markers(text, ZH_NOT_WANTING)):
        return True
    near = index - len(before[-2:])
    return any(
        char in ZH_NEAR_NEGATORS and zh_negates(text, near + i, char)
        for i, char in enumerate(before[-2:])
    )
