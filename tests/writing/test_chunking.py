"""Chunk properties: coverage, order, sizes, parent size control, no chapter crossing, and
no sentence embedding where the cuts cannot matter."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.chunking import Span, pack_sentences
from writing import chunking
from writing.chunking import BlockText, ChunkConfig, group_blocks, plan_chapter, single_child
from writing.models import ChildChunk, ParentChunk, ParentSegment

CFG = ChunkConfig(child_min=20, child_max=40, parent_min=15, parent_max=120)


def test_group_blocks_merges_short_and_isolates_long():
    blocks = [
        BlockText(1, "短句一。"),
        BlockText(2, "短句二。"),
        BlockText(3, "这一段比较长" * 5),
        BlockText(4, "很长的段落。" * 40),
        BlockText(5, "尾巴。"),
    ]
    groups = [[b.id for b in g] for g in group_blocks(blocks, CFG)]
    assert groups[0] == [1, 2, 3]  # short blocks merge with their neighbour
    assert [4] in groups  # an over-long block is never merged
    assert groups[-1] == [5]  # cannot join the over-long block: stays alone
    flat = [i for g in groups for i in g]
    assert flat == [1, 2, 3, 4, 5]  # order kept, every block once


@pytest.mark.django_db
def test_plan_covers_text_in_order_with_bounded_sizes(small_chunks):
    long_block = (
        "花果山上有一块仙石，吸收日月精华。一日仙石迸裂，生出一只石猴。"
        "石猴学会了爬树跳涧，与群猴为伴。后来他发现了水帘洞，被拜为美猴王。"
        "美猴王担心生老病死，便漂洋过海去拜师学艺。须菩提祖师收他为徒，取名孙悟空。"
        "悟空学会了七十二变和筋斗云，一个筋斗能翻十万八千里。"
    )
    blocks = [BlockText(1, "诗曰："), BlockText(2, long_block), BlockText(3, "且听下回分解。")]
    plan = plan_chapter(blocks, [], CFG)
    parts_by_block: dict[int, list[tuple[int, int]]] = {}
    for parent in plan.build:
        assert len(parent.text) <= CFG.parent_max
        # Children tile the parent text exactly, in order.
        pos = 0
        for child in parent.children:
            assert child.span.start == pos and child.span.end > pos
            assert len(child.text) <= max(CFG.child_max, 2 * CFG.child_min)
            pos = child.span.end
        assert pos == len(parent.text)
        for seg in parent.segments:
            parts_by_block.setdefault(seg.block_id, []).append((seg.block_start, seg.block_end))
    # Parents tile every block exactly.
    for block in blocks:
        spans = sorted(parts_by_block[block.id])
        assert spans[0][0] == 0 and spans[-1][1] == len(block.content)
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    # The over-long block was split into several parents.
    assert len(parts_by_block[2]) >= 2


@pytest.mark.django_db
def test_chunks_never_cross_chapters(make_chapter, blocks, small_chunks):
    first = make_chapter(["第一章短。", blocks[0]], sequence=1)
    second = make_chapter(["第二章短。", blocks[1]], sequence=2)
    for chapter in (first, second):
        block_ids = set(chapter.blocks.values_list("pk", flat=True))
        seg_blocks = set(
            ParentSegment.objects.filter(parent__chapter=chapter).values_list("block_id", flat=True)
        )
        assert seg_blocks == block_ids
        assert set(
            ChildChunk.objects.filter(parent__chapter=chapter).values_list("chapter_id", flat=True)
        ) == {chapter.pk}
    # The short first block merged with its neighbour inside its own chapter.
    assert ParentChunk.objects.filter(chapter=first).count() == 1
    parent = ParentChunk.objects.get(chapter=first)
    assert parent.text == "第一章短。\n" + blocks[0]


@pytest.mark.django_db
def test_child_offsets_match_parent_text(make_chapter, blocks, small_chunks):
    chapter = make_chapter(blocks)
    for child in ChildChunk.objects.filter(chapter=chapter).select_related("parent"):
        assert child.parent.text[child.start : child.end] == child.text
        assert child.chunk_level == "child"
        assert child.embedding is not None and len(child.embedding) == 384
    assert ParentChunk.objects.filter(chapter=chapter).count() == len(blocks)


def test_demo_fixture_parses_ten_chapters():
    from writing.demo import FIXTURE, parse_chapters

    chapters = parse_chapters(FIXTURE.read_text(encoding="utf-8"))
    assert len(chapters) == 10
    assert chapters[0][0].startswith("第一回") and chapters[-1][0].startswith("第十回")
    assert all(paragraphs and all(p.strip() == p for p in paragraphs) for _, paragraphs in chapters)


@pytest.mark.django_db
def test_load_demo_is_idempotent(monkeypatch):
    from django.core.management import call_command

    from writing.management.commands import writing_load_demo
    from writing.models import Book, Chapter, StoryBlock

    chunked = []
    monkeypatch.setattr(writing_load_demo, "chunk_chapter", chunked.append)  # no embedding here
    call_command("writing_load_demo", sync=True)
    call_command("writing_load_demo", sync=True)
    assert Book.objects.filter(title="西游记", owner__username="demo").count() == 1
    assert Chapter.objects.count() == 10 == len(chunked)
    assert StoryBlock.objects.filter(chapter__sequence=1).count() > 20


@pytest.mark.django_db
def test_load_demo_queues_chunking_for_the_worker(django_capture_on_commit_callbacks):
    """By default the demo chapters are stored pending and one task per chapter is queued."""
    from django.core.management import call_command

    from writing.models import Chapter, ChunkState

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        call_command("writing_load_demo")
    assert Chapter.objects.count() == 10
    assert set(Chapter.objects.values_list("chunk_state", flat=True)) == {ChunkState.PENDING}
    assert len(callbacks) == 10


@settings(max_examples=300, deadline=None)
@given(
    child_min=st.integers(min_value=1, max_value=60),
    extra=st.integers(min_value=0, max_value=120),
    data=st.data(),
)
def test_single_child_holds_whatever_the_cuts(child_min, extra, data):
    """Sentences that single_child accepts pack into one child for any set of cuts."""
    cfg = ChunkConfig(child_min=child_min, child_max=child_min + extra)
    length = data.draw(st.integers(min_value=1, max_value=2 * child_min - 1))
    inner = st.integers(min_value=1, max_value=max(1, length - 1))
    bounds = sorted(b for b in data.draw(st.sets(inner, max_size=8)) if b < length)
    edges = [0, *bounds, length]
    spans = [Span(a, b) for a, b in zip(edges, edges[1:], strict=False)]
    cuts = data.draw(st.sets(st.integers(min_value=0, max_value=len(spans) - 1)))
    assert single_child(spans, cfg)
    packed = pack_sentences(spans, min_chars=cfg.child_min, max_chars=cfg.child_max, cuts=cuts)
    assert packed == [Span(0, length)]


def _recording_embedder(monkeypatch):
    calls: list[list[str]] = []

    def embed(texts, **kwargs):
        calls.append(list(texts))
        return [[1.0, float(i)] for i in range(len(texts))]

    monkeypatch.setattr(chunking, "embed_texts", embed)
    return calls


def test_short_parent_embeds_no_sentences(monkeypatch):
    calls = _recording_embedder(monkeypatch)
    text = "悟空笑了。八戒哭了。沙僧挑担。"  # several sentences, shorter than 2 * child_min
    assert len(text) < 2 * CFG.child_min
    parent = chunking.plan_children(chunking.ParentPlan([chunking.Segment(1, 0, 15, 0)], text), CFG)
    assert calls == []
    assert [(c.span.start, c.span.end) for c in parent.children] == [(0, len(text))]
    assert parent.sims == [] and parent.cuts == []


def test_parent_of_two_children_still_embeds_its_sentences(monkeypatch):
    calls = _recording_embedder(monkeypatch)
    text = "花果山上有一块仙石。" * 5  # 50 characters: room for two children of 20
    assert len(text) >= 2 * CFG.child_min
    segment = chunking.Segment(1, 0, len(text), 0)
    parent = chunking.plan_children(chunking.ParentPlan([segment], text), CFG)
    assert len(calls) == 1 and len(calls[0]) == 5
    assert len(parent.sims) == 4
