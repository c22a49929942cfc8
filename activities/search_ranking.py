"""What the activity search reads of a query in the rows: its words and cues, and ranks by them.

A row *names* the query when one of the query's content words is in its title, tags, type or
vibes (jieba, :func:`lexical_ranking`) or one of its kind or mood cues is its type or a vibe
(:func:`cue_ranking`). The few rows of the small path are ordered by it (:func:`evidence_order`),
and the hybrid fuses both ranks with the dense one (:func:`hybrid_scores`).
"""

from __future__ import annotations

from activities.reasons import query_terms
from rag.search import rrf
from rag.text import held_terms, rank_held


def lexical_text(activity) -> str:
    """Return the fields the hybrid's full text reads: title, tags, type and vibes."""
    tags = " ".join(str(t) for t in activity.tags or [])
    vibes = " ".join(str(v) for v in activity.vibes or [])
    return f"{activity.title} {tags} {activity.type} {vibes}"


def naming_pks(query: str, activities: list, understood, *, held=None) -> set:
    """Return the pks of the activities naming something of the query: one of its words in a
    title, tag, type or vibe (jieba, as the hybrid reads them), or a kind or mood cue of it
    in a type or the vibes."""
    if not activities:
        return set()
    lexical = lexical_ranking(query, activities, held=held)
    return set(cue_ranking(activities, understood)) | set(lexical)


def query_evidence(query: str, activities: list, understood) -> bool:
    """Return whether the query names something the activities have (:func:`naming_pks`)."""
    return bool(naming_pks(query, activities, understood))


def evidence_order(rows: list, query: str, understood) -> list:
    """Return ``rows`` (the few that pass the filters) with those the query names first.

    The three-or-fewer path calls no provider: what orders them is what the query names, its
    words in title, tags, type and vibes and its kind and mood cues (RRF of the two lists);
    rows naming nothing keep their given order, after the others.
    """
    if not query or len(rows) < 2:
        return rows
    lexical = lexical_ranking(query, rows)
    fused = {f.key: f.score for f in rrf([lexical, cue_ranking(rows, understood)], k=1)}
    return [a for _, a in sorted(enumerate(rows), key=lambda p: (-fused.get(p[1].pk, 0.0), p[0]))]


def cue_ranking(activities: list, understood) -> list:
    """Return the pks of the activities having a kind or mood the query asks for, most first.

    Kinds match the activity's type, moods its vibes (the vibe lexicon, ``understood``); ties
    keep the dense order. A hit matching none is left out (RRF gives it nothing from this list).
    """
    if understood is None:
        return []
    kinds = {c.label for c in understood.kinds}
    moods = set(understood.mood_labels())
    if not kinds and not moods:
        return []
    scored = []
    for order, activity in enumerate(activities):
        matched = (activity.type in kinds) + len(moods & set(activity.vibes or ()))
        if matched:
            scored.append((-matched, order, activity.pk))
    return [pk for _, _, pk in sorted(scored)]


def lexical_ranking(query: str, activities: list, *, held=None) -> list:
    """Return the pks of the activities whose title, tags, type or vibes hold a content word of
    the query, best first (as ``rag.text.term_ranking`` ranks them). Content words are those a
    reason may name (``activities.reasons.query_terms``): no stop, filler or time words, and no
    single Han character that means little alone (做 in 做公益 would match 做一个卡包).

    ``held``: :func:`lexical_held` of the same query over these activities (or more), so that
    ranking a second pool of the same candidates segments nothing again; None finds them here.
    """
    terms = query_terms(query)
    if not terms:
        return []
    if held is None:
        held = held_terms({a.pk: lexical_text(a) for a in activities}, terms)
    return rank_held({a.pk: held[a.pk] for a in activities}, terms)


def lexical_held(query: str, activities: list) -> dict:
    """Return ``{pk: the query's content words in its title, tags, type or vibes}`` for
    :func:`lexical_ranking` of any of these activities (empty when the query has none)."""
    terms = query_terms(query)
    if not terms:
        return {}
    return held_terms({a.pk: lexical_text(a) for a in activities}, terms)


def hybrid_scores(hits: list, query: str, *, fusion_k: int, understood=None, held=None) -> dict:
    """Return {pk: RRF score} of the dense rank, a jieba full-text rank and the cue rank.

    The full text (rag.text.term_ranking) reads title, tags, type and vibes of the candidates
    only; the cue rank (:func:`cue_ranking`) puts first the hits of a kind or mood the query
    asks for. Both re-order what passed the filters and the relevance cut, never add a row.
    ``held``: :func:`lexical_held` of the hits (or of the pool they were cut from).
    """
    dense = [hit.obj.pk for hit in hits]
    activities = [hit.obj for hit in hits]
    lexical = lexical_ranking(query, activities, held=held)
    cues = cue_ranking(activities, understood)
    return {f.key: f.score for f in rrf([dense, lexical, cues], k=fusion_k)}
