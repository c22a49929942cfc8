"""Benchmark the writing app: indexing speed, edit-to-searchable latency, CMRC retrieval.

Runs against its own database (``bench_writing`` on the embedded server, created when
missing; or ``--database-url``), never the development data::

    python bench/writing.py --datasets ../shared/datasets [--chapters 100] [--cmrc-questions N]
    python bench/writing.py --datasets ../shared/datasets --skip index,cmrc  # edit part only

1. Index the first N chapters of 西游记 (paragraph = story block) synchronously:
   characters per second and time until every chapter is searchable.
2. With a real ``manage.py qcluster`` running on that database, edit one block of one
   chapter (explicit save, then autosave) and time until the new text is searchable;
   count the children that run rebuilt (all must belong to the edited block) and the
   texts it sent to the embedding provider (rows added to the embedding cache: unchanged
   texts come from the cache). With ``--skip index`` the edit runs on a small book of its
   own (``--edit-chapters``) and only the writing-edit section is rewritten.
3. CMRC 2018 dev as retrieval (question -> its paragraph; paragraphs are blocks, one
   chapter per article title): parent hit@1/hit@5 for small-to-big (children, best
   child per parent, raw and size-normalised), whole-parent embeddings, and fixed
   250-character chunks. All three use exact cosine over the same query vectors.

Each section ends with a verdict line per target of the issue.
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
PARTS = ("index", "edit", "cmrc")
EDIT_TARGET_SECONDS = 2.0
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


def load_edit_book(datasets: Path, n_chapters: int) -> dict:
    """Index a small book of its own for the edit part alone (no report section)."""
    from writing.demo import parse_chapters
    from writing.indexing import chunk_chapter

    chapters = parse_chapters((datasets / "novels" / "xiyouji.txt").read_text("utf-8"))
    user = reset_user("bench-writing-edit")
    book, ids = load_book(user, "西游记 (edit)", chapters[:n_chapters])
    for chapter_id in ids:
        chunk_chapter(chapter_id)
    return {"book": book, "ids": ids, "user": user}


def _cache_mark() -> int:
    from django.db.models import Max

    from rag.models import EmbeddingCache

    return EmbeddingCache.objects.aggregate(m=Max("pk"))["m"] or 0


def _edit_counts(chapter_id: int, before_children: set[int], cache_mark: int, block_id: int):
    """Return (children rebuilt, texts embedded, child texts embedded, only that block).

    Texts embedded are the embedding-cache rows added since ``cache_mark``: every text the
    worker sent to the provider is stored there (sentences for the cliffs and child texts);
    a text already in the cache is not sent again.
    """
    from rag.models import EmbeddingCache
    from writing.models import ChildChunk

    rebuilt = ChildChunk.objects.filter(chapter_id=chapter_id).exclude(pk__in=before_children)
    new_hashes = set(
        EmbeddingCache.objects.filter(pk__gt=cache_mark, role="passage").values_list(
            "content_hash", flat=True
        )
    )
    child_hashes = set(rebuilt.values_list("content_hash", flat=True))
    blocks = set(rebuilt.values_list("story_block_id", flat=True))
    return rebuilt.count(), len(new_hashes), len(new_hashes & child_hashes), blocks <= {block_id}


def edit_verdict(explicit: float | None, autosave: float | None, debounce: float) -> str:
    """Return the verdict line of the edit target (searchable <= 2 s after the debounce)."""
    if explicit is None or autosave is None:
        return (
            f"- Target: an edit is searchable <= {EDIT_TARGET_SECONDS:g} s after the debounce: "
            "not met (timeout)."
        )
    after = autosave - debounce
    met = explicit <= EDIT_TARGET_SECONDS and after <= EDIT_TARGET_SECONDS
    return (
        f"- Target: an edit is searchable <= {EDIT_TARGET_SECONDS:g} s after the debounce: "
        f"explicit save {explicit:.2f} s; autosave {autosave:.2f} s - {debounce:g} s debounce "
        f"= {after:.2f} s. {'Met' if met else 'Not met'}."
    )


def cmrc_verdicts(stb: tuple[float, float], whole: tuple[float, float], fixed) -> list[str]:
    """Return the verdict lines of the CMRC target; each pair is (hit@1, hit@5).

    Margins are taken between the figures as printed (3 decimals), so they add up.
    """
    s1, s5 = (round(x, 3) for x in stb)
    w5 = round(whole[1], 3)
    f1, f5 = (round(x, 3) for x in fixed)
    margin = s5 - w5
    lines = [
        "- Target: small-to-big beats whole-parent embeddings on hit@5: "
        f"{s5:.3f} vs {w5:.3f} ({margin:+.3f}). {'Met' if margin > 0 else 'Not met'}."
    ]
    if f5 > s5 or f1 > s1:
        lines.append(
            "- Note: fixed 250-character chunks score higher than small-to-big "
            f"(hit@1 {f1:.3f} vs {s1:.3f}, hit@5 {f5:.3f} vs {s5:.3f})."
        )
    return lines


def _wait_searchable(marker: str, timeout: float) -> float | None:
    from writing.models import ChildChunk

    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if ChildChunk.objects.filter(text__contains=marker).exists():
            return time.perf_counter() - started
        time.sleep(0.05)
    return None


def bench_edit(state: dict, url: str, book_label: str) -> str:
    from writing.models import ChildChunk, StoryBlock
    from writing.selectors import writing_settings_get
    from writing.services import chapter_autosave, chapter_save

    user, chapter_id = state["user"], state["ids"][0]
    env = {**os.environ, "DATABASE_URL": url, "Q_WORKERS_INTERACTIVE": "1"}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    rows, latencies = [], {}
    try:
        time.sleep(3)
        blocks = list(StoryBlock.objects.filter(chapter_id=chapter_id).order_by("order"))
        target = max(
            range(len(blocks)),
            key=lambda i: len(blocks[i].content) < 1400 and len(blocks[i].content),
        )
        block_id = blocks[target].pk
        contents = [b.content for b in blocks]

        def measure(label: str, marker: str, edit) -> None:
            before = set(
                ChildChunk.objects.filter(chapter_id=chapter_id).values_list("pk", flat=True)
            )
            mark = _cache_mark()
            edit()
            latency = _wait_searchable(marker, 120)
            latencies[label] = latency
            rows.append(
                [
                    label,
                    f"{latency:.2f}" if latency else "timeout",
                    *_edit_counts(chapter_id, before, mark, block_id),
                ]
            )

        for label, round_no in (("warm-up save", 0), ("explicit save (PUT)", 1)):
            marker = f"【编辑标记{round_no}{time.time_ns() % 100000}】"
            contents[target] = blocks[target].content + marker
            measure(
                label,
                marker,
                lambda: chapter_save(
                    user=user, chapter_id=chapter_id, blocks=[{"content": c} for c in contents]
                ),
            )
        debounce = float(writing_settings_get().debounce_seconds)
        marker = f"【自动保存{time.time_ns() % 100000}】"
        autosave_label = f"autosave (debounce {debounce:g} s)"
        measure(
            autosave_label,
            marker,
            lambda: chapter_autosave(
                user=user,
                chapter_id=chapter_id,
                blocks=[{"id": block_id, "content": blocks[target].content + marker}],
            ),
        )
    finally:
        worker.terminate()
        worker.wait(30)
    verdict = edit_verdict(
        latencies.get("explicit save (PUT)"), latencies.get(autosave_label), debounce
    )
    return (
        "### Edit one block with the worker running (`manage.py qcluster`, 1 worker)\n\n"
        f"Book: {book_label}. Block {target} of chapter 1 "
        f"({len(blocks[target].content)} characters) edited (a marker appended).\n\n"
        + markdown_table(
            [
                "edit",
                "seconds until searchable",
                "children rebuilt",
                "texts embedded",
                "of them child texts",
                "only that block",
            ],
            rows,
        )
        + "\n\nChildren rebuilt: new child rows of the chapter. Texts embedded: texts the worker "
        "sent to the embedding provider (rows added to the embedding cache): the changed "
        "sentences (for the cliffs) and the changed child texts; unchanged texts of a rebuilt "
        "parent come from the cache. The autosave's task waits in the worker (polling every "
        "0.2 s) until no edit arrived for the debounce, then chunks: its latency is the "
        "debounce plus the chunking time. An explicit save is enqueued at once.\n\n" + verdict
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
    verdicts = cmrc_verdicts(results[0][2:4], results[2][2:4], results[3][2:4])
    scope = f"{len(titles)} articles, {len(paragraphs)} paragraphs, {len(questions)} questions" + (
        " (subset)" if limit_questions or limit_articles else " (full dev set)"
    )
    return (
        f"### CMRC 2018 dev retrieval ({scope})\n\n"
        f"Small-to-big indexing of {sum(map(len, paragraphs))} characters took "
        f"{index_seconds:.1f} s. {multi_block} parents merged several paragraphs "
        "(a hit counts the parent's first paragraph).\n\n"
        + markdown_table(["method", "vectors", "hit@1", "hit@5"], results)
        + "\n\n"
        + "\n".join(verdicts)
    )


def _parts(value: str) -> list[str]:
    parts = [p.strip() for p in value.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown part(s) {unknown}; choose from {PARTS}")
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--chapters", type=int, default=100)
    parser.add_argument(
        "--edit-chapters",
        type=int,
        default=3,
        help="chapters of the edit part's own book when the index part is skipped",
    )
    parser.add_argument("--cmrc-questions", type=int, default=None)
    parser.add_argument("--cmrc-articles", type=int, default=None)
    parser.add_argument(
        "--skip",
        type=_parts,
        action="extend",
        default=[],
        help=f"parts to skip, comma-separated or repeated: {', '.join(PARTS)}",
    )
    args = parser.parse_args()
    url = bench_database_url(DB_NAME, args.database_url)
    setup(url)
    # Each part replaces its own section of docs/BENCHMARKS.md as soon as it finishes.
    if "index" not in args.skip:
        text, state = bench_index(args.datasets, args.chapters)
        write_section("writing-index", "Writing: indexing 西游记", text)
        label = f"the {args.chapters}-chapter 西游记 indexed above"
    else:
        state = None
        label = f"西游记 chapters 1-{args.edit_chapters}, indexed for this part alone"
    if "edit" not in args.skip:
        if state is None:
            state = load_edit_book(args.datasets, args.edit_chapters)
        text = bench_edit(state, url, label)
        write_section("writing-edit", "Writing: edit latency with the worker running", text)
    if "cmrc" not in args.skip:
        text = bench_cmrc(args.datasets, args.cmrc_questions, args.cmrc_articles)
        write_section("writing-cmrc", "Writing: CMRC 2018 retrieval, small-to-big", text)


if __name__ == "__main__":
    main()
