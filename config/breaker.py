"""A per-process circuit breaker for a provider that may be down or slow.

After a failure the breaker opens for ``cooldown`` seconds: callers that must answer quickly
(:meth:`CircuitBreaker.allow` is False) skip the provider and degrade at once instead of each
waiting for the same timeout. When the cool-down has passed, one caller is let through as a
probe ("half-open"); its success closes the breaker, its failure opens it again.

The state lives in memory, one breaker per process and provider: every web or worker process
learns on its own, and a restart forgets. ``snapshot()`` describes it for ``/api/health``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

CLOSED = "closed"
OPEN = "open"
HALF_OPEN = "half_open"

# Indirection so tests can move time without sleeping.
_clock = time.monotonic


@dataclass
class BreakerSnapshot:
    """What the breaker knows: its state, the last outcome and when it happened."""

    state: str
    last_error: str
    last_failure_age: float | None
    last_success_age: float | None
    failures: int
    retry_in: float | None

    @property
    def known(self) -> bool:
        """Return whether any call has finished since the process started (or the reset)."""
        return self.last_failure_age is not None or self.last_success_age is not None


class CircuitBreaker:
    """Trip after a failure, stay open for ``cooldown`` seconds, then let one probe through."""

    def __init__(self, name: str, *, cooldown: float):
        self.name = name
        self.cooldown = max(float(cooldown), 0.0)
        self._lock = threading.Lock()
        self._state = CLOSED
        self._opened_at = 0.0
        self._probe_started = 0.0
        self._failures = 0
        self._last_error = ""
        self._last_failure: float | None = None
        self._last_success: float | None = None

    def allow(self) -> bool:
        """Return whether a caller may use the provider now.

        Closed: yes. Open within the cool-down: no. Open after it: yes for exactly one caller
        (the probe), until it reports; a probe that never reports frees the slot after another
        cool-down, so a lost thread cannot keep the breaker shut for good.
        """
        now = _clock()
        with self._lock:
            if self._state == CLOSED:
                return True
            if self._state == OPEN and now - self._opened_at >= self.cooldown:
                self._state = HALF_OPEN
                self._probe_started = now
                return True
            if self._state == HALF_OPEN and now - self._probe_started >= self.cooldown:
                self._probe_started = now
                return True
            return False

    def success(self) -> None:
        """Record a call that worked: close the breaker."""
        with self._lock:
            self._state = CLOSED
            self._failures = 0
            self._last_success = _clock()

    def failure(self, error: str) -> None:
        """Record a failed or timed-out call: open the breaker for a cool-down."""
        now = _clock()
        with self._lock:
            self._state = OPEN
            self._opened_at = now
            self._failures += 1
            self._last_error = str(error)[:500]
            self._last_failure = now

    def snapshot(self) -> BreakerSnapshot:
        """Return the current state without changing it."""
        now = _clock()
        with self._lock:
            retry_in = None
            if self._state == OPEN:
                retry_in = max(0.0, self.cooldown - (now - self._opened_at))
            return BreakerSnapshot(
                state=self._state,
                last_error=self._last_error,
                last_failure_age=None if self._last_failure is None else now - self._last_failure,
                last_success_age=None if self._last_success is None else now - self._last_success,
                failures=self._failures,
                retry_in=retry_in,
            )


__all__ = ["CLOSED", "HALF_OPEN", "OPEN", "BreakerSnapshot", "CircuitBreaker"]
