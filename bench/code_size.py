"""Product code size: lines of Python outside tests, bench, clients and migrations, at two commits.

Issue 33 counts the product the way this script does (``wc -l`` of every ``*.py`` file tracked
by git outside ``tests/``, ``bench/``, ``clients/`` and any ``migrations/`` folder): 27,395 lines
at ``cde81ae`` (2026-11-24 10:13 UTC, when the issue was filed). The count is read from git
objects, so it needs no checkout of the older commit::

    python bench/code_size.py [--base cde81ae] [--head HEAD] [--publish]

It prints each top-level package's lines at both commits, the whole product, and the modules
over 500 lines (the style guide's split threshold) at ``--head``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import ROOT, markdown_table, write_section  # noqa: E402

EXCLUDED_TOP = ("tests/", "bench/", "clients/")
SPLIT_THRESHOLD = 500


def is_product(path: str) -> bool:
    """Return whether ``path`` (relative to the repository) is counted as product code."""
    return (
        path.endswith(".py")
        and not path.startswith(EXCLUDED_TOP)
        and "/migrations/" not in f"/{path}"
    )


def git(*args: str) -> str:
    """Run git in the repository and return its standard output."""
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def line_counts(rev: str) -> dict[str, int]:
    """Return ``{path: lines}`` for every product file at ``rev`` (lines as ``wc -l`` counts)."""
    paths = [p for p in git("ls-tree", "-r", "--name-only", rev).splitlines() if is_product(p)]
    counts = {}
    for path in paths:
        blob = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True
        ).stdout
        counts[path] = blob.count(b"\n")
    return counts


def by_package(counts: dict[str, int]) -> dict[str, int]:
    """Sum ``counts`` by top-level folder (``manage.py`` and other root files under ``.``)."""
    totals: dict[str, int] = {}
    for path, lines in counts.items():
        top = path.split("/", 1)[0] if "/" in path else "."
        totals[top] = totals.get(top, 0) + lines
    return totals


def main() -> None:
    """Count both commits, print the comparison and, with ``--publish``, write it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="cde81ae", help="the older commit (default: cde81ae)")
    parser.add_argument("--head", default="HEAD", help="the newer commit (default: HEAD)")
    parser.add_argument("--publish", action="store_true", help="write docs/BENCHMARKS.md")
    args = parser.parse_args()

    base_rev = git("rev-parse", "--short", args.base).strip()
    head_rev = git("rev-parse", "--short", args.head).strip()
    base, head = line_counts(base_rev), line_counts(head_rev)
    base_pkg, head_pkg = by_package(base), by_package(head)
    rows = [
        [
            name,
            base_pkg.get(name, 0),
            head_pkg.get(name, 0),
            head_pkg.get(name, 0) - base_pkg.get(name, 0),
        ]
        for name in sorted(set(base_pkg) | set(head_pkg))
    ]
    total_base, total_head = sum(base.values()), sum(head.values())
    rows.append(["**total**", total_base, total_head, total_head - total_base])
    table = markdown_table(
        ["package", f"lines at {base_rev}", f"lines at {head_rev}", "change"], rows
    )
    large = sorted(
        ((lines, path) for path, lines in head.items() if lines > SPLIT_THRESHOLD), reverse=True
    )
    large_text = ", ".join(f"`{path}` {lines}" for lines, path in large) if large else "none"
    body = (
        f"Command: `python bench/code_size.py --base {args.base} --head {args.head}`  \n"
        "Counted: `wc -l` of every tracked `*.py` outside `tests/`, `bench/`, `clients/` and "
        "`migrations/` folders, read from git objects.\n\n"
        f"{table}\n\n"
        f"Modules over {SPLIT_THRESHOLD} lines at {head_rev}: {large_text}.\n"
    )
    print(body)
    if args.publish:
        write_section("code-size", "Product code size", body)


if __name__ == "__main__":
    main()
