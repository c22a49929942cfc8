"""How much the fuzz suite tries, what it counts, and how it reports.

``FUZZ_MAX_EXAMPLES`` sets the random examples per operation and role (default 6);
``FUZZ_COVERAGE=1`` adds schemathesis' coverage phase (every boundary and type mutation of every
parameter, a few dozen to a few hundred cases per operation). ``make fuzz`` sets both. The
generated cases depend only on ``FUZZ_SEED`` (fixed by default), so a failure reproduces.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field


def max_examples() -> int:
    """Return the random examples per operation and role: ``FUZZ_MAX_EXAMPLES`` or 6."""
    return int(os.environ.get("FUZZ_MAX_EXAMPLES", "6"))


def seed() -> int:
    """Return the seed of the generated cases: ``FUZZ_SEED`` or a fixed one."""
    return int(os.environ.get("FUZZ_SEED", "20261123"))


def coverage_phase() -> bool:
    """Return whether to run schemathesis' coverage phase too (``FUZZ_COVERAGE=1``)."""
    return os.environ.get("FUZZ_COVERAGE", "") not in ("", "0")


@dataclass
class FuzzStats:
    """What the fuzz tests sent and what came back."""

    cases: Counter = field(default_factory=Counter)  # (operation, role) -> requests
    server_errors: list = field(default_factory=list)  # one line per 5xx
    started: float | None = None

    def record(self, label: str, role: str, case, response) -> None:
        """Count one request; remember it with a minimal reproduction if it answered 5xx."""
        if self.started is None:
            self.started = time.monotonic()
        self.cases[(label, role)] += 1
        if response.status_code >= 500:
            body = json.dumps(case.body, ensure_ascii=True, default=str)[:300]
            self.server_errors.append(
                f"{response.status_code} {case.method} {case.formatted_path} "
                f"query={case.query!r} body={body} -> {response.text[:200]}"
            )

    def summary(self) -> list[str]:
        """Return the lines of the terminal summary (empty if nothing was sent)."""
        if not self.cases:
            return []
        operations = {label for label, _ in self.cases}
        per_test = sorted(self.cases.values())
        lines = [
            f"operations: {len(operations)}; cases: {sum(per_test)} "
            f"(per operation and role: min {per_test[0]}, max {per_test[-1]}); "
            f"max_examples: {max_examples()}; coverage phase: {coverage_phase()}; seed: {seed()}; "
            f"5xx: {len(self.server_errors)}; time: {time.monotonic() - self.started:.0f} s"
        ]
        return lines + ["  " + line for line in sorted(set(self.server_errors))]


STATS = FuzzStats()
