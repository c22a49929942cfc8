"""Explain each search result in one sentence, in the language of the query, with true facts.

Offline (the default) the sentence names only what actually matched between the query and the
activity, read from the activity's own fields:

- the time: inside the window of the query's time phrase ("在你说的「周五晚上」：周五晚上 21:00
  开始"), or, when the search ranked by time because nothing fell inside, that nothing fits and
  when this one is ("「周五晚上」没有合适的，这个在周六晚上 20:00"); without a phrase, the
  activity's own time;
- a vibe the query asks for that the activity has, and the query's content words (without the
  time phrase, place cue, stop and filler words) found in its title, tags or description;
- an activity type the query names, the distance (and that it is "nearby" when the query asked);
- on the three-or-fewer path (nothing was compared), that these are all that pass the filters;
  only a ranked result with nothing else to show is "close in meaning" to the query, quoted
  whole or cut between words.

An English query gets English sentences. With live ``llm_match_reasons`` on and an LLM
configured, one batched LLM call writes them (in the query's language); any failure falls back
to the offline sentence, and a failure there to :func:`default_reason`.
"""

from __future__ import annotations

import json
import logging
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from activities.cues_en import EN_KIND_WORDS
from activities.text import WEEKDAYS, local_time, part_of_day, time_phrase
from activities.vibes import query_vibes
from rag.llm import get_llm
from rag.text import STOPWORDS, cut_as_written, segment_query
from rag.understand.listing_negation import mentions_plainly
from rag.understand.whats_on import whats_on_at

logger = logging.getLogger(__name__)

# Query words that say nothing about the activity itself.
FILLER_TERMS = frozenset(
    [
        "想",
        "要",
        "找",
        "去",
        "玩",
        "一下",
        "一起",
        "一点",
        "活动",
        "地方",
        "适合",
        "可以",
        "能",
        "有",
        "有关",
        "参加",
        "周末",
        "附近",
        "哪",
        "哪儿",
        "点",
        # English
        "want",
        "find",
        "looking",
        "something",
        "anything",
        "things",
        "activity",
        "activities",
        "event",
        "events",
        "place",
        "places",
        "near",
        "nearby",
        "with",
        "for",
        "some",
        "good",
        "fun",
    ]
)
# Single characters that are a reason on their own (a taste, a food): "想吃辣的" -> 辣.
SINGLE_CHAR_TERMS = frozenset("辣甜酸咸鲜茶酒猫狗鱼书画球琴歌舞")
# Words that name a day or a part of it: the time part of a reason speaks about time, a term
# never does (a title saying 周五 is no reason for a Saturday activity).
_TIME_WORD_RE = re.compile(
    r"^(?:周|星期|礼拜)[一二三四五六日天末]|^(?:今|明|昨|后)[天晚早]|^(?:早上|上午|中午|下午|傍晚|"
    r"晚上|夜里|深夜|凌晨|今晚)$|^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"weekend|tonight|today|tomorrow|morning|afternoon|evening|night)s?$",
    re.IGNORECASE,
)
VIBE_PHRASES = {
    "安静": "安静的地方",
    "热闹": "热闹的地方",
    "小局": "人少的小局",
    "玩水": "玩水的活动",
    "亲子": "能带孩子的活动",
    "运动": "运动的活动",
    "户外": "户外的活动",
    "商务": "认识同行的场合",
    "文艺": "文艺一点的活动",
    "美食": "好吃的",
    "社交": "认识新朋友的活动",
}
VIBE_PHRASES_EN = {
    "安静": "somewhere quiet",
    "热闹": "somewhere lively",
    "小局": "a small group",
    "玩水": "something on the water",
    "亲子": "something for kids",
    "运动": "something sporty",
    "户外": "something outdoors",
    "商务": "people in your field",
    "文艺": "something artsy",
    "美食": "good food",
    "社交": "meeting new people",
}
VIBE_NAMES_EN = {
    "安静": "quiet",
    "热闹": "lively",
    "小局": "small group",
    "玩水": "water",
    "亲子": "family",
    "运动": "sporty",
    "户外": "outdoors",
    "商务": "business",
    "文艺": "arts",
    "美食": "food",
    "社交": "social",
}


