"""Parse the 西游记 fixture into chapters of story blocks (paragraph = non-empty line)."""

from __future__ import annotations

import re
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "xiyouji_1_10.txt"
HEADING = re.compile(r"^第[一二三四五六七八九十百零〇]+回")


def parse_chapters(text: str) -> list[tuple[str, list[str]]]:
    """Return ``[(title, [paragraph, ...]), ...]``; headings are unindented lines."""
    chapters: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if HEADING.match(line):
            chapters.append((line.strip(), []))
        elif line.strip() and chapters:
            chapters[-1][1].append(line.strip())
    return chapters
