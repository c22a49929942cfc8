"""Asking to learn or practise something is a request for something to do."""

from __future__ import annotations

import pytest

from rag.understand.requests import learning_request


@pytest.mark.parametrize(
    "query",
    [
        "want to brush up on my Portuguese",
        "I'd like to take up archery",
        "looking to get back into running",
        "learn to knit",
        "想学吉他",
        "想练练口语",
        "学跳舞",
    ],
)
def test_wanting_to_learn_or_practise_is_read(query):
    assert learning_request(query)


@pytest.mark.parametrize(
    "query",
    ["brunch on sunday", "live music tonight", "周末去哪玩", "learner driver insurance", ""],
)
def test_other_requests_are_not(query):
    assert not learning_request(query)
