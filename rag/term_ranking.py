"""Rank a small pool of texts by the query words each holds (issue 11's in-memory full text).

The words are found as ``rag.text`` segments them (search mode for the texts, precise mode for
the query); a word every text shares counts little.
"""

from __future__ import annotations

import math

from rag.text import STOPWORDS, segment_query, words_holding


def term_ranking(query: str, documents: dict, *, terms: list[str] | None = None) -> list:
    """Return the keys of ``documents`` ({key: text}) sharing a query word, best first.

    A small in-memory full text for a candidate pool (rel, issue 11): the query in jieba precise
    mode without stopwords, each document in search mode; a document scores the sum of
    ``log(1 + n / df)`` over the query words it contains (n documents, df of them with the
    word), so a word every candidate shares counts little. Ties keep the input order. A caller
    that knows better which words carry content passes them as ``terms``.
    """
    if terms is None:
        terms = [t for t in dict.fromkeys(segment_query(query)) if t not in STOPWORDS]
    if not terms or not documents:
        return []
    return rank_held(held_terms(documents, terms), terms)


def held_terms(documents: dict, terms: list[str]) -> dict:
    """Return ``{key: the terms that are words of its text}`` for ``documents`` ({key: text}).

    What :func:`term_ranking` reads of each document; a caller ranking several pools of the
    same documents for the same terms finds them once and ranks each pool by :func:`rank_held`.
    """
    # A word of a document's segmentation is a substring of its prepared text: a document
    # holding none of the terms as a substring holds none as a word, so it is not segmented.
    return {key: words_holding(text, terms) for key, text in documents.items()}


def rank_held(words: dict, terms: list[str]) -> list:
    """Return the keys of ``words`` ({key: terms held}, :func:`held_terms`) holding a term,
    best first, scored as :func:`term_ranking` scores them (document frequency over ``words``)."""
    n = len(words)
    df = {t: sum(t in w for w in words.values()) for t in terms}
    scored = []
    for order, (key, found) in enumerate(words.items()):
        score = sum(math.log(1 + n / df[t]) for t in terms if t in found)
        if score > 0:
            scored.append((-score, order, key))
    return [key for _, _, key in sorted(scored)]
