"""Explain each search result in one Chinese sentence.

Offline (the default) the sentence is built from what matched: query terms found in the title,
tags or description, a vibe the query asks for that the activity has, the time of day and the
distance, e.g. "你想找安静的地方，这个活动描述里提到了「安静」，周六下午，离你 2.3 公里。".
With live ``llm_match_reasons`` on and an LLM configured, one batched LLM call writes them; any
failure falls back to the offline sentence, and a failure there to :func:`default_reason`.
"""

from __future__ import annotations

import json
import logging

from activities.text import local_time, part_of_day, time_phrase
from activities.vibes import query_vibes
from rag.text import STOPWORDS, segment_query

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
    ]
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


def query_terms(query: str) -> list[str]:
    """Return the content words of a query (jieba precise mode, without stop and filler words)."""
    terms = []
    for term in segment_query(query or ""):
        if term in STOPWORDS or term in FILLER_TERMS or term in terms:
            continue
        if len(term) == 1 and not term.isascii():
            continue  # single characters (的, 去, 大) match too much to be a reason
        terms.append(term)
    return terms


def _where(term: str, activity) -> str | None:
    """Return where an activity mentions a term: 标题, 标签 or 描述."""
    if term in (activity.title or "").lower():
        return "标题"
    if any(term in str(tag).lower() for tag in (activity.tags or [])):
        return "标签"
    if term in (activity.description or "").lower():
        return "描述"
    return None


def _distance_phrase(distance_km: float | None) -> str | None:
    if distance_km is None:
        return None
    if distance_km < 1:
        return f"离你 {int(round(distance_km * 1000, -1))} 米"
    return f"离你 {distance_km:.1f} 公里"


def default_reason(activity, distance_km: float | None = None) -> str:
    """Return the fallback reason: when it starts, how far, how many places are left."""
    parts = [time_phrase(activity.start_at, activity.time_zone).replace(" ", "") + "开始"]
    distance = _distance_phrase(distance_km)
    if distance:
        parts.append(distance)
    left = activity.max_participants - activity.current_participants
    if left > 0:
        parts.append(f"还剩 {left} 个名额")
    return "，".join(parts) + "。"


def offline_reason(activity, query: str, *, distance_km=None, terms=None, vibes=None) -> str:
    """Return a specific sentence built from what matched between the query and the activity."""
    terms = query_terms(query) if terms is None else terms
    wanted = query_vibes(query) if vibes is None else vibes
    parts: list[str] = []
    shared = [v for v in wanted if v in (activity.vibes or [])]
    if shared:
        parts.append(f"你想找{VIBE_PHRASES.get(shared[0], shared[0])}")
    mentions: dict[str, list[str]] = {}
    for term in terms:
        where = _where(term, activity)
        if where:
            mentions.setdefault(where, []).append(term)
    if mentions:
        # The title is the strongest evidence, then the tags, then the description.
        where = next(w for w in ("标题", "标签", "描述") if w in mentions)
        found = mentions[where]
        quoted = "、".join(f"「{t}」" for t in found[:3])
        parts.append(f"这个活动{where}里提到了{quoted}")
    elif shared:
        parts.append(f"这个活动的氛围是「{'、'.join(activity.vibes[:2])}」")
    elif query:
        parts.append(f"内容和「{query[:20]}」意思相近")
    local = local_time(activity.start_at, activity.time_zone)
    parts.append(
        f"{time_phrase(activity.start_at, activity.time_zone).replace(' ', '')} {local:%H:%M}"
    )
    distance = _distance_phrase(distance_km)
    if distance:
        parts.append(distance)
    return "，".join(parts) + "。"


def llm_reasons(items: list[tuple], query: str) -> list[str]:
    """Ask the LLM for one reason per (activity, distance_km); raise on any problem."""
    from rag.llm import get_llm

    llm = get_llm()
    if not llm.enabled:
        raise RuntimeError("no LLM configured")
    listing = "\n".join(
        f"{i + 1}. {a.title}｜{a.type}｜{time_phrase(a.start_at, a.time_zone)}"
        f"{'' if d is None else f'｜{d:.1f}km'}｜{(a.description or '')[:80]}"
        for i, (a, d) in enumerate(items)
    )
    prompt = (
        f"用户在找：「{query}」。为下面每个活动写一句中文推荐理由（30 字以内，具体说明哪里符合），"
        f"只输出 JSON 字符串数组，顺序与编号一致。\n{listing}"
    )
    answer = llm.complete(prompt, max_tokens=80 * len(items) + 50)
    start, end = answer.find("["), answer.rfind("]")
    reasons = json.loads(answer[start : end + 1])
    if len(reasons) != len(items) or not all(isinstance(r, str) and r.strip() for r in reasons):
        raise ValueError("the LLM did not answer one reason per activity")
    return [r.strip() for r in reasons]


def match_reasons(items: list[tuple], query: str | None, *, use_llm: bool = False) -> list[str]:
    """Return one reason per (activity, distance_km), never raising."""
    if use_llm and query and items:
        try:
            return llm_reasons(items, query)
        except Exception as exc:  # noqa: BLE001 - fall back to the offline sentences
            logger.warning("LLM match reasons failed, using offline reasons: %s", exc)
    terms = query_terms(query) if query else []
    vibes = query_vibes(query) if query else []
    out = []
    for activity, distance in items:
        try:
            if query:
                out.append(
                    offline_reason(activity, query, distance_km=distance, terms=terms, vibes=vibes)
                )
            else:
                out.append(default_reason(activity, distance))
        except Exception:  # noqa: BLE001 - a reason must never break a search
            logger.exception("match reason failed for activity %s", getattr(activity, "pk", None))
            try:
                out.append(default_reason(activity, distance))
            except Exception:  # noqa: BLE001
                out.append("这个活动符合你的筛选条件。")
    return out


__all__ = ["default_reason", "match_reasons", "offline_reason", "part_of_day", "query_terms"]
