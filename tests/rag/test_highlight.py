"""Highlights escape the stored text before marking the matches."""

from __future__ import annotations

import re

from rag.highlight import mark


def test_stored_markup_is_escaped_and_only_the_match_is_marked():
    text = "<script>alert(1)</script> 火锅"
    assert mark(text, re.compile("火锅")) == (
        "&lt;script&gt;alert(1)&lt;/script&gt; <mark>火锅</mark>"
    )


def test_a_match_holding_markup_characters_is_escaped_inside_its_mark():
    assert mark("a<b & c", re.compile("<b")) == "a<mark>&lt;b</mark> &amp; c"


def test_quotes_are_escaped_so_a_snippet_cannot_leave_an_attribute():
    assert mark("\"x\" 'y'", re.compile("z")) == "&quot;x&quot; &#x27;y&#x27;"
