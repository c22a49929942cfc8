"""``config.breaker``: open after a failure, stay open for the cool-down, then one probe."""

from __future__ import annotations

import pytest

from config import breaker as breaker_module
from config.breaker import CLOSED, HALF_OPEN, OPEN, CircuitBreaker


@pytest.fixture
def clock(monkeypatch):
    """A fake monotonic clock; advance it with ``clock.now += seconds``."""

    class Clock:
        now = 1000.0

    monkeypatch.setattr(breaker_module, "_clock", lambda: Clock.now)
    return Clock


def test_a_new_breaker_lets_calls_through_and_knows_nothing(clock):
    gate = CircuitBreaker("x", cooldown=10)
    assert gate.allow()
    assert not gate.snapshot().known


def test_failure_refuses_calls_until_the_cool_down_has_passed(clock):
    gate = CircuitBreaker("x", cooldown=10)
    gate.failure("down")
    clock.now += 9.9
    assert not gate.allow()
    snap = gate.snapshot()
    assert snap.state == OPEN and snap.last_error == "down"
    assert snap.retry_in == pytest.approx(0.1)


def test_after_the_cool_down_exactly_one_probe_is_let_through(clock):
    gate = CircuitBreaker("x", cooldown=10)
    gate.failure("down")
    clock.now += 10
    assert gate.allow()
    assert not gate.allow()
    assert gate.snapshot().state == HALF_OPEN


def test_successful_probe_closes_the_breaker(clock):
    gate = CircuitBreaker("x", cooldown=10)
    gate.failure("down")
    clock.now += 10
    gate.allow()
    gate.success()
    assert gate.allow() and gate.allow()
    assert gate.snapshot().state == CLOSED and gate.snapshot().failures == 0


def test_failed_probe_opens_the_breaker_for_another_cool_down(clock):
    gate = CircuitBreaker("x", cooldown=10)
    gate.failure("down")
    clock.now += 10
    gate.allow()
    gate.failure("still down")
    clock.now += 5
    assert not gate.allow()
    assert gate.snapshot().failures == 2


def test_a_probe_that_never_reports_frees_its_slot_after_a_cool_down(clock):
    gate = CircuitBreaker("x", cooldown=10)
    gate.failure("down")
    clock.now += 10
    assert gate.allow()  # this probe's thread is lost
    clock.now += 10
    assert gate.allow()
