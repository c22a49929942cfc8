"""What a search query asks *not* to have, for this app's ranking (issue 30).

「不要户外的，室内玩点什么」, "exercise but no running", "something creative that doesn't
involve drawing": the negated word is a content word of the query like any other, so before
this the hybrid counted a row holding it (the outdoor walk, the 5K run, the life-drawing class)
as naming the query and put it first. ``rag.understand.negation`` reads the stretches of a query
under a negation (:func:`negated_spans`, the one grammar of refusal); the hybrid's order
(``activities.search_ranking``) then counts the words and cues there apart, with their own
fitted weight (``FUSION_WEIGHTS``), instead of as asked for.
"""

from __future__ import annotations

import re

from rag.understand.negation import inside, mentions_plainly, negated_spans, refused_phrases

__all__ = ["inside", "mentions_plainly", "negated_spans", "negated_terms", "refused_phrases"]


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