def type_name_en(kind: str) -> str:
    """Return an activity type in English: a Chinese type by its English name (音乐: music),
    any other as stored (an English reason quoted 「音乐」; a make-run look, session 50)."""
    if kind.isascii():
        return kind
    return VIBE_NAMES_EN.get(kind) or EN_KIND_WORDS.get(kind, (kind,))[0]


WEEKDAYS_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
PARTS_EN = {"早上": "morning", "下午": "afternoon", "晚上": "evening", "深夜": "late night"}
WHERE_EN = {"标题": "title", "标签": "tags", "描述": "description"}
# Characters past the excerpt's limit segmented to find its last word boundary.
EXCERPT_LOOKAHEAD = 16
EXCERPT_CHARS = 20


@dataclass(frozen=True)
class ReasonContext:
    """What the search knows when it explains its results.

    ``understood`` is an ``activities.understanding.QueryUnderstanding`` (or None);
    ``small`` says the results were not compared (the three-or-fewer path), ``total`` how many
    passed the filters then; ``ranked`` that results were ranked by meaning.
    """

    query: str = ""
    understood: object | None = None
    small: bool = False
    total: int = 0
    ranked: bool = False

    @property
    def english(self) -> bool:
        """Return whether to answer in English."""
        return bool(self.understood is not None and self.understood.english)

    @property
    def rest(self) -> str:
        """Return the query without the time phrase and place cue."""
        return self.understood.rest if self.understood is not None else self.query


def _time_word(term: str) -> bool:
    return bool(_TIME_WORD_RE.search(term))


def query_terms(query: str) -> list[str]:
    """Return the content words of a query (jieba precise mode, without stop, filler and time
    words; a single Han character only when it means something alone, such as 辣)."""
    query = query or ""
    memo = _search_terms.get()
    if memo is None:
        return list(_query_terms(query))
    if query not in memo:
        memo[query] = _query_terms(query)
    return list(memo[query])


# One search asks for the words of its query four times (the relevance cut's evidence, the
# pool's lexical matches, the hybrid's full-text rank, the reasons): inside
# :func:`one_search` they are segmented once. Remembered for that search only: a query text is
# kept nowhere after it (docs/ARCHITECTURE.md, "Erasure").
_search_terms: ContextVar[dict[str, tuple[str, ...]] | None] = ContextVar(
    "search_terms", default=None
)


@contextmanager
def one_search():
    """Segment each query text once within the block (:func:`query_terms`)."""
    token = _search_terms.set({})
    try:
        yield
    finally:
        _search_terms.reset(token)


def _query_terms(query: str) -> tuple[str, ...]:
    terms = []
    for term in segment_query(query):
        if term in STOPWORDS or term in FILLER_TERMS or term in terms or _time_word(term):
            continue
        if len(term) == 1 and not term.isascii() and term not in SINGLE_CHAR_TERMS:
            continue  # single characters (的, 去, 大) match too much to be a reason
        if len(term) == 1 and term.isascii():
            continue
        terms.append(term)
    return tuple(terms)


def _where(term: str, activity) -> str | None:
    """Return where an activity mentions a term: 标题, 标签 or 描述."""
    if mentions_plainly(term, activity.title):
        return "标题"
    if any(mentions_plainly(term, str(tag)) for tag in (activity.tags or [])):
        return "标签"
    if mentions_plainly(term, activity.description):
        return "描述"
    return None


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """Return ``text`` whole when short, else cut between words (jieba) with "…"."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    out = ""
    # Only the words before the limit matter: segmenting a little past it finds the last
    # boundary as segmenting the whole text would, without the cost of a long description.
    for piece in cut_as_written(text[: limit + EXCERPT_LOOKAHEAD]):
        if len(out) + len(piece) > limit:
            break
        out += piece
    out = out.rstrip(" ,，、.。;；:：")
    return (out or text[:limit]) + "…"


def _distance_phrase(distance_km: float | None, *, english: bool = False) -> str | None:
    if distance_km is None:
        return None
    if english:
        if distance_km < 1:
            return f"{int(round(distance_km * 1000, -1))} m from you"
        return f"{distance_km:.1f} km from you"
    if distance_km < 1:
        return f"离你 {int(round(distance_km * 1000, -1))} 米"
    return f"离你 {distance_km:.1f} 公里"


def _when(activity, *, english: bool) -> str:
    """Return the activity's own start: "周六晚上 21:00" / "Sat 21:00 (evening)"."""
    local = local_time(activity.start_at, activity.time_zone)
    if english:
        part = PARTS_EN[part_of_day(local.hour)]
        return f"{WEEKDAYS_EN[local.weekday()]} {local:%H:%M} ({part})"
    return f"{WEEKDAYS[local.weekday()]}{part_of_day(local.hour)} {local:%H:%M}"


