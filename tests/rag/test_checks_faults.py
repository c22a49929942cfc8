"""System checks rag.E014-E015: the search time budget and the breaker cool-down."""

from __future__ import annotations

import pytest

from rag.checks import check_fault_budgets


def ids(errors) -> list[str]:
    return [e.id for e in errors]


def test_default_budget_and_cool_down_pass():
    assert check_fault_budgets() == []


@pytest.mark.parametrize("budget", [0, -1, 61])
def test_e010_fires_for_a_budget_no_search_could_keep(settings, budget):
    settings.SEARCH_TIME_BUDGET_SECONDS = budget
    assert ids(check_fault_budgets()) == ["rag.E014"]


@pytest.mark.parametrize("cooldown", [-1, 3601])
def test_e011_fires_for_a_cool_down_out_of_range(settings, cooldown):
    settings.EMBEDDING_BREAKER_COOLDOWN_SECONDS = cooldown
    assert ids(check_fault_budgets()) == ["rag.E015"]
