"""The benchmarks explain a noisy figure by the load average and a shared machine, nothing more.

Issue 32 item 3: a reader learns how busy the machine was, not who else was on it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Words that name who else used the machine (other agents, sessions, suites, processes).
WHO_ELSE = re.compile(
    r"other agents|other sessions|test suites were|other benchmarks|with other processes",
    re.IGNORECASE,
)


def test_benchmark_texts_do_not_name_who_else_used_the_machine():
    files = [
        *ROOT.glob("bench/*.py"),
        ROOT / "docs" / "BENCHMARKS.md",
        ROOT / "docs" / "DEVELOPING.md",
    ]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WHO_ELSE.search(line)
    ]
    assert not found, "\n".join(found)
