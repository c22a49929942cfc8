"""Plan the parents and children of a chapter (pure, apart from embedding sentences).

Parent size control (live settings ``parent_min_chars`` / ``parent_max_chars``):

* blocks are grouped in order; a block joins the previous group when either is shorter
  than ``parent_min_chars`` and the joined text stays within ``parent_max_chars``, so a
  short block merges with its neighbours and never across chapters (one chapter at a time);
* a block longer than ``parent_max_chars`` forms its own group and is split into several
  parents at its lowest-similarity sentence boundaries (``rag.chunking.split_parent``).

Children: each parent's sentences (``split_sentences``) are embedded, adjacent
similarities computed, cuts found by ``find_cliffs`` (mode/threshold/percentile from the
live settings) and sentences packed into children by ``pack_sentences``. A parent shorter
than ``2 * child_min_chars`` is one child whatever the cuts (:func:`single_child`): its
sentences are not embedded (its analysis has no similarities), which spares about half the
provider work of a novel chapter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rag.chunking import (
    Span,
    adjacent_similarities,
    find_cliffs,
    pack_sentences,
    split_parent,
    split_sentences,
)
from rag.embeddings import embed_texts
from writing.selectors import writing_settings_get

SEPARATOR = "\n"  # between the blocks of a merged parent; belongs to no block


@dataclass(frozen=True)
class ChunkConfig:
    """The live chunking settings a task read once at its start."""

    child_min: int = 200
    child_max: int = 300
    parent_min: int = 150
    parent_max: int = 1500
    cliff_mode: str = "drop"
    cliff_threshold: float = 0.3
    cliff_percentile: float = 90.0

    @classmethod
    def from_live(cls) -> ChunkConfig:
        s = writing_settings_get()
        return cls(
            child_min=s.child_min_chars,
            child_max=s.child_max_chars,
            parent_min=s.parent_min_chars,
            parent_max=s.parent_max_chars,
            cliff_mode=s.cliff_mode,
            cliff_threshold=s.cliff_threshold,
            cliff_percentile=s.cliff_percentile,
        )


@dataclass(frozen=True)
class BlockText:
    id: int
    content: str
    dirty: bool = False


@dataclass(frozen=True)
class Segment:
    """The slice ``[block_start, block_end)`` of a block placed at ``parent_start``."""

    block_id: int
    block_start: int
    block_end: int
    parent_start: int


@dataclass
class ChildPlan:
    span: Span
    text: str
    block_id: int


@dataclass
class ParentPlan:
    segments: list[Segment]
    text: str
    sentences: list[Span] = field(default_factory=list)
    sims: list[float] = field(default_factory=list)
    cuts: list[int] = field(default_factory=list)
    children: list[ChildPlan] = field(default_factory=list)

    @property
    def key(self) -> tuple:
        return tuple((s.block_id, s.block_start, s.block_end) for s in self.segments)

    def block_at(self, offset: int) -> int:
        """Return the id of the block holding the parent offset (a separator maps forward)."""
        chosen = self.segments[0]
        for seg in self.segments:
            if seg.parent_start <= offset:
                chosen = seg
        return chosen.block_id

    def analysis(self) -> dict:
        return {
            "sentences": [[s.start, s.end] for s in self.sentences],
            "sims": [round(x, 5) for x in self.sims],
            "cuts": list(self.cuts),
        }


def group_blocks(blocks: list[BlockText], cfg: ChunkConfig) -> list[list[BlockText]]:
    """Group consecutive blocks of one chapter into parent groups (see module docstring)."""
    groups: list[list[BlockText]] = []
    size = 0  # text length of the last group, separators included
    for block in blocks:
        n = len(block.content)
        last = groups[-1] if groups else None
        joinable = (
            last is not None
            and n <= cfg.parent_max
            and size <= cfg.parent_max
            and (size < cfg.parent_min or n < cfg.parent_min)
            and size + len(SEPARATOR) + n <= cfg.parent_max
        )
        if joinable:
            last.append(block)
            size += len(SEPARATOR) + n
        else:
            groups.append([block])
            size = n
    return groups


def sentence_texts(text: str, spans: list[Span] | None = None) -> list[str]:
    """Return the sentence texts of ``text`` as chunking embeds them (through the cache)."""
    if spans is None:
        spans = split_sentences(text)
    return [text[s.start : s.end].strip() or text[s.start : s.end] for s in spans]


class BudgetSpent(Exception):
    """Planning stopped because the caller's time budget ran out (see ``plan_chapter``)."""


def _embed_sentences(text: str, spans: list[Span]) -> list[float]:
    if len(spans) < 2:
        return []
    return adjacent_similarities(embed_texts(sentence_texts(text, spans)))