def default_reason(activity, distance_km: float | None = None, *, english: bool = False) -> str:
    """Return the fallback reason: when it starts, how far, how many places are left."""
    left = activity.max_participants - activity.current_participants
    distance = _distance_phrase(distance_km, english=english)
    if english:
        parts = [f"Starts {_when(activity, english=True)}"]
        if distance:
            parts.append(distance)
        if left > 0:
            parts.append(f"{left} place{'s' if left != 1 else ''} left")
        return ", ".join(parts) + "."
    parts = [time_phrase(activity.start_at, activity.time_zone).replace(" ", "") + "开始"]
    if distance:
        parts.append(distance)
    if left > 0:
        parts.append(f"还剩 {left} 个名额")
    return "，".join(parts) + "。"


def _time_part(activity, context: ReasonContext) -> str:
    english = context.english
    when = _when(activity, english=english)
    plan = getattr(context.understood, "time", None)
    if plan is None or plan.applied == "none" or not plan.phrase:
        return when
    if not plan.contains(activity.start_at):
        return outside_note(activity, plan.phrase, english=english)
    if english:
        return f'starts {when}, as asked ("{plan.phrase}")'
    return f"在你说的「{plan.phrase}」：{when} 开始"


def outside_note(activity, phrase: str, *, english: bool) -> str:
    """Return the words that mark a result starting outside the query's time window: nothing
    fits the window, this one is the closest (activities.search_window.mark_outside makes sure
    every such result carries them, whichever path found it and whoever wrote its reason)."""
    # With its date: outside the window the weekday alone reads as the one asked ("「周六」没有
    # 合适的，这个在周六早上" for the Saturday after; a make-run look, session 50).
    local = local_time(activity.start_at, activity.time_zone)
    when = _when(activity, english=english)
    if english:
        day, rest = when.split(" ", 1)
        month = MONTHS_EN[local.month - 1]
        return f'nothing fits "{phrase}"; this one starts {day} {local.day} {month} {rest}'
    return f"「{phrase}」没有合适的，这个在{local.month}月{local.day}日{when}"


def _place_part(distance_km, context: ReasonContext) -> str | None:
    english = context.english
    distance = _distance_phrase(distance_km, english=english)
    place = getattr(context.understood, "place", None)
    if distance and place is not None and place.applied in ("radius", "location"):
        return f"nearby, {distance}" if english else f"在你附近，{distance}"
    return distance


def offline_reason(
    activity,
    query: str | None = None,
    *,
    distance_km=None,
    terms=None,
    vibes=None,
    context: ReasonContext | None = None,
) -> str:
    """Return a sentence built from what matched between the query and the activity."""
    context = context or ReasonContext(query=query or "", ranked=True)
    english = context.english
    terms = query_terms(context.rest) if terms is None else terms
    if vibes is None:
        understood = context.understood
        vibes = understood.mood_labels() if understood is not None else query_vibes(context.rest)
    parts: list[str] = []
    if context.small:
        n = context.total
        if english:
            parts.append(
                "the only activity that passes your filters"
                if n == 1
                else f"one of the only {n} activities that pass your filters"
            )
        else:
            parts.append(f"符合筛选条件的只有这 {n} 个")
    shared = [v for v in vibes if v in (activity.vibes or [])]
    if shared:
        vibe = shared[0]
        if english:
            parts.append(f"you asked for {VIBE_PHRASES_EN.get(vibe, vibe)}")
        else:
            parts.append(f"你想找{VIBE_PHRASES.get(vibe, vibe)}")
    mentions: dict[str, list[str]] = {}
    for term in terms:
        where = _where(term, activity)
        if where:
            mentions.setdefault(where, []).append(term)
    kinds = [c.label for c in getattr(context.understood, "kinds", ())]
    if mentions:
        # The title is the strongest evidence, then the tags, then the description.
        where = next(w for w in ("标题", "标签", "描述") if w in mentions)
        found = mentions[where][:3]
        if english:
            quoted = ", ".join(f'"{t}"' for t in found)
            parts.append(f"its {WHERE_EN[where]} mentions {quoted}")
        else:
            quoted = "、".join(f"「{t}」" for t in found)
            parts.append(f"这个活动{where}里提到了{quoted}")
    elif activity.type in kinds:
        parts.append(
            f'its type is "{type_name_en(activity.type)}"'
            if english
            else f"类型正是「{activity.type}」"
        )
    elif shared:
        if english:
            labels = ", ".join(VIBE_NAMES_EN.get(v, v) for v in activity.vibes[:2])
            parts.append(f"its vibe: {labels}")
        else:
            parts.append(f"这个活动的氛围是「{'、'.join(activity.vibes[:2])}」")
    elif (
        context.ranked
        and context.rest
        and not whats_on_at(getattr(context.understood, "found", None))
    ):
        # 「下周有什么好玩的」 asks what is on: its asking words are no topic to be close to.
        snippet = excerpt(context.rest)
        if english:
            parts.append(f'close in meaning to "{snippet}"')
        else:
            parts.append(f"内容和「{snippet}」意思相近")
    parts.append(_time_part(activity, context))
    place = _place_part(distance_km, context)
    if place:
        parts.append(place)
    if english:
        sentence = ", ".join(parts)
        return sentence[0].upper() + sentence[1:] + "."
    return "，".join(parts) + "。"


