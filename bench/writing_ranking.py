"""Benchmark writing search ranking on CMRC 2018 dev through ``writing_search`` as shipped.

Each question is asked through ``writing.search.writing_search`` (the product's code path:
dense children, grouping by parent, each StoryBlock once, the full-text bonus) and counts a
hit when the returned parent belongs to the question's article (one chapter per article
title, paragraphs are story blocks). The same questions are asked again with the full-text
bonus off (``LEXICAL_WEIGHT = 0``, the ranking before issue 11) and with the first issue-11 bonus
(``ts_rank_cd``, weight 0.03), so the gain is visible.

The first ``--articles`` articles are loaded into a book of the benchmark's own database
(``bench_writing_ranking`` on the embedded server, or ``--database-url``) and chunked once;
a later run reuses the chunked chapters. Without ``--index-seconds`` every article is indexed
and every question asked; with it, indexing stops after that long and only the questions whose
chapter is chunked are scored (the output says how many). ``SEARCH_TIME_BUDGET_SECONDS`` is set
to 60 (default 3) so a loaded machine does not degrade queries to full text::

    python bench/writing_ranking.py --datasets ../shared/datasets [--articles 250]
        [--index-seconds 600] [--database-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._common import (  # noqa: E402
    DEFAULT_DATASETS,
    bench_database_url,
    markdown_table,
    setup_django,
    write_section,
)

DB_NAME = "bench_writing_ranking"
USERNAME = "bench-cmrc-ranking"


def load(datasets: Path, n_articles: int) -> tuple[list[str], dict[str, list[dict]]]:
    data = json.loads((datasets / "cmrc2018_dev.json").read_text("utf-8"))["data"]
    articles: dict[str, list[dict]] = {}
    for article in data:
        articles.setdefault(article["title"], []).extend(article["paragraphs"])
    return list(articles)[:n_articles], articles


def ensure_book(titles, articles, index_seconds: float | None):
    """Return the book (created when missing) after chunking its pending chapters in order."""
    from django.contrib.auth import get_user_model

    from bench.writing import load_book
    from writing.indexing import chunk_chapter
    from writing.models import Book, Chapter, ChildChunk

    user, _ = get_user_model().objects.get_or_create(username=USERNAME)
    title = f"CMRC 2018 dev, first {len(titles)} articles"
    book = Book.objects.filter(owner=user, title=title).first()
    if book is None:
        chapters = [(t, [p["context"] for p in articles[t]]) for t in titles]
        book, _ = load_book(user, title, chapters)
    started = time.perf_counter()
    ids = list(Chapter.objects.filter(book=book).order_by("sequence").values_list("pk", flat=True))
    while True:
        done = set(ChildChunk.objects.filter(book=book).values_list("chapter_id", flat=True))
        pending = [c for c in ids if c not in done]
        if not pending:
            break
        for chapter_id in pending:
            if index_seconds is not None and time.perf_counter() - started > index_seconds:
                return user, book
            # "locked": another process (a second indexer) holds it; the next round waits.
            chunk_chapter(chapter_id)
        time.sleep(1)
    return user, book


def ts_rank_bonus(children_qs, query: str, parent_ids) -> dict[int, float]:
    """Return the full-text bonus used before the word-weight one (for comparison only).

    ``{parent_id: best ts_rank_cd among its children / the query's best}`` over the 15 best
    full-text hits (3 x top 5), as ``writing.search`` computed it with weight 0.03.
    """
    from rag.search import fulltext_search

    hits, _ = fulltext_search(children_qs, query, k=15, default_operator="or", drop_stopwords=True)
    best: dict[int, float] = {}
    for hit in hits:
        best[hit.obj.parent_id] = max(best.get(hit.obj.parent_id, 0.0), float(hit.score))
    top = max(best.values(), default=0.0)
    return {p: v / top for p, v in best.items()} if top > 0 else {}


RANKINGS = (
    # (label, LEXICAL_WEIGHT, _lexical); None keeps what writing.search ships
    ("dense only (word bonus off, before issue 11)", 0.0, None),
    ("ts_rank_cd bonus 0.03 (the first issue-11 ranking)", 0.03, ts_rank_bonus),
    ("as shipped", None, None),
)


def evaluate(
    user, book, titles, articles, shard=(0, 1), deadline: float | None = None
) -> tuple[list[list[int]], int]:
    """Ask every question of the chunked chapters under each ranking, question by question.

    Return ``[[hit@1 count, hit@5 count, degraded], ...]`` per ranking and the number of
    questions asked. ``shard`` ``(i, n)`` asks only the questions numbered i modulo n. SIGTERM
    (or Ctrl-C) or ``deadline`` (a ``time.monotonic()`` value) stops early: the counts then
    cover the questions asked so far (all rankings alike, against the whole index).
    """
    import writing.search as search
    from writing.models import Chapter, ChildChunk

    done = set(ChildChunk.objects.filter(book=book).values_list("chapter_id", flat=True))
    by_sequence = dict(Chapter.objects.filter(book=book).values_list("sequence", "pk"))
    counts = [[0, 0, 0] for _ in RANKINGS]
    n = number = 0
    shipped = (search.LEXICAL_WEIGHT, search._lexical)
    try:
        for seq, title in enumerate(titles, start=1):
            chapter_id = by_sequence.get(seq)
            if chapter_id not in done:
                continue
            for paragraph in articles[title]:
                for qa in paragraph["qas"]:
                    number += 1
                    if (number - 1) % shard[1] != shard[0]:
                        continue
                    if deadline is not None and time.monotonic() > deadline:
                        raise KeyboardInterrupt
                    answers = []
                    for (_, weight, lexical), _ in zip(RANKINGS, counts, strict=True):
                        search.LEXICAL_WEIGHT = shipped[0] if weight is None else weight
                        search._lexical = lexical or shipped[1]
                        answers.append(
                            search.writing_search(
                                user=user, query=qa["question"], book=book.pk, top_k=5
                            )
                        )
                    for answer, count in zip(answers, counts, strict=True):
                        chapters = [r["chapter_id"] for r in answer["results"]]
                        count[0] += chapters[:1] == [chapter_id]
                        count[1] += chapter_id in chapters
                        count[2] += bool(answer["degraded"])
                    n += 1
                    if n % 200 == 0:
                        print(n, "questions:", [c[0] / n for c in counts], flush=True)
    except KeyboardInterrupt:
        print(f"stopped after {n} questions", flush=True)
    finally:
        search.LEXICAL_WEIGHT, search._lexical = shipped
    return counts, n


def evaluate_shard(job: tuple) -> tuple[list[list[int]], int]:
    """Evaluate one shard in a fresh (spawned) process: see :func:`evaluate`."""
    datasets, n_articles, user_id, book_id, shard, deadline_in = job
    deadline = time.monotonic() + deadline_in if deadline_in is not None else None
    setup_django()
    from django.contrib.auth import get_user_model

    import writing.search as search
    from writing.models import Book

    memoised_query_vectors(search)
    titles, articles = load(datasets, n_articles)
    user = get_user_model().objects.get(pk=user_id)
    return evaluate(user, Book.objects.get(pk=book_id), titles, articles, shard, deadline)


def memoised_query_vectors(search) -> None:
    """Embed each question once for every ranking: the vector does not depend on the ranking."""
    real = search.embed_query
    vectors: dict[str, list[float]] = {}

    def embed_query(query, **kwargs):
        if query not in vectors:
            vectors[query] = real(query, **kwargs)
        return vectors[query]

    search.embed_query = embed_query


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--articles", type=int, default=250)
    parser.add_argument("--index-seconds", type=float, default=None)
    parser.add_argument(
        "--workers", type=int, default=1, help="processes asking the questions (shards)"
    )
    parser.add_argument(
        "--eval-seconds", type=float, default=None, help="stop asking after this long"
    )
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    # Under heavy machine load the 3 s search budget would degrade queries to full text.
    os.environ.setdefault("SEARCH_TIME_BUDGET_SECONDS", "60")
    setup_django(migrate=True)
    import writing.search as search

    print(
        "SEARCH_TIME_BUDGET_SECONDS",
        os.environ["SEARCH_TIME_BUDGET_SECONDS"],
        "(default 3; so a loaded machine does not degrade queries); other settings as shipped",
        flush=True,
    )

    titles, articles = load(args.datasets, args.articles)
    user, book = ensure_book(titles, articles, args.index_seconds)
    memoised_query_vectors(search)
    t0 = time.perf_counter()
    if args.workers > 1:
        # Fresh processes: the local model refuses to run in a child forked after it ran here.
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        from django.db import connections

        connections.close_all()
        jobs = [
            (args.datasets, args.articles, user.pk, book.pk, (i, args.workers), args.eval_seconds)
            for i in range(args.workers)
        ]
        with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
            shards = list(pool.map(evaluate_shard, jobs))
        n = sum(part for _, part in shards)
        counts = [
            [sum(shard[0][r][c] for shard in shards) for c in range(3)]
            for r in range(len(RANKINGS))
        ]
    else:
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        deadline = time.monotonic() + args.eval_seconds if args.eval_seconds else None
        counts, n = evaluate(user, book, titles, articles, deadline=deadline)
    rows = []
    for (label, _, _), (h1, h5, degraded) in zip(RANKINGS, counts, strict=True):
        if label == "as shipped":
            label = f"as shipped (word-weight bonus {search.LEXICAL_WEIGHT:g})"
        rows.append([label, f"{h1 / max(n, 1):.3f}", f"{h5 / max(n, 1):.3f}", n, degraded])
        print(label, f"hit@1 {h1 / max(n, 1):.4f} hit@5 {h5 / max(n, 1):.4f} n={n}", flush=True)
    print(f"{time.perf_counter() - t0:.0f} s", flush=True)
    from writing.models import ChildChunk

    chunked = ChildChunk.objects.filter(book=book).values("chapter_id").distinct().count()
    done = set(ChildChunk.objects.filter(book=book).values_list("chapter_id", flat=True))
    by_sequence = dict(book.chapters.values_list("sequence", "pk"))
    total = sum(
        len(paragraph["qas"])
        for seq, t in enumerate(titles, start=1)
        if by_sequence.get(seq) in done
        for paragraph in articles[t]
    )
    scope = (
        f"all {chunked} articles"
        if chunked == len(titles)
        else f"the first {chunked} chunked articles (of {len(titles)} loaded)"
    )
    asked = (
        "every question of them"
        if n == total
        else f"{n} of their {total} questions (**stopped early**: the first ones of each of "
        f"{args.workers} interleaved shards)"
    )
    body = (
        f"{scope.capitalize()} of CMRC 2018 dev indexed in one book; {asked} asked through "
        "`writing_search` (top 5) under each ranking; a hit is a parent of the question's "
        "article. Default live settings, with one change: `SEARCH_TIME_BUDGET_SECONDS` 60 "
        "(default 3) so a loaded machine does not degrade queries to full text (the degraded "
        "column counts answers that did). Each question is embedded once and its vector reused "
        "by every ranking.\n\n"
        + markdown_table(["ranking", "hit@1", "hit@5", "questions", "degraded"], rows)
    )
    print(body)
    write_section(
        "writing-ranking",
        "Writing: search ranking on CMRC 2018 dev (writing_search as shipped)",
        body,
    )


if __name__ == "__main__":
    main()
