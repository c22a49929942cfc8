"""The language of a tool call's messages: the caller's, as the REST API's follow Accept-Language.

An MCP call has no per-user language setting to read. Over HTTP the client may say which
language it wants (its request's ``Accept-Language``, as a REST client does); over stdio nothing
does. So, in order: the HTTP request's ``Accept-Language`` (a language the service offers);
else the language of the text in the tool's arguments (a Chinese ``query_text`` gets Chinese
errors, an English one English: the person behind the agent wrote it); else the service's
default (``LANGUAGE_CODE``). Identifiers (``chat_id``, ``user_id``, a single word) are no text:
only a string with Han characters or a space counts.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from rag.understand.cues import language as text_language

# The service's language for each language rag.understand reads in a text.
FOR_TEXT = {"zh": "zh-hans", "en": "en"}


def _texts(value):
    """Yield the strings of ``value`` (nested lists and objects) that read as text."""
    if isinstance(value, str):
        if " " in value.strip() or any("\u3400" <= ch <= "\u9fff" for ch in value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def from_accept_language(header: str | None) -> str | None:
    """Return the first language of ``header`` the service offers, or None."""
    for code, _quality in parse_accept_lang_header(header or ""):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return None


def call_language(*, accept_language: str | None, arguments) -> str:
    """Return the language code a tool call's messages are written in (see the module)."""
    asked = from_accept_language(accept_language)
    if asked:
        return asked
    found = text_language(" ".join(_texts(arguments)).lower())
    return FOR_TEXT.get(found, settings.LANGUAGE_CODE)
