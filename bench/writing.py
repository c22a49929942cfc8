"""Benchmark the writing app: indexing speed, edit-to-searchable latency, CMRC retrieval.

Runs against its own database (``bench_writing`` on the embedded server, created when
missing; or ``--database-url``), never the development data::

    python bench/writing.py --datasets ../shared/datasets [--chapters 100] [--cmrc-questions N]

1. Index the first N chapters of 西游记 (paragraph = story block) synchronously:
   characters per second and time until every chapter is searchable.
2. With a real ``manage.py qcluster`` running on that database, edit one block of one
   chapter (explicit save, then autosave) and time until the new text is searchable;
   count the children created by that run (all must belong to the edited block).
3. CMRC 2018 dev as retrieval (question -> its paragraph; paragraphs are blocks, one
   chapter per article title): parent hit@1/hit@5 for small-to-big (children, best
   child per parent, raw and size-normalised), whole-parent embeddings, and fixed
   250-character chunks. All three use exact cosine over the same query vectors.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import (  # noqa: E402
    DEFAULT_DATASETS,
    ROOT,
    bench_database_url,
    markdown_table,
    setup_django,
    write_section,
)

DB_NAME = "bench_writing"
HEADING = re.compile(r"^第[一二三四五六七八九十百零〇]+回")


def setup(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    setup_django(migrate=True)


def reset_user(username: str):
    from django.contrib.auth import get_user_model

    from writing.models import Book

    user, _ = get_user_model().objects.get_or_create(username=username)
    Book.objects.filter(owner=user).delete()
    return user


def load_book(user, title: str, chapters: list[tuple[str, list[str]]]):
    from rag.embeddings import content_hash
    from writing.models import Book, Chapter, StoryBlock

    book = Book.objects.create(owner=user, title=title)
    ids = []
    for seq, (name, paragraphs) in enumerate(chapters, start=1):
        chapter = Chapter.objects.create(book=book, title=name, sequence=seq)
        StoryBlock.objects.bulk_create(
            StoryBlock(chapter=chapter, order=i, content=p, content_hash=content_hash(p))
            for i, p in enumerate(paragraphs)
        )
        ids.append(chapter.pk)
    return book, ids


def bench_index(datasets: Path, n_chapters: int) -> tuple[str, dict]:
    from writing.demo import parse_chapters
    from writing.indexing import chunk_chapter
    from writing.models import ChildChunk, ParentChunk

    chapters = parse_chapters((datasets / "novels" / "xiyouji.txt").read_text("utf-8"))
    chapters = chapters[:n_chapters]
    chars = sum(len(p) for _, ps in chapters for p in ps)
    user = reset_user("bench-writing")
    from rag.models import EmbeddingCache

    EmbeddingCache.objects.all().delete()  # the benchmark database only: a cold cache
    book, ids = load_book(user, "西游记", chapters)
    started = time.perf_counter()
    for chapter_id in ids:
        chunk_chapter(chapter_id)
    seconds = time.perf_counter() - started
    parents = ParentChunk.objects.filter(chapter__book=book).count()
    children = ChildChunk.objects.filter(book=book).count()
    rows = [
        ["chapters", len(ids)],
        ["characters", chars],
        ["parents / children", f"{parents} / {children}"],
        ["time until searchable (s)", round(seconds, 1)],
        ["characters per second", round(chars / seconds, 1)],
    ]
    text = (
        "### Indexing 西游记 (cold embedding cache, one process, synchronous)\n\n"
        + markdown_table(["measure", "value"], rows)
    )
    return text, {"book": book, "ids": ids, "user": user}


def _wait_searchable(marker: str, timeout: float) -> float | None:
    from writing.models import ChildChunk

    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if ChildChunk.objects.filter(text__contains=marker).exists():
            return time.perf_counter() - started
        time.sleep(0.05)
    return None


def bench_edit(state: dict, url: str) -> str:
    from rag.live import get_settings
    from writing.models import ChildChunk
    from writing.services import chapter_autosave, chapter_save

    user, chapter_id = state["user"], state["ids"][0]
    env = {**os.environ, "DATABASE_URL": url, "Q_WORKERS": "1"}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    rows = []
    try:
        time.sleep(3)
        from writing.models import StoryBlock

        blocks = list(StoryBlock.objects.filter(chapter_id=chapter_id).order_by("order"))
        target = max(
            range(len(blocks)),
            key=lambda i: len(blocks[i].content) < 1400 and len(blocks[i].content),
        )
        contents = [b.content for b in blocks]
        for label, round_no in (("warm-up save", 0), ("explicit save (PUT)", 1)):
            marker = f"【编辑标记{round_no}{time.time_ns() % 100000}】"
            contents[target] = blocks[target].content + marker
            before = set(
                ChildChunk.objects.filter(chapter_id=chapter_id).values_list("pk", flat=True)
            )
            chapter_save(
                user=user, chapter_id=chapter_id, blocks=[{"content": c} for c in contents]
            )
            latency = _wait_searchable(marker, 120)
            after = ChildChunk.objects.filter(chapter_id=chapter_id).exclude(pk__in=before)
            new_blocks = set(after.values_list("story_block_id", flat=True))
            rows.append(
                [
                    label,
                    f"{latency:.2f}" if latency else "timeout",
                    after.count(),
                    new_blocks <= {blocks[target].pk},
                ]
            )
        debounce = get_settings().debounce_seconds
        marker = f"【自动保存{time.time_ns() % 100000}】"
        before = set(ChildChunk.objects.filter(chapter_id=chapter_id).values_list("pk", flat=True))
        chapter_autosave(
            user=user,
            chapter_id=chapter_id,
            blocks=[{"id": blocks[target].pk, "content": blocks[target].content + marker}],
        )
        latency = _wait_searchable(marker, 90)
        after = ChildChunk.objects.filter(chapter_id=chapter_id).exclude(pk__in=before)
        new_blocks = set(after.values_list("story_block_id", flat=True))
        rows.append(
            [
                f"autosave (debounce {debounce:g} s)",
                f"{latency:.2f}" if latency else "timeout",
                after.count(),
                new_blocks <= {blocks[target].pk},
            ]
        )
    finally:
        worker.terminate()
        worker.wait(30)
    return (
        "### Edit one block with the worker running (`manage.py qcluster`, 1 worker)\n\n"
        f"Block {target} of chapter 1 ({len(blocks[target].content)} characters) edited.\n\n"
        + markdown_table(
            ["edit", "seconds until searchable", "children re-embedded", "only that block"], rows
        )
        + "\n\nThe autosave's task waits in the worker (polling every 0.2 s) until no edit "
        "arrived for the debounce, then chunks: its latency is the debounce plus the "
        "chunking time. An explicit save is enqueued at once."
    )


def _hits(order_lists, gold) -> tuple[float, float]:
    h1 = sum(1 for ranked, g in zip(order_lists, gold, strict=True) if ranked[:1] == [g])
    h5 = sum(1 for ranked, g in zip(order_lists, gold, strict=True) if g in ranked[:5])
    return h1 / len(gold), h5 / len(gold)


def _rank_groups(sims, owners, n_groups: int, k: int = 5):
    """Rank groups by the best score of their members, for every query row."""
    import numpy as np

    best = np.full((sims.shape[0], n_groups), -np.inf, dtype=np.float32)
    for j, g in enumerate(owners):
        np.maximum(best[:, g], sims[:, j], out=best[:, g])
    return [list(np.argsort(-row)[:k]) for row in best], best


def bench_cmrc(datasets: Path, limit_questions: int | None, limit_articles: int | None) -> str:
    import numpy as np

    from rag.embeddings import embed_texts
    from writing.indexing import chunk_chapter
    from writing.models import ChildChunk, ParentChunk, ParentSegment, StoryBlock

    data = json.loads((datasets / "cmrc2018_dev.json").read_text("utf-8"))["data"]
    articles: dict[str, list[dict]] = {}
    for article in data:
        articles.setdefault(article["title"], []).extend(article["paragraphs"])
    titles = list(articles)[: limit_articles or None]
    user = reset_user("bench-cmrc")
    chapters = [(t, [p["context"] for p in articles[t]]) for t in titles]
    book, ids = load_book(user, "CMRC 2018 dev", chapters)
    t0 = time.perf_counter()
    for chapter_id in ids:
        chunk_chapter(chapter_id)
    index_seconds = time.perf_counter() - t0
    # Paragraph index = (chapter position, block order) in load order.
    para_index, paragraphs, questions, gold = {}, [], [], []
    for ci, title in enumerate(titles):
        for bi, para in enumerate(articles[title]):
            para_index[(ci, bi)] = len(paragraphs)
            paragraphs.append(para["context"])
            for qa in para["qas"]:
                questions.append(qa["question"])
                gold.append(len(paragraphs) - 1)
    if limit_questions:
        step = max(1, len(questions) // limit_questions)
        questions, gold = questions[::step][:limit_questions], gold[::step][:limit_questions]
    chapter_pos = {cid: i for i, cid in enumerate(ids)}
    block_para = {
        b.pk: para_index[(chapter_pos[b.chapter_id], b.order)]
        for b in StoryBlock.objects.filter(chapter__book=book)
    }
    parent_para = {
        p: block_para[b]
        for p, b in ParentSegment.objects.filter(
            parent__chapter__book=book, position=0
        ).values_list("parent_id", "block_id")
    }
    multi_block = ParentSegment.objects.filter(parent__chapter__book=book, position__gt=0).count()
    q = np.asarray(embed_texts(questions, role="query"), dtype=np.float32)
    results = []
    # Small-to-big: children, each mapped to its parent's (first) paragraph.
    children = list(ChildChunk.objects.filter(book=book).values_list("parent_id", "embedding"))
    child_vecs = np.asarray([np.asarray(v, dtype=np.float32) for _, v in children])
    sizes = dict(ParentChunk.objects.filter(chapter__book=book).values_list("pk", "size"))
    parent_ids = list(sizes)
    pos = {p: i for i, p in enumerate(parent_ids)}
    ranked, best = _rank_groups(q @ child_vecs.T, [pos[p] for p, _ in children], len(parent_ids))
    to_para = lambda lists: [[parent_para[parent_ids[i]] for i in r] for r in lists]  # noqa: E731
    results.append(
        ["small-to-big (children, raw score)", len(children), *_hits(to_para(ranked), gold)]
    )
    median = float(np.median(list(sizes.values())))
    factor = np.asarray([np.sqrt(median / sizes[p]) for p in parent_ids], dtype=np.float32)
    normalised = best * factor[None, :]
    ranked_n = [list(np.argsort(-row)[:5]) for row in normalised]
    results.append(
        ["small-to-big (children, size-normalised)", len(children), *_hits(to_para(ranked_n), gold)]
    )
    # Whole parents embedded.
    parent_texts = dict(ParentChunk.objects.filter(chapter__book=book).values_list("pk", "text"))
    pv = np.asarray(embed_texts([parent_texts[p] for p in parent_ids]), dtype=np.float32)
    ranked_p = [list(np.argsort(-row)[:5]) for row in q @ pv.T]
    results.append(["whole-parent embeddings", len(parent_ids), *_hits(to_para(ranked_p), gold)])
    # Fixed 250-character chunks of each paragraph.
    chunks, owners = [], []
    for i, text in enumerate(paragraphs):
        for start in range(0, len(text), 250):
            chunks.append(text[start : start + 250])
            owners.append(i)
    cv = np.asarray(embed_texts(chunks), dtype=np.float32)
    ranked_f, _ = _rank_groups(q @ cv.T, owners, len(paragraphs))
    results.append(
        ["fixed 250-character chunks", len(chunks), *_hits([list(r) for r in ranked_f], gold)]
    )
    scope = f"{len(titles)} articles, {len(paragraphs)} paragraphs, {len(questions)} questions" + (
        " (subset)" if limit_questions or limit_articles else " (full dev set)"
    )
    return (
        f"### CMRC 2018 dev retrieval ({scope})\n\n"
        f"Small-to-big indexing of {sum(map(len, paragraphs))} characters took "
        f"{index_seconds:.1f} s. {multi_block} parents merged several paragraphs "
        "(a hit counts the parent's first paragraph).\n\n"
        + markdown_table(["method", "vectors", "hit@1", "hit@5"], results)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--chapters", type=int, default=100)
    parser.add_argument("--cmrc-questions", type=int, default=None)
    parser.add_argument("--cmrc-articles", type=int, default=None)
    parser.add_argument("--skip", action="append", default=[], choices=["index", "edit", "cmrc"])
    args = parser.parse_args()
    url = bench_database_url(DB_NAME, args.database_url)
    setup(url)
    # Each part replaces its own section of docs/BENCHMARKS.md as soon as it finishes.
    if "index" not in args.skip:
        text, state = bench_index(args.datasets, args.chapters)
        write_section("writing-index", "Writing: indexing 西游记", text)
        if "edit" not in args.skip:
            text = bench_edit(state, url)
            write_section("writing-edit", "Writing: edit latency with the worker running", text)
    if "cmrc" not in args.skip:
        text = bench_cmrc(args.datasets, args.cmrc_questions, args.cmrc_articles)
        write_section("writing-cmrc", "Writing: CMRC 2018 retrieval, small-to-big", text)


if __name__ == "__main__":
    main()
