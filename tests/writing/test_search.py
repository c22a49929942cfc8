"""Small-to-big search: grouping, normalisation, context window, story order, privacy."""

from __future__ import annotations

import math
import threading

import pytest
from django.db import connection

from writing import indexing
from writing.models import ChildChunk, ParentChunk, StoryBlock
from writing.search import LEXICAL_WEIGHT, context_window, normalised_score, writing_search

# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = pytest.mark.real_model


def test_normalisation_formula():
    assert normalised_score(0.8, 200, 200) == pytest.approx(0.8)
    # A parent four times the median size: score halves (sqrt(1/4)).
    assert normalised_score(0.8, 800, 200) == pytest.approx(0.4)
    assert normalised_score(0.8, 50, 200) == pytest.approx(0.8 * math.sqrt(4))


@pytest.mark.parametrize(
    ("size", "start", "end", "limit"),
    [
        (5000, 0, 300, 1000),
        (5000, 4700, 5000, 1000),
        (5000, 2000, 2300, 1000),
        (800, 10, 90, 1000),
        (5000, 100, 1500, 1000),
    ],
)
def test_window_contains_child_and_respects_limit(size, start, end, limit):
    lo, hi = context_window(size, start, end, limit)
    assert 0 <= lo <= hi <= size
    assert hi - lo <= limit
    if end - start <= limit:
        assert lo <= start and end <= hi
    if size > limit and end - start <= limit and start > 0 and end < size:
        # Centred on the child, not the beginning of the parent.
        assert abs((lo + hi) / 2 - (start + end) / 2) <= 1 or lo == 0 or hi == size


@pytest.mark.django_db
def test_search_returns_parents_once_with_window(user, make_chapter, blocks, small_chunks):
    small_chunks.parent_size_normalization = True  # off by default; this test checks the formula
    small_chunks.save()
    long_block = "这是一段很长的铺垫文字，讲述山中的风景与四季变化。" * 3 + (
        "突然，一只白骨精化作村姑，提着饭罐走来想骗唐僧。"
    )
    chapter = make_chapter([*blocks, long_block[:118]])
    body = writing_search(user=user, query="白骨精变成村姑", top_k=3)
    results = body["results"]
    assert results and len({r["parent_id"] for r in results}) == len(results)
    for r in results:
        parent = ParentChunk.objects.get(pk=r["parent_id"])
        assert r["chapter_id"] == chapter.pk
        assert len(r["text"]) <= small_chunks.context_window_chars
        assert r["text"] == parent.text[r["text_start"] : r["text_end"]]
        best = r["children"][0]
        assert r["text_start"] <= best["start"] and best["end"] <= r["text_end"]
        assert r["raw_score"] == pytest.approx(best["score"], abs=1e-6)
        expected = normalised_score(r["raw_score"], parent.size, body["median_parent_size"])
        expected += LEXICAL_WEIGHT * r["lexical"]
        assert r["score"] == pytest.approx(expected, abs=1e-5)
        assert r["blocks"] == list(parent.segments.values_list("block_id", flat=True))
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.django_db
def test_a_block_split_into_several_parents_appears_once(user, make_chapter, blocks, small_chunks):
    from writing.models import ParentSegment

    story = (
        "白骨精第一次化作村姑，提着饭罐走到山坡上想骗唐僧。悟空一眼认出妖精，举棒便打。"
        "白骨精第二次化作老妇人，哭哭啼啼来寻女儿，又被悟空识破，一棒打去。"
        "白骨精第三次化作白发老公公，念着佛经来找妻女，悟空叫来山神土地作证，终于打死了妖精。"
        "唐僧却不信，念起紧箍咒，把悟空赶回了花果山，八戒在一旁幸灾乐祸。"
    )
    chapter = make_chapter([*blocks, story])
    long_block = StoryBlock.objects.get(chapter=chapter, order=len(blocks))
    split = ParentSegment.objects.filter(block=long_block).values_list("parent_id", flat=True)
    assert len(set(split)) >= 2  # the block really was split above parent_max_chars

    results = writing_search(user=user, query="白骨精化作村姑和老妇人骗唐僧", top_k=10)["results"]

    shown = [b for r in results for b in r["blocks"]]
    assert shown.count(long_block.pk) == 1
    assert len(shown) == len(set(shown))


@pytest.mark.django_db
def test_normalisation_off_uses_raw(user, make_chapter, blocks, small_chunks):
    make_chapter(blocks)
    small_chunks.parent_size_normalization = False
    small_chunks.save()
    for r in writing_search(user=user, query="取经", top_k=4)["results"]:
        assert r["score"] == pytest.approx(r["raw_score"] + LEXICAL_WEIGHT * r["lexical"], abs=1e-5)


