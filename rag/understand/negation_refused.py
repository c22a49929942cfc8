"""Refused times and negated words, read with the refusal markers of
``rag.understand.negation`` (the one reader of negation and its scope).

- :func:`refused_time`: whether a time phrase is one the person cannot or will not make
  (``rag.understand`` ignores it as ``"negated"``);
- :func:`refused_word`: whether a word is negated where it stands (a lexicon cue names nothing);
- :func:`refused_phrases`: what a text refuses, one phrase per negated span.
"""

from __future__ import annotations

import re

from rag.understand.negation import (
    EN_INABILITY,
    EN_NEGATORS,
    EN_TIME_REFUSING,
    ZH_CLOSING,
    ZH_INABILITY,
    ZH_NEGATORS,
    ZH_NOT_FREE,
    ZH_NOT_WANTING,
    ZH_PARTICLES,
    ZH_TIME_REFUSING,
    en_markers,
    negated_spans,
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


# --- what a refused span names ----------------------------------------------------------------

# What a refused phrase keeps of its span: not the negating word, nor the words around the
# refused thing that say how it is refused ("involve", "being", 那种, 太).
_EN_FRAME = re.compile(
    r"^(?:(?:(?:a\s+)?fan\s+of|keen\s+on|big\s+on|fond\s+of|a|an|the|any|anything|"
    r"something|too|very|really|that|this|it|being|involve|"
    r"involves|involving|want|to|be|in|into|on|onto|at|do|go|have|get|with|of|like|much|more|just|"
    r"so|me|i|my|them|it|is|s)\b\s*)+",
    re.IGNORECASE,
)
_ZH_FRAME_WORDS = ("那种", "再是", "是", "太", "去", "在", "要", "想", "用", "跟", "再")


def refused_phrases(text: str) -> list[str]:
    """Return what ``text`` refuses, one phrase per negated span, without the negating words
    and the words framing the refusal: 「不想吃辣」 -> 吃辣, "doesn't involve drawing" ->
    drawing, 「戏曲就不要了」 -> 戏曲 (a search compares these with its rows by meaning)."""
    phrases = []
    for start, end in negated_spans(text):
        span = text[start:end]
        for negator in sorted(ZH_NEGATORS, key=len, reverse=True):
            if span.startswith(negator):
                span = span[len(negator) :]
                break
        else:
            match = EN_NEGATORS.match(span) or EN_INABILITY.match(span)
            if match:
                span = span[match.end() :]
            else:
                for word in (*ZH_INABILITY, "不"):  # 不会游泳, the paired 不跑步也不打球
                    if span.startswith(word):
                        span = span[len(word) :]
                        break
        span = span.strip(" '’")
        span = _EN_FRAME.sub("", span).strip()
        changed = True
        while changed:
            changed = False
            for word in _ZH_FRAME_WORDS:
                if span.startswith(word) and len(span) > len(word):
                    span, changed = span[len(word) :], True
        span = span.strip(ZH_PARTICLES + " ")
        if span and span not in phrases:
            phrases.append(span)
    return phrases
