"""What a listing refuses of its own: the one reader of a listing's refusals (issue 33).

A listing is written to sell, not to refuse: "Don't miss our jazz night", 「别错过周末爵士之夜」,
「除了陶艺还有木工」, "Can't start the day without coffee" all name what they offer. So a listing's
refusal is read narrowly, not with the query's grammar (``rag.understand.negation``, whose
imperatives, exclusions and reach of a clause would hide jazz, 爵士, 陶艺 and coffee): a word is
refused only when a plain refusal stands right before it, with at most the verbs of having,
needing or taking between ("no phones", "non-alcoholic", "not suitable for kids", "doesn't
include alcohol", 「不辣」, 「不说话」, 「不含酒精」, 「谢绝宠物」, 「请勿吸烟」), or when "-free"
follows it ("alcohol-free"). "without" is no refusal after a negation in its clause ("can't
start the day without coffee": the two negations affirm). The query reader's exceptions hold
for listings too: "no experience needed", 「不限经验」, 「无需经验」 hold experience
(:data:`~rag.understand.negation.EN_NOT_REFUSED`, :data:`~rag.understand.negation.ZH_NOT_REFUSED`).
Grammar of both languages, general knowledge (audit, session 41).
"""

from __future__ import annotations

import re

from rag.understand.negation import EN_NOT_FREE, EN_NOT_REFUSED, ZH_NEGATORS, ZH_NOT_REFUSED

# A word that is itself a plain refusal (「不吃辣」, 「不用」, 不; a query's word under its own
# negation, not 不错): where a listing has it, the listing refuses as the query does.
_ZH_REFUSING = tuple(word for word in ZH_NEGATORS if word[0] in "不没无")

# A Chinese refusal right before the word: a negator, then at most two verbs of having,
# needing, taking, consuming or allowing (不吃辣, 无需带装备, 不能带宠物). Not 别 nor 不要 before
# another verb (别错过, 不要错过: "don't miss"), not 除了 ("besides"), not 不限 ("no limit on").
_ZH_REFUSED_BEFORE = re.compile(
    r"(?:不|没有?|无|谢绝|禁止|拒绝|勿)"
    r"(?:含|带|需要?|用|要|想|吃|喝|提供|供应|设|接待|收|适合|允许|能|可以?|任何){0,2}$"
)
# An English refusal right before the word: "no", "non-", "not", "without", "free of", the
# negated verbs of including or allowing, "not suitable for"; an article or "any" between.
_EN_REFUSED_BEFORE = re.compile(
    r"\b(?:no|non-?|not|without|free\s+of"
    r"|(?:do|does|did|is|are|will|wo|ca)(?:n['’]?t|\s+not)\s+(?:include|involve|serve|allow"
    r"|permit|require|need|contain|provide|offer|use)s?"
    r"|not\s+(?:suitable|recommended|open|meant|intended|allowed)(?:\s+(?:for|to))?)"
    r"(?:\s+(?:a|an|the|any))?\s*$",
    re.IGNORECASE,
)
_EN_FREE_AFTER = re.compile(r"[- ]free\b", re.IGNORECASE)
# A negation in the clause before "without" makes it affirm ("can't ... without coffee").
_EN_NEGATED_CLAUSE = re.compile(r"\b(?:not|never|cannot|no\s+one|nobody|[a-z]+n['’]?t)\b", re.I)
_CLAUSE_END = re.compile(r"[,.;:!?，。；：！？\n]")
# How far before a word its refusal may start (the longest form above, with an article).
_REACH = 40


def mentions_plainly(term: str, text: str) -> bool:
    """Return whether ``text`` (a listing's words) holds ``term`` other than under its own
    refusal (see the module): 「不说话的读书会」 does not hold 说话, nor the tag 「不辣」 辣;
    "Don't miss our jazz night" holds jazz; "no experience needed" holds experience, as a
    query's "no experience" refuses nothing. The one reader of a listing's refusals, for the
    search's order and for the reasons (issue 33)."""
    lowered, key = (text or "").lower(), (term or "").lower()
    if not key:
        return False
    exempt = key in EN_NOT_REFUSED or any(word in key for word in ZH_NOT_REFUSED)
    if not exempt and (key in ("不", "没", "无") or key.startswith(_ZH_REFUSING)):
        return False
    for match in re.finditer(re.escape(key), lowered):
        if exempt or not _refused_here(lowered, key, *match.span()):
            return True
    return False


def _refused_here(text: str, key: str, start: int, end: int) -> bool:
    """Return whether the mention of ``key`` at ``start``..``end`` of ``text`` is refused."""
    if _ZH_REFUSED_BEFORE.search(text, max(0, start - 6), start):
        return True
    if _EN_FREE_AFTER.match(text, end) and key not in EN_NOT_FREE:
        return True
    refusal = _EN_REFUSED_BEFORE.search(text, max(0, start - _REACH), start)
    if refusal is None:
        return False
    if refusal.group(0).lower().startswith("without"):
        clause = _CLAUSE_END.split(text[: refusal.start()])[-1]
        return not _EN_NEGATED_CLAUSE.search(clause)
    return True
