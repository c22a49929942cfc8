"""The form readers of rag.understand.cues: a request for information, not for something to find."""

from __future__ import annotations

import pytest

from rag.understand.cues import information_request


@pytest.mark.parametrize("text", ["英语完形填空有甚技巧", "钓鱼有什么窍门", "面试有啥诀窍"])
def test_tips_asked_for_are_an_information_request(text):
    assert information_request(text)


@pytest.mark.parametrize("text", ["想学点攀岩技巧", "技巧型的桌游", "有什么好玩的"])
def test_a_skill_named_without_asking_for_tips_is_no_information_request(text):
    assert not information_request(text)