@pytest.mark.django_db
def test_the_parent_holding_the_querys_words_gets_the_lexical_bonus(
    user, make_chapter, blocks, small_chunks
):
    make_chapter(blocks)
    results = writing_search(user=user, query="卷帘大将打碎琉璃盏", top_k=4)["results"]
    by_lexical = max(results, key=lambda r: r["lexical"])
    assert by_lexical["lexical"] == pytest.approx(1.0)
    assert "琉璃盏" in ParentChunk.objects.get(pk=by_lexical["parent_id"]).text
    words_absent = [
        r for r in results if "琉璃" not in ParentChunk.objects.get(pk=r["parent_id"]).text
    ]
    assert words_absent and all(r["lexical"] < 1.0 for r in words_absent)


@pytest.mark.django_db
def test_a_rare_query_word_weighs_more_than_a_common_one(user, make_chapter, small_chunks):
    make_chapter(
        [
            "师父骑着白马慢慢走过山岗，徒弟们跟在后面。",
            "师父在寺里念经，一直念到天黑才停下。",
            "师父看见河水很急，就叫大家先歇一歇。",
            "沙和尚失手打碎了琉璃盏，被贬到流沙河。",
        ]
    )
    results = writing_search(user=user, query="师父 琉璃盏", top_k=4)["results"]
    lexical = {
        "琉璃盏" in ParentChunk.objects.get(pk=r["parent_id"]).text: r["lexical"] for r in results
    }
    # 师父 is in three of the four blocks, 琉璃盏 in one: the rare word carries more weight.
    assert lexical[True] > lexical[False] > 0


