"""Which language a query and its candidate listings are in, as the activity search reads it.

A query over listings in the other language (a Chinese query over an English city, an English
query over a Chinese one) cannot share a word with them, and the kind and mood cues it reads are
those of its own language's lexicon. The precision gate (``activities.search_ranker``) and the
hybrid's order (``activities.search_ranking.hybrid_scores``) read these flags to weigh that
evidence apart (docs/RELEVANCE.md, "Cross-lingual kinds" and "Across two languages, against the
bare order").
"""

from __future__ import annotations


def han(text: str) -> bool:
    """Return whether ``text`` holds a Han character."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def other_script(query: str, titles: list[str]) -> bool:
    """Return whether ``query`` is Chinese and most of ``titles`` are not."""
    if not query or not titles or not han(query):
        return False
    return 2 * sum(han(t) for t in titles) < len(titles)


def chinese_listings(english: bool, titles: list[str]) -> bool:
    """Return whether a query read as English (``english``) is over listings most of whose
    ``titles`` are Chinese (the mirror of :func:`other_script`)."""
    return english and 2 * sum(han(t) for t in titles) > len(titles)
