"""Whether a listing names a word of the query that few listings hold (issue 30, session 50).

The intent gate (``rag.intent``) reads a query by its words alone, against example requests; a
request in words those examples do not know (dialect, slang, a rare hobby: "hairy coos",
"ceilidh wi a caller") can read closer to the requests for something else. The listings are
evidence the examples are not: a word of the query held verbatim by the closest listing's own
words (title, tags, type) and by few listings of the whole catalogue is a thing the catalogue
offers, not a passing word. A word many listings hold (the city's name, "winter") says nothing
of the kind. ``rag.relevance.decide`` (``named_rare``) reads the answer beside how far that
listing stands out of the query's candidates. Business-agnostic in the rule; the catalogue's
own words are the activities'.
"""

from __future__ import annotations

from django.db.models import Count, Q

from activities.models import Activity
from activities.negation import negated_terms
from activities.reasons import query_terms
from activities.search_ranking import own_text
from rag.text import words_holding

# A word held by at most this share of the catalogue's listings is rare. Not constrained by the
# development data: leaving one of the twenty-one sets out, every rotation tied shares from 0.03
# to 1.0 (the standout and the learned gate decided); the middle of the tied values over all of
# them (docs/RELEVANCE.md, "Requests in words the gate does not know", session 50). On the
# corpora of ~100 listings, ten or fewer listings: never a city's name in its own catalogue.
RARE_SHARE = 0.1


def names_rare_word(*, query: str, activity) -> bool:
    """Return whether ``activity`` holds a content word of ``query`` (not one it refuses) that
    at most :data:`RARE_SHARE` of all listings hold (a case-blind substring count, so a word
    inside a longer one counts against its rarity)."""
    terms = query_terms(query)
    refused = negated_terms(query, terms)
    held = words_holding(own_text(activity), [t for t in terms if t not in refused])
    if not held:
        return False
    # One statement: the catalogue's size and how many listings hold each word.
    counts = Activity.objects.aggregate(
        total=Count("pk"),
        **{
            f"held_{i}": Count(
                "pk",
                filter=Q(title__icontains=term) | Q(tags__icontains=term) | Q(type__icontains=term),
            )
            for i, term in enumerate(held)
        },
    )
    return any(counts[f"held_{i}"] <= RARE_SHARE * counts["total"] for i in range(len(held)))
