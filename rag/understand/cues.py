"""Place cues, kind and mood cues from a caller's lexicon, the query's language, normalising."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rag.understand.negation_refused import refused_word
from rag.understand.numbers import cn_number
from rag.understand.words import NUMERAL, rx

# --- normalising ------------------------------------------------------------------------------


def normalise(text: str) -> tuple[str, list[int]]:
    """Return ``text`` NFKC-normalised and lowercased character by character, control
    characters as spaces, with the index in ``text`` of every character of the result."""
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            mapped = " "
        else:
            mapped = unicodedata.normalize("NFKC", char).lower()
        out.append(mapped)
        origin.extend([index] * len(mapped))
    return "".join(out), origin


def form_text(text: str | None) -> str:
    """Return ``text`` as the readers of a query's form match it: :func:`normalise`d, the
    typographic apostrophe as a plain one ("what’s up" and "what's up" read alike), stripped."""
    return normalise(text or "")[0].replace("’", "'").strip()


# --- place ------------------------------------------------------------------------------------

NEARBY_WORDS_ZH = ("附近", "周边", "周围", "离我近", "近一点", "家门口", "不远")
NEARBY_WORDS_EN = (
    "near me",
    "nearby",
    "near here",
    "close to me",
    "close by",
    "around here",
    "around me",
    "in my area",
    "in the neighborhood",
    "in the neighbourhood",
    "walking distance",
)
_NEARBY_RE = rx(
    "|".join(sorted(NEARBY_WORDS_ZH, key=len, reverse=True))
    + r"|\b(?:"
    + "|".join(w.replace(" ", r"\s+") for w in sorted(NEARBY_WORDS_EN, key=len, reverse=True))
    + r")\b"
)
_RADIUS_RE = rx(
    r"(?:离我|距离我|距我)?(?<![\d.])(\d{1,3}(?:\.\d{1,2})?|" + NUMERAL + r")\s*(公里|千米|km)"
    r"(?:以内|之内|范围内|内)"
    r"|\bwithin\s+(\d{1,3}(?:\.\d{1,2})?)\s*(km|kilometers?|kilometres?|miles?|mi)\b"
)
MILE_KM = 1.609344
MAX_RADIUS_KM = 500.0


@dataclass(frozen=True)
class Cue:
    """Words that named a place, a kind or a mood, with the label they map to.

    ``label`` is ``"nearby"`` for a place cue, else the lexicon's label. ``radius_km`` is set
    for a distance ("3公里内", "within 2 miles").
    """

    label: str
    text: str
    span: tuple[int, int]
    radius_km: float | None = None

    def as_dict(self) -> dict:
        """Return the cue as plain JSON data."""
        out = {"label": self.label, "phrase": self.text, "span": list(self.span)}
        if self.radius_km is not None:
            out["radiusKm"] = self.radius_km
        return out


def scan_places(text: str) -> list[tuple[int, int, float | None]]:
    """Return (start, end, radius in km or None) of the place cues in normalised ``text``."""
    found: list[tuple[int, int, float | None]] = []
    for match in _NEARBY_RE.finditer(text):
        found.append((match.start(), match.end(), None))
    for match in _RADIUS_RE.finditer(text):
        number, unit = match.group(1) or match.group(3), match.group(2) or match.group(4)
        try:
            value = float(number)
        except ValueError:
            value = cn_number(number)
        if not value or value <= 0:
            continue
        if unit.startswith("mi"):
            value *= MILE_KM
        if value <= MAX_RADIUS_KM:
            found.append((match.start(), match.end(), round(value, 3)))
    return found


# --- kind and mood ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Lexicon:
    """Words that name kinds and moods, supplied by the caller (rag knows no business words).

    ``kinds`` and ``moods`` map a label to the words that ask for it, e.g.
    ``moods={"安静": ("安静", "读书", "社恐"), ...}``; activities builds one from its vibe tables
    (``activities.vibes``). A word matches anywhere in the query, case-insensitively and after
    NFKC (so "KTV" matches "ktv"), the same rule ``activities.vibes.query_vibes`` uses.
    """

    kinds: Mapping[str, Sequence[str]] = field(default_factory=dict)
    moods: Mapping[str, Sequence[str]] = field(default_factory=dict)


@functools.lru_cache(maxsize=8192)
def _needle(word: str) -> str:
    """Return a lexicon word normalised for matching (lexicons are fixed: cached per process)."""
    return normalise(word)[0].strip()


def _first_unnegated(text: str, needle: str) -> int:
    index = text.find(needle)
    while index >= 0 and refused_word(text, index):
        index = text.find(needle, index + 1)
    return index


def match_lexicon(
    text: str, origin: list[int], original: str, table: Mapping[str, Sequence[str]]
) -> list[Cue]:
    """Return one cue per label found in normalised ``text``: its earliest (then longest) word
    that is not negated (``rag.understand.negation_refused.refused_word``: "不用跟人聊天" asks
    for no 聊天).

    Cues are ordered by where they stand in the text, then by the table's order.
    """
    cues: list[tuple[int, int, Cue]] = []
    for order, (label, words) in enumerate(table.items()):
        best: tuple[int, int] | None = None
        for word in words:
            needle = _needle(str(word))
            if not needle:
                continue
            index = _first_unnegated(text, needle)
            if index >= 0 and (best is None or (index, -len(needle)) < (best[0], -best[1])):
                best = (index, len(needle))
        if best is not None:
            start, end = origin[best[0]], origin[best[0] + best[1] - 1] + 1
            cues.append((start, order, Cue(str(label), original[start:end], (start, end))))
    cues.sort(key=lambda item: (item[0], item[1]))
    return [cue for _, _, cue in cues]


# --- keyboard noise ---------------------------------------------------------------------------

KEYBOARD_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")
_TOKEN_RE = re.compile(r"[^\W_]+")


def _keyboard_run(token: str) -> bool:
    """Return whether ``token`` is keys typed without meaning: a character repeated, or
    three or more neighbouring keys of one keyboard row in order ("qwerty", "jkl", "4321")."""
    if len(token) >= 2 and len(set(token)) == 1:
        return True
    return len(token) >= 3 and any(token in row or token in row[::-1] for row in KEYBOARD_ROWS)


def keyboard_noise(text: str) -> bool:
    """Return whether a query is only keyboard noise: it has letters or digits, no Han
    character, and every word is a repeated character or a run along a keyboard row
    ("zzzz qwerty", "asdfgh jkl"). A real word is never such a run, whatever its language, so
    no dictionary is needed and nothing with a meaning is taken for noise.
    """
    normalised = normalise(text or "")[0]
    if HAN_RE.search(normalised):
        return False
    tokens = _TOKEN_RE.findall(normalised)
    return bool(tokens) and all(_keyboard_run(token) for token in tokens)


# --- questions that ask for an answer --------------------------------------------------------

# A yes/no question about what is allowed or true: a modal verb and a closing 吗/嘛
# ("孕期可以喝咖啡吗", "猫能吃巧克力吗"), or in English a leading "can I", "is it", "should I".
_ZH_MODALS = re.compile(r"可以|可不可以|能不能|能否|能|会不会|是不是|该不该|应该|要不要|需不需要")
_ZH_CLOSING = re.compile(r"[吗嘛][\s?？!！。.~～]*$")
_EN_YES_NO = re.compile(
    r"^\s*(can|could|may|should|shall)\s+(i|we|you)\b|^\s*(is|are)\s+(it|they|there)\b"
    r"|^\s*(do|does|did)\s+(i|you|we|it)\b"
)


# Cantonese asks yes or no with the modal itself, A-not-A, and no closing 吗 (孕妇可唔可以饮
# 咖啡, 使唔使预约): general knowledge of the variety (issue 30, session 40).
_YUE_YES_NO = re.compile(r"可唔可以|得唔得|使唔使|驶唔驶|应唔应该|系唔系|要唔要|啱唔啱|能唔能")


def yes_no_question(text: str) -> bool:
    """Return whether a query is a yes/no question about what is allowed or true.

    Such a query asks for an answer ("孕期可以喝咖啡吗": may I?), not for things to do; a
    surface that finds things decides what else would make it a request (activities: a word
    such as 活动 or 去哪, a kind, a time).
    """
    normalised = normalise(text or "")[0].strip()
    if not normalised:
        return False
    if HAN_RE.search(normalised):
        return bool(
            (_ZH_CLOSING.search(normalised) and _ZH_MODALS.search(normalised))
            or _YUE_YES_NO.search(normalised)
        )
    return bool(_EN_YES_NO.search(normalised))


# A request for information or for a piece of work, not for something to find: how to do a
# thing, what a fact is, "write me ...". Question forms, not topics: written from grammar, then
# checked on the held-out dev split (bench/data/activities_heldout_queries.jsonl, dev).
# Cantonese 点 ("how": 点去, 点算, 点样) is also a clock hour (三点, 8点), "a bit" (有点, 一点,
# 早点) and the end of many words (景点, 甜点, 终点, 观点): it is read as "how" only when none of
# those characters stands right before it ("下午三点坐船" asks no route, 「有景点解说的」 no
# question). Shared by the form readers here and in rag.understand.errands.
ZH_HOW_DIAN = (
    r"(?<![0-9零〇一二两三四五六七八九十百几半整"
    r"景地甜终起重钟有差早晚快慢多焦观优缺特亮盲据糕心])点"
)
_ZH_INFO = re.compile(
    r"怎么(办|买|弄|退|续|截|查|算|处理|申请|修|治|回事)|如何(办|申请|处理|退|续)|为什么"
    r"|多少钱|是多少|什么影响|划算吗|帮我写|写一[封篇份]|翻译一下"
    # Cantonese (Guangdong, Hong Kong): 点算 / 点办 (what to do), 点样 + a verb of paperwork
    # (how to), 点解 (why; how to solve), 几多钱 (how much): general knowledge of the variety
    # (issue 30, session 40).
    rf"|{ZH_HOW_DIAN}(?:算|办|搞|解)|{ZH_HOW_DIAN}样(?:申请|办|整|搞|攞|退|续|查|计|算|先)"
    r"|几多钱|系几多"
)
_EN_INFO = re.compile(
    r"^\s*(how\s+(do|can|should)\s+i|how\s+to|how\s+much|how\s+many|why\s+(is|are|do|does))\b"
    r"|^\s*(what\s+(is|are)\s+the|write\s+me|convert|translate)\b"
    r"|\b(exchange|tax|interest)\s+rates?\b|\bsymptoms?\s+of\b"
)


def information_request(text: str) -> bool:
    """Return whether a query asks for information or a piece of work ("空调漏水怎么办",
    "how do I renew my passport", "write me a cover letter") rather than for something to find.
    A surface decides what else makes it a request for its things (activities: 活动, a kind).
    """
    normalised = normalise(text or "")[0].strip()
    if not normalised:
        return False
    if HAN_RE.search(normalised):
        return bool(_ZH_INFO.search(normalised))
    return bool(_EN_INFO.search(normalised))


# --- language ---------------------------------------------------------------------------------

HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD_RE = re.compile(r"[a-z]+")


def language(normalised: str) -> str:
    """Return "zh", "en", "mixed" or "und" (no letters) for a normalised query.

    Chinese when it has Han characters and at most one Latin word per four of them (or one:
    "周末去livehouse" is Chinese); English when it has Latin words and no Han; else mixed.
    """
    han = len(HAN_RE.findall(normalised))
    latin = len(_LATIN_WORD_RE.findall(normalised))
    if han and latin <= max(1, han // 4):
        return "zh"
    if latin and not han:
        return "en"
    if han and latin:
        return "mixed"
    return "und"