def llm_reasons(items: list[tuple], query: str, *, english: bool = False) -> list[str]:
    """Ask the LLM for one reason per (activity, distance_km); raise on any problem."""
    llm = get_llm()
    if not llm.enabled:
        raise RuntimeError("no LLM configured")
    listing = "\n".join(
        f"{i + 1}. {a.title}｜{a.type}｜{time_phrase(a.start_at, a.time_zone)}"
        f"{'' if d is None else f'｜{d:.1f}km'}｜{(a.description or '')[:80]}"
        for i, (a, d) in enumerate(items)
    )
    if english:
        prompt = (
            f'The user is looking for: "{query}". For each activity below write one English '
            "reason (at most 25 words, saying specifically what fits and never contradicting "
            "its time). Output only a JSON array of strings in the same order.\n" + listing
        )
    else:
        prompt = (
            f"用户在找：「{query}」。为下面每个活动写一句中文推荐理由（30 字以内，"
            "具体说明哪里符合，不要与活动时间矛盾），只输出 JSON 字符串数组，顺序与编号一致。\n"
            + listing
        )
    answer = llm.complete(prompt, max_tokens=80 * len(items) + 50)
    start, end = answer.find("["), answer.rfind("]")
    reasons = json.loads(answer[start : end + 1])
    if len(reasons) != len(items) or not all(isinstance(r, str) and r.strip() for r in reasons):
        raise ValueError("the LLM did not answer one reason per activity")
    return [r.strip() for r in reasons]


def match_reasons(
    items: list[tuple],
    query: str | None,
    *,
    use_llm: bool = False,
    context: ReasonContext | None = None,
) -> list[str]:
    """Return one reason per (activity, distance_km), never raising."""
    context = context or ReasonContext(query=query or "", ranked=bool(query))
    english = context.english
    if use_llm and query and items:
        try:
            return llm_reasons(items, query, english=english)
        except Exception as exc:  # noqa: BLE001 - fall back to the offline sentences
            logger.warning("LLM match reasons failed, using offline reasons: %s", exc)
    explain = bool(query) or context.small
    terms = query_terms(context.rest) if query else []
    out = []
    for activity, distance in items:
        try:
            if explain:
                reason = offline_reason(
                    activity, query, distance_km=distance, terms=terms, context=context
                )
                out.append(reason)
            else:
                out.append(default_reason(activity, distance, english=english))
        except Exception:  # noqa: BLE001 - a reason must never break a search
            logger.exception("match reason failed for activity %s", getattr(activity, "pk", None))
            try:
                out.append(default_reason(activity, distance, english=english))
            except Exception:  # noqa: BLE001
                out.append(
                    "This activity passes your filters."
                    if english
                    else "这个活动符合你的筛选条件。"
                )
    return out


__all__ = [
    "ReasonContext",
    "default_reason",
    "excerpt",
    "match_reasons",
    "offline_reason",
    "one_search",
    "outside_note",
    "part_of_day",
    "query_terms",
]
