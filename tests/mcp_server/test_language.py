"""The language of a tool call: the HTTP request's Accept-Language, else the arguments' text."""

from __future__ import annotations

import pytest
from django.test import override_settings

from mcp_server.language import call_language


@pytest.mark.parametrize(
    ("accept_language", "arguments", "language"),
    [
        ("zh-CN,zh;q=0.9", {"query_text": "where did we go"}, "zh-hans"),
        ("en-US", {"query_text": "五一去哪里玩"}, "en"),
        ("fr", {"query_text": "五一去哪里玩"}, "zh-hans"),  # not offered: the text decides
        (None, {"query_text": "五一去哪里玩", "user_id": "ivy"}, "zh-hans"),
        (None, {"filters": {"note": ["where did we go"]}}, "en"),
    ],
)
def test_the_request_decides_then_the_arguments_text(accept_language, arguments, language):
    assert call_language(accept_language=accept_language, arguments=arguments) == language


@override_settings(LANGUAGE_CODE="zh-hans")
@pytest.mark.parametrize("arguments", [None, {}, {"chat_id": "trip-2026-05", "top_k": 5}])
def test_identifiers_are_no_text_so_the_service_default_answers(arguments):
    assert call_language(accept_language=None, arguments=arguments) == "zh-hans"