def group_parents(group: list[BlockText], cfg: ChunkConfig) -> list[ParentPlan]:
    """Return the parents of one group: the merged text, or the split of one long block."""
    if len(group) == 1 and len(group[0].content) > cfg.parent_max:
        block = group[0]
        spans = split_sentences(block.content)
        sims = _embed_sentences(block.content, spans)
        pieces = split_parent(
            spans, sims, max_chars=cfg.parent_max, min_chars=cfg.parent_min, text=block.content
        )
        return [
            ParentPlan([Segment(block.id, p.start, p.end, 0)], block.content[p.start : p.end])
            for p in pieces
        ]
    segments, parts, offset = [], [], 0
    for block in group:
        segments.append(Segment(block.id, 0, len(block.content), offset))
        parts.append(block.content)
        offset += len(block.content) + len(SEPARATOR)
    return [ParentPlan(segments, SEPARATOR.join(parts))]


def single_child(spans: list[Span], cfg: ChunkConfig) -> bool:
    """Return whether the sentences make one child whatever the cliffs say.

    ``pack_sentences`` makes every child at least ``child_min`` long (or one child of a shorter
    text), so sentences covering fewer than ``2 * child_min`` characters always form one child.
    """
    return not spans or spans[-1].end - spans[0].start < 2 * cfg.child_min


def plan_children(parent: ParentPlan, cfg: ChunkConfig) -> ParentPlan:
    """Fill in the sentences, similarities, cuts and children of a parent."""
    text = parent.text
    spans = split_sentences(text)
    if single_child(spans, cfg):
        sims, cuts = [], []  # one child whatever the cuts: no sentence needs embedding
    else:
        sims = _embed_sentences(text, spans)
        cuts = find_cliffs(
            sims,
            threshold=cfg.cliff_threshold,
            mode=cfg.cliff_mode,
            percentile=cfg.cliff_percentile,
        )
    packed = pack_sentences(
        spans, min_chars=cfg.child_min, max_chars=cfg.child_max, cuts=cuts, text=text
    )
    parent.sentences, parent.sims, parent.cuts = spans, sims, cuts
    parent.children = [
        ChildPlan(span=s, text=text[s.start : s.end], block_id=parent.block_at(s.start))
        for s in packed
    ]
    return parent


@dataclass(frozen=True)
class ExistingParent:
    id: int
    key: tuple  # ((block_id, block_start, block_end), ...)


@dataclass
class ChapterPlan:
    keep: list[int]  # existing parent ids kept as they are (children untouched)
    delete: list[int]  # existing parent ids to delete (their children go with them)
    build: list[ParentPlan]  # new parents, children planned


def _covers(keys: list[tuple], group: list[BlockText]) -> bool:
    """Return whether existing parents tile the group exactly (same blocks, full slices)."""
    if len(group) == 1:
        block = group[0]
        slices = sorted(seg for key in keys for seg in key)
        if any(b != block.id for b, _, _ in slices):
            return False
        pos = 0
        for _, start, end in slices:
            if start != pos:
                return False
            pos = end
        return pos == len(block.content)
    expected = tuple((b.id, 0, len(b.content)) for b in group)
    return len(keys) == 1 and keys[0] == expected


def plan_chapter(
    blocks: list[BlockText],
    existing: list[ExistingParent],
    cfg: ChunkConfig,
    should_stop: Callable[[], bool] | None = None,
) -> ChapterPlan:
    """Decide which parents to keep, delete and build; embed only what is rebuilt.

    A group is kept when all its blocks are clean and existing parents tile it exactly;
    otherwise every parent touching the group is deleted and the group rebuilt. Raise
    :class:`BudgetSpent` when ``should_stop()`` says so before a group is rebuilt (the
    sentence vectors embedded so far are cached, so the next run goes faster).
    """
    by_block: dict[int, list[ExistingParent]] = {}
    for parent in existing:
        for block_id, _, _ in parent.key:
            by_block.setdefault(block_id, []).append(parent)
    keep: list[int] = []
    build: list[ParentPlan] = []
    for group in group_blocks(blocks, cfg):
        touching = {p.id: p for b in group for p in by_block.get(b.id, [])}
        clean = not any(b.dirty for b in group)
        if clean and touching and _covers([p.key for p in touching.values()], group):
            keep.extend(touching)
            continue
        if should_stop is not None and should_stop():
            raise BudgetSpent
        for parent in group_parents(group, cfg):
            build.append(plan_children(parent, cfg))
    kept = set(keep)
    delete = [p.id for p in existing if p.id not in kept]
    return ChapterPlan(keep=keep, delete=delete, build=build)
