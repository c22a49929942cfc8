"""Asking to learn or practise something: a request for something to do, whatever it names.

"want to brush up on my cupla focal", 「想练练口语」: the form says the person wants to learn,
practise or take up a thing, which is what classes, clubs and meet-ups are for. A word the model
does not know (an Irish phrase, a misspelling) moves such a query's meaning towards the example
requests for something else (rag.intent), and the intent gate emptied it; the form is read
here instead, so the intent gate leaves it to the margin gates. A request for information
("how do I learn to drive faster for my test", 「怎么学会报税」) is not such a request:
``rag.understand.information_request`` reads it first.

Written from general knowledge of how people say they want to learn or practise, in Chinese
and English (issue 30, session 39), after the fresh7 query above (development data) was seen;
no word of it but "brush up" is in the grammar. Business-agnostic.
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

_EN_LEARN = re.compile(
    r"\b(?:want|wanna|would\s+like|'d\s+like|like|looking|hoping|keen|trying|eager|plan(?:ning)?)"
    r"\s+(?:to\s+)?(?:learn|brush\s+up|practi[cs]e|improve|pick\s+up|take\s+up|get\s+into|"
    r"get\s+back\s+into|get\s+better\s+at|start|try\s+out|have\s+a\s+go\s+at)\b"
    r"|^\s*(?:learn(?:ing)?|brush(?:ing)?\s+up\s+on|practi[cs](?:e|ing)|take\s+up|get\s+into)\b"
)
_ZH_LEARN = re.compile(r"想(?:要)?(?:学|练|提高|提升|入门|试试|尝试|体验|重拾|捡起)|^(?:学|练)")


def learning_request(text: str) -> bool:
    """Return whether the query says the person wants to learn, practise or take up something
    ("want to brush up on my Spanish", 「想学吉他」)."""
    normalised = form_text(text)
    if not normalised:
        return False
    return bool(_EN_LEARN.search(normalised) or _ZH_LEARN.search(normalised))