@pytest.mark.django_db
def test_a_long_query_counts_its_first_words_only(user, make_chapter, blocks, small_chunks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from writing.search import MAX_LEXICAL_WORDS

    make_chapter(blocks)
    query = " ".join(f"word{i}" for i in range(3 * MAX_LEXICAL_WORDS))
    with CaptureQueriesContext(connection) as captured:
        writing_search(user=user, query=query, top_k=4)
    sqls = [q["sql"].upper() for q in captured.captured_queries]
    word_counts = [q for q in sqls if "COUNT(" in q and "TO_TSQUERY" in q]
    assert 0 < len(word_counts) <= MAX_LEXICAL_WORDS  # one document count per word weighed


@pytest.mark.django_db
def test_order_story(user, make_chapter, blocks, small_chunks):
    second = make_chapter(blocks[2:], sequence=2, title="第二回")
    first = make_chapter(blocks[:2], sequence=1, title="第一回")
    body = writing_search(user=user, query="西天取经的师徒", top_k=4, order="story")
    keys = []
    for r in body["results"]:
        parent = ParentChunk.objects.select_related("chapter", "first_block").get(pk=r["parent_id"])
        keys.append((parent.chapter.sequence, parent.first_block.order))
    assert keys == sorted(keys) and len(keys) == 4
    assert {r["chapter_id"] for r in body["results"]} == {first.pk, second.pk}


@pytest.mark.django_db
def test_filters_and_privacy(user, other_user, make_chapter, blocks, small_chunks, book):
    from config.errors import NotFound
    from writing.services import book_create

    mine = make_chapter(blocks[:2], sequence=1)
    other_book = book_create(user=other_user, title="别人的书")
    theirs = make_chapter(blocks[2:], target_book=other_book, owner=other_user)
    body = writing_search(user=user, query="猪八戒", top_k=5)
    assert {r["chapter_id"] for r in body["results"]} == {mine.pk}
    with pytest.raises(NotFound):
        writing_search(user=user, query="猪八戒", book=other_book.pk)
    with pytest.raises(NotFound):
        writing_search(user=user, query="猪八戒", chapters=[theirs.pk])
    body = writing_search(user=user, query="猪八戒", book=book.pk, chapters=[mine.pk])
    assert {r["chapter_id"] for r in body["results"]} == {mine.pk}


# Blocks under parent_min_chars (15): the four merge into one parent of 51 characters.
SHORT_BLOCKS = [
    "花果山上桃花开满了山。",
    "水帘洞里群猴吵闹不休。",
    "美猴王独坐石台想心事。",
    "通背老猿劝他访仙学道。",
]


def test_deleted_block_keeps_merged_neighbours_searchable(
    user, api_client, make_chapter, small_chunks
):
    """A PUT deleting a merged parent's first block; the chunking task has not run yet."""
    chapter = make_chapter(SHORT_BLOCKS)
    assert ParentChunk.objects.get(chapter=chapter).segments.count() == len(SHORT_BLOCKS)
    old_children = set(ChildChunk.objects.filter(chapter=chapter).values_list("pk", flat=True))
    # No captured on_commit callbacks: the save commits nothing and enqueues no task.
    resp = api_client.put(
        f"/api/chapters/{chapter.pk}/",
        {
            "book": chapter.book_id,
            "title": chapter.title,
            "sequence": chapter.sequence,
            "blocks": [{"content": c} for c in SHORT_BLOCKS[1:]],
        },
        format="json",
    )
    assert resp.status_code == 200, resp.json()
    assert set(ChildChunk.objects.filter(chapter=chapter).values_list("pk", flat=True)) == (
        old_children
    )
    found = writing_search(user=user, query=SHORT_BLOCKS[3], chapters=[chapter.pk])["results"]
    assert found and SHORT_BLOCKS[3] in found[0]["text"]


@pytest.mark.django_db(transaction=True)
def test_old_chunks_served_during_rechunk(user, make_user, monkeypatch, blocks, writing_settings):
    """A chunking run paused just before its commit: search still sees the old chunks."""
    from writing.services import book_create, chapter_create, chapter_save

    writing_settings.child_min_chars, writing_settings.child_max_chars = 20, 40
    writing_settings.parent_min_chars, writing_settings.parent_max_chars = 15, 120
    writing_settings.save()
    book = book_create(user=user, title="书")
    chapter = chapter_create(
        user=user, book_id=book.pk, title="一", sequence=1, blocks=[{"content": c} for c in blocks]
    )  # autocommit: the on_commit task ran inline (sync cluster)
    old_ids = set(ChildChunk.objects.values_list("pk", flat=True))
    assert old_ids
    paused, resume = threading.Event(), threading.Event()

    def hold(chapter_id):
        paused.set()
        assert resume.wait(30)

    monkeypatch.setattr(indexing, "before_apply_commit", hold)
    edited = list(blocks)
    edited[0] = "新内容：牛魔王与铁扇公主住在翠云山芭蕉洞，火焰山的火全靠芭蕉扇来扇灭。"
    # Save without running the task, then run the task in a thread that pauses in the
    # replacing transaction (after deleting and inserting, before committing).
    monkeypatch.setattr("writing.tasks.enqueue_chunk", lambda *a, **k: None)
    chapter_save(user=user, chapter_id=chapter.pk, blocks=[{"content": c} for c in edited])
    untouched = set(ChildChunk.objects.exclude(story_block__order=0).values_list("pk", flat=True))

    def run():
        try:
            indexing.chunk_chapter(chapter.pk)
        finally:
            connection.close()  # the thread's own connection

    worker = threading.Thread(target=run)
    worker.start()
    try:
        assert paused.wait(60)
        seen = set(ChildChunk.objects.values_list("pk", flat=True))
        assert seen == old_ids  # the replacement is not visible yet
        found = writing_search(user=user, query="孙悟空花果山", top_k=4)["results"]
        assert {c["id"] for r in found for c in r["children"]} <= old_ids
        assert StoryBlock.objects.filter(chapter=chapter, is_dirty=True).count() == 1
    finally:
        resume.set()
        worker.join(60)
    new_ids = set(ChildChunk.objects.values_list("pk", flat=True))
    assert new_ids & old_ids == untouched and new_ids != old_ids


@pytest.mark.django_db(transaction=True)
def test_rechunk_between_child_and_parent_reads_drops_no_hit(
    user, monkeypatch, blocks, small_chunks
):
    """The search reads one snapshot: parents replaced after the child search still load."""
    from writing import search
    from writing.services import book_create, chapter_create

    book = book_create(user=user, title="书")
    chapter = chapter_create(
        user=user, book_id=book.pk, title="一", sequence=1, blocks=[{"content": c} for c in blocks]
    )  # autocommit: the on_commit task ran inline (sync cluster)
    real_vector_search = search.vector_search

    def rechunk():
        try:
            assert indexing.chunk_chapter(chapter.pk, force=True).status == "done"
        finally:
            connection.close()  # the thread's own connection

    def vector_search_then_rechunk(*args, **kwargs):
        found = real_vector_search(*args, **kwargs)
        worker = threading.Thread(target=rechunk)  # commits on its own connection
        worker.start()
        worker.join(60)
        return found

    monkeypatch.setattr(search, "vector_search", vector_search_then_rechunk)
    results = writing_search(user=user, query="孙悟空花果山", top_k=2)["results"]
    assert results
    assert not ParentChunk.objects.filter(pk=results[0]["parent_id"]).exists()  # replaced
