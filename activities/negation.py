"""What a search query asks *not* to have: the words under a negation (issue 30).

「不要户外的，室内玩点什么」, "exercise but no running", "something creative that doesn't
involve drawing": the negated word is a content word of the query like any other, so before
this the hybrid counted a row holding it (the outdoor walk, the 5K run, the life-drawing class)
as naming the query and put it first. :func:`negated_spans` finds the stretches of a query under
a negation; the hybrid's order (``activities.search_ranking``) then counts the words and cues
there apart, with their own fitted weight (``FUSION_WEIGHTS``), instead of as asked for.

A negation starts at a negating word (a closed class of the language, written from general
knowledge, not from the development queries) and runs to the end of its clause: punctuation,
a contrasting or joining word ("但", "but") or :data:`MAX_ZH_CHARS` / :data:`MAX_EN_WORDS`.
Not negations: what one cannot do or has not done yet (不会游泳, "can't swim", "never tried",
不需要基础: the beginners' class is what such a query wants), the set phrases whose 不 is not a
refusal (不错, 不好, 不久) and the words holding 别 (特别, 区别).
"""

from __future__ import annotations

import re

# Chinese words that refuse what follows them. A bare 不 only before a verb of wanting, going,
# using or consuming (不想, 不去, 不吃), or before 太 ("not too ..."): 不错, 不好, 不久 and 不会
# stay plain words.
ZH_NEGATORS = (
    "不想",
    "不要",
    "不用",
    "不需要",
    "不在",
    "不去",
    "不吃",
    "不喝",
    "不带",
    "不喜欢",
    "不爱",
    "不太",
    "不含",
    "不是",
    "别",
    "除了",
    "避开",
    "远离",
    "讨厌",
    "没有",
    "无需",
)
# The characters before 别 that make it part of a word (特别, 区别, 分别, 告别, 级别, 类别, 性别,
# 派别, 识别, 辨别), not "don't".
ZH_BIE_WORDS = "特区分告级类性派识辨"
# A negation of these asks for beginners, not against something: 不需要基础, 不用经验.
ZH_NOT_REFUSED = ("基础", "经验")
# What ends a Chinese negation: clause punctuation and the joining words after which the query
# asks for something again (不想跟人说话，但想出门; 除了火锅还有什么).
ZH_END = "，,。.！!？?；;、~～ 但就也还而只的"
MAX_ZH_CHARS = 8
# English: the negating words and every "-n't" form but can't / couldn't (ability, as 不会),
# with or without the apostrophe.
_EN_NEGATOR = re.compile(
    r"\b(?:no|not|nothing|none|never|without|avoid|avoiding|except|non"
    r"|(?!can['’]t\b|couldn['’]t\b)[a-z]+n['’]t"
    # typed without the apostrophe ("doesnt involve kids")
    r"|dont|doesnt|didnt|isnt|arent|wasnt|werent|wont|wouldnt|shouldnt)\b",
    re.IGNORECASE,
)
# A negation followed by one of these says what one has not done yet, or what a listing does
# not require ("never tried climbing", "haven't done pottery", "no experience needed", "no
# charge"): the beginners' or the free listing is what such a query wants, not a refusal.
EN_NOT_REFUSED = frozenset(
    {"tried", "done", "played", "been", "learned", "learnt", "ever", "experience", "charge", "fee"}
)
_EN_END = re.compile(r"[,.;!?]|\b(?:but|and|or|just|only|though|so|because|instead)\b", re.I)
_EN_WORD = re.compile(r"[a-z0-9'’-]+", re.IGNORECASE)
MAX_EN_WORDS = 4


def negated_spans(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) character spans of ``text`` under a negation, in order."""
    text = text or ""
    spans = []
    for negator in ZH_NEGATORS:
        start = text.find(negator)
        while start >= 0:
            before = text[max(0, start - 1) : start]
            if not (negator == "没有" and before == "有") and not (  # 有没有
                negator == "别" and before and before in ZH_BIE_WORDS  # 特别, 区别: not 别
            ):
                end = start + len(negator)
                while end < len(text) and end - start < MAX_ZH_CHARS and text[end] not in ZH_END:
                    end += 1
                if not any(word in text[start:end] for word in ZH_NOT_REFUSED):
                    spans.append((start, end))
            start = text.find(negator, start + 1)
    for match in _EN_NEGATOR.finditer(text):
        following = _EN_WORD.search(text, match.end())
        if following and following.group(0).lower() in EN_NOT_REFUSED:
            continue
        stop = _EN_END.search(text, match.end())
        limit = stop.start() if stop else len(text)
        end = match.end()
        for count, word in enumerate(_EN_WORD.finditer(text, match.end(), limit)):
            if count >= MAX_EN_WORDS:
                break
            end = word.end()
        spans.append((match.start(), end))
    return sorted(spans)


def inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Return whether ``span`` lies within one of ``spans``."""
    return any(start <= span[0] and span[1] <= end for start, end in spans)


def negated_terms(text: str, terms: list[str]) -> set[str]:
    """Return the ``terms`` of ``text`` found only under a negation (each occurrence of the
    term, case-insensitive, within a span of :func:`negated_spans`)."""
    spans = negated_spans(text)
    if not spans:
        return set()
    lowered = (text or "").lower()
    out = set()
    for term in terms:
        key = term.lower()
        starts = [m.start() for m in re.finditer(re.escape(key), lowered)]
        if starts and all(inside((s, s + len(key)), spans) for s in starts):
            out.add(term)
    return out


# A listing's own refusal of a word ("不说话的读书会", "non-alcoholic"): it does not hold it.
_ROW_NEGATION = re.compile(r"(?:不|没|无|non-?|no |not |without )$", re.IGNORECASE)


def mentions_plainly(term: str, text: str) -> bool:
    """Return whether ``text`` (a listing's words) has ``term`` other than under its own
    negation: 「静读两小时｜不说话的读书会」 does not hold 说话 for 「不想跟人说话」."""
    lowered, key = (text or "").lower(), term.lower()
    spans = negated_spans(lowered)
    for match in re.finditer(re.escape(key), lowered):
        start, end = match.span()
        if not inside((start, end), spans) and not _ROW_NEGATION.search(
            lowered[max(0, start - 8) : start]
        ):
            return True
    return False
