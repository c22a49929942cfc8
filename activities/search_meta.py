"""The search's own reasons (why nothing fits, how the time window applied) in a person's language.

The relevance cut (``rag.relevance``) and the time reader write them in English, as data; the
catalog below lets the API and the staff playground show them translated.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# The reasons the search writes (activities.understanding, rag.relevance): listed here so that
# makemessages finds them; shown translated, or as written when a reason is new.
SEARCH_REASONS = (
    gettext_noop("activities start in the window"),
    gettext_noop("no row passes the filters"),
    gettext_noop("no activity starts in the window: ranked by closeness to it"),
    gettext_noop("the window is outside timeRange: ranked by closeness to it"),
    gettext_noop(
        "Nothing fits: the query is no closer to any candidate than to unrelated everyday text."
    ),
    gettext_noop(
        "Nothing fits: no word of the query appears in any candidate, and the query is hardly "
        "closer to them than to unrelated everyday text."
    ),
    gettext_noop("Nothing fits: the query has no words, only repeated or neighbouring keys."),
    gettext_noop(
        "Nothing fits: the query asks for an answer or a piece of work, not for something to "
        "find here."
    ),
    gettext_noop(
        "Nothing fits: the query reads like a request for something else (weather, money, "
        "health, paperwork...), not for something to find here."
    ),
    gettext_noop("Nothing fits: nobody here lists the kind of activity asked for by name."),
)


def said(text):
    """Return a reason of the search in the active language (as written when unknown)."""
    return _(text) if text else text


def in_query_language(meta: dict) -> dict:
    """Return ``meta`` with its reasons in the query's language (zh or en; else the request's).

    A Chinese query is answered in Chinese whatever the client's Accept-Language, as the
    per-result reasons already are (issue 32: reasons follow the query's own language).
    """
    understood = meta.get("understood") or {}
    language = {"zh": "zh-hans", "en": "en"}.get(understood.get("language"))
    with translation.override(language or translation.get_language()):
        out = {**meta, "reason": said(meta.get("reason"))}
        time = understood.get("time")
        if time:
            out["understood"] = {**understood, "time": {**time, "reason": said(time.get("reason"))}}
    return out
