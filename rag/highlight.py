"""Highlight matches in stored text as HTML: escape the text, then wrap each match in ``<mark>``.

A snippet is HTML (clients render it to show the marks), so the stored text inside it must be
escaped: a chat message holding ``<script>`` comes back as ``&lt;script&gt;``, and only the
``<mark>`` tags added here are markup.
"""

from __future__ import annotations

import re
from html import escape


def mark(text: str, pattern: re.Pattern) -> str:
    """Return ``text`` HTML-escaped with every match of ``pattern`` inside ``<mark>``."""
    parts, position = [], 0
    for match in pattern.finditer(text):
        if match.end() == match.start():
            continue
        parts.append(escape(text[position : match.start()]))
        parts.append(f"<mark>{escape(match.group(0))}</mark>")
        position = match.end()
    parts.append(escape(text[position:]))
    return "".join(parts)
