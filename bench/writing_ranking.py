"""Benchmark writing search ranking on CMRC 2018 dev through ``writing_search`` as shipped.

Each question is asked through ``writing.search.writing_search`` (the product's code path:
dense children, grouping by parent, each StoryBlock once, the full-text bonus) and counts a
hit when the returned parent belongs to the question's article (one chapter per article
title, paragraphs are story blocks). The same questions are asked again with the full-text
bonus off (``LEXICAL_WEIGHT = 0``, the ranking before issue 11) and with the first issue-11 bonus
(``ts_rank_cd``, weight 0.03), so the gain is visible.

Split (``--split``, default ``test``): the articles of CMRC 2018 dev are cut by a fixed rule
(``TUNED_ARTICLES``): the first 440 of the file are dev, the other 407 test. Every tuning of
the writing ranking so far ran on that prefix (the word-weight bonus on the first 892
questions, of the first 253 articles, over a partial index of about 420; the ``ts_rank_cd``
bonus on the first 88), so the test articles' paragraphs and questions were never used. Only
the split's articles are indexed (the retrieval corpus) and asked. Beside the service, the same
questions are scored by the bare model on the same articles: whole paragraphs embedded, and
fixed 250-character windows of each paragraph (best window per article); a hit is the
question's article, for every method.

The first ``--articles`` articles of the split are loaded into a book of the benchmark's own
database (``bench_writing_ranking`` on the embedded server, or ``--database-url``) and chunked
once; a later run reuses the chunked chapters (``--index-only`` chunks and stops).
``--every K`` asks every K-th question of the split only (a fixed subsample; the output says
so). Without ``--index-seconds`` every article is indexed
and every question asked; with it, indexing stops after that long and only the questions whose
chapter is chunked are scored (the output says how many). ``SEARCH_TIME_BUDGET_SECONDS`` is set
to 60 (default 3) so a loaded machine does not degrade queries to full text::

    python bench/writing_ranking.py --datasets ../shared/datasets [--split test] [--every 1]
        [--rankings dense,shipped] [--articles 250] [--index-seconds 600] [--database-url URL]
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
    every_kth,
    markdown_table,
    setup_django,
    write_section,
)

DB_NAME = "bench_writing_ranking"
USERNAME = "bench-cmrc-ranking"
# The fixed dev/test split, by article (in file order, one chapter per article title). Dev: the
# first TUNED_ARTICLES articles, which hold everything earlier tuning touched (docs/writing.md,
# Search; docs/BENCHMARKS.md, section writing-ranking): the word-weight bonus was chosen on the
# first 892 questions (articles 1-253) over a partial index of about 420 articles, the
# ts_rank_cd bonus on the first 88 articles. Test: the other 407 articles (1,667 questions),
# never used in tuning. Tune on dev only.
TUNED_ARTICLES = 440
SPLITS = ("dev", "test", "all")
WINDOW = 250  # characters of a bare fixed window
TARGET_MARGIN = 0.01  # service hit@1 over the better bare baseline, on the test split


def load(
    datasets: Path, n_articles: int | None, split: str = "all"
) -> tuple[list[str], dict[str, list[dict]]]:
    """Return the split's article titles (the first ``n_articles``) and every article."""
    data = json.loads((datasets / "cmrc2018_dev.json").read_text("utf-8"))["data"]
    articles: dict[str, list[dict]] = {}
    for article in data:
        articles.setdefault(article["title"], []).extend(article["paragraphs"])
    titles = split_titles(list(articles), split)
    return titles[:n_articles] if n_articles else titles, articles


def split_titles(titles: list[str], split: str) -> list[str]:
    """Return the titles of ``split`` (the fixed rule above), in file order."""
    return {
        "dev": titles[:TUNED_ARTICLES],
        "test": titles[TUNED_ARTICLES:],
        "all": titles,
    }[split]


def book_title(split: str, n_titles: int) -> str:
    if split == "all":
        return f"CMRC 2018 dev, first {n_titles} articles"
    return f"CMRC 2018 dev, {split} split, first {n_titles} articles"


def ensure_book(titles, articles, index_seconds: float | None, split: str = "all"):
    """Return the book (created when missing) after chunking its pending chapters in order."""
    from django.contrib.auth import get_user_model

    from bench.writing import load_book
    from writing.indexing import chunk_chapter
    from writing.models import Book, Chapter, ChildChunk

    user, _ = get_user_model().objects.get_or_create(username=USERNAME)
    title = book_title(split, len(titles))
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
RANKING_KEYS = ("dense", "ts_rank", "shipped")  # --rankings names, in the order of RANKINGS


def bare_baselines(titles, articles, indexed, asked, query_vector) -> list[list]:
    """Score the same questions with the bare model on the split's articles, no service code.

    Two corpora over the articles the service indexed (positions ``indexed``), each embedded
    as passages (the provider through ``rag.embeddings``, exact cosine): every paragraph
    whole, and every paragraph cut into fixed 250-character windows.
    An article's score is its best vector's; a hit is the question's article. Return rows
    ``[label, vectors, hit@1, hit@3, hit@5]``.
    """
    import numpy as np

    from bench.writing import _rank_groups
    from rag.embeddings import embed_texts

    paragraphs, owners = [], []
    for position in indexed:
        for paragraph in articles[titles[position]]:
            paragraphs.append(paragraph["context"])
            owners.append(position)
    windows, window_owners = [], []
    for text, owner in zip(paragraphs, owners, strict=True):
        for start in range(0, len(text), WINDOW):
            windows.append(text[start : start + WINDOW])
            window_owners.append(owner)
    q = np.asarray([query_vector(question) for _, _, question in asked], dtype=np.float32)
    gold = [position for position, _, _ in asked]
    rows = []
    for label, texts, own in (
        ("bare model, whole paragraphs", paragraphs, owners),
        (f"bare model, fixed {WINDOW}-character windows", windows, window_owners),
    ):
        started = time.perf_counter()
        vectors = np.asarray(embed_texts(texts), dtype=np.float32)
        ranked, _ = _rank_groups(q @ vectors.T, own, len(titles))
        hits = [
            sum(g in list(r)[:k] for r, g in zip(ranked, gold, strict=True)) / max(len(gold), 1)
            for k in (1, 3, 5)
        ]
        print(label, hits, f"{time.perf_counter() - started:.0f} s", flush=True)
        rows.append([label, len(texts), *hits])
    return rows


def chosen_rankings(keys: tuple[str, ...] | None) -> list[tuple]:
    """Return the RANKINGS named by ``keys`` (None: all), in their order."""
    return [r for r, key in zip(RANKINGS, RANKING_KEYS, strict=True) if not keys or key in keys]


def asked_questions(book, titles, articles, every: int = 1) -> list[tuple[int, int, str]]:
    """Return ``(article position, chapter id, question)`` of the chunked chapters' questions,
    in file order, every ``every``-th one (the fixed subsample)."""
    from writing.models import Chapter, ChildChunk

    done = set(ChildChunk.objects.filter(book=book).values_list("chapter_id", flat=True))
    by_sequence = dict(Chapter.objects.filter(book=book).values_list("sequence", "pk"))
    out = []
    for seq, title in enumerate(titles, start=1):
        chapter_id = by_sequence.get(seq)
        if chapter_id not in done:
            continue
        for paragraph in articles[title]:
            out += [(seq - 1, chapter_id, qa["question"]) for qa in paragraph["qas"]]
    return every_kth(out, every)


def evaluate(
    user,
    book,
    titles,
    articles,
    shard=(0, 1),
    deadline: float | None = None,
    every: int = 1,
    keys: tuple[str, ...] | None = None,
) -> tuple[list[list[int]], int]:
    """Ask the questions of the chunked chapters under each ranking, question by question.

    Return ``[[hit@1 count, hit@3 count, hit@5 count, degraded], ...]`` per ranking (those
    of ``keys``) and the number of questions asked. ``every`` keeps every k-th question of the
    split; ``shard`` ``(i, n)`` asks only the kept questions numbered i modulo n. SIGTERM
    (or Ctrl-C) or ``deadline`` (a ``time.monotonic()`` value) stops early: the counts then
    cover the questions asked so far (all rankings alike, against the whole index).
    """
    import writing.search as search

    rankings = chosen_rankings(keys)
    counts = [[0, 0, 0, 0] for _ in rankings]
    n = 0
    shipped = (search.LEXICAL_WEIGHT, search._lexical)
    try:
        for number, (_, chapter_id, question) in enumerate(
            asked_questions(book, titles, articles, every)
        ):
            if number % shard[1] != shard[0]:
                continue
            if deadline is not None and time.monotonic() > deadline:
                raise KeyboardInterrupt
            answers = []
            for _, weight, lexical in rankings:
                search.LEXICAL_WEIGHT = shipped[0] if weight is None else weight
                search._lexical = lexical or shipped[1]
                answers.append(
                    search.writing_search(user=user, query=question, book=book.pk, top_k=5)
                )
            for answer, count in zip(answers, counts, strict=True):
                chapters = [r["chapter_id"] for r in answer["results"]]
                count[0] += chapters[:1] == [chapter_id]
                count[1] += chapter_id in chapters[:3]
                count[2] += chapter_id in chapters
                count[3] += bool(answer["degraded"])
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
    datasets, n_articles, split, every, keys, user_id, book_id, shard, deadline_in = job
    deadline = time.monotonic() + deadline_in if deadline_in is not None else None
    setup_django()
    from django.contrib.auth import get_user_model

    import writing.search as search
    from writing.models import Book

    memoised_query_vectors(search)
    titles, articles = load(datasets, n_articles, split)
    user = get_user_model().objects.get(pk=user_id)
    book = Book.objects.get(pk=book_id)
    return evaluate(user, book, titles, articles, shard, deadline, every, keys)


def memoised_query_vectors(search) -> None:
    """Embed each question once for every ranking: the vector does not depend on the ranking."""
    real = search.embed_query
    vectors: dict[str, list[float]] = {}

    def embed_query(query, **kwargs):
        if query not in vectors:
            vectors[query] = real(query, **kwargs)
        return vectors[query]

    search.embed_query = embed_query


def _keys(value: str) -> tuple[str, ...]:
    keys = tuple(k.strip() for k in value.split(",") if k.strip())
    unknown = [k for k in keys if k not in RANKING_KEYS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown ranking(s) {unknown}; of {RANKING_KEYS}")
    return keys


def verdict(split: str, complete: bool, shipped_h1: float | None, bare: list[list]) -> str:
    """Say whether the shipped ranking's hit@1 beats the better bare baseline by the margin.

    Judged on the test split only; on part of it (a subsample) the verdict says so.
    """
    if shipped_h1 is None or not bare:
        return "not judged (the shipped ranking or the bare baselines not run)"
    best = max(bare, key=lambda row: row[2])
    s1, b1 = round(shipped_h1, 3), round(best[2], 3)
    margin = s1 - b1
    line = f"{s1:.3f} vs {b1:.3f} ({best[0]}), {margin:+.3f}"
    if split != "test":
        return f"not judged (the test split only): {line}"
    met = "met" if margin >= TARGET_MARGIN - 1e-9 else "NOT met"
    return f"**{met}**{'' if complete else ' on the subsample above'}: {line}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--database-url", default=None)
    parser.add_argument(
        "--split",
        choices=SPLITS,
        default="test",
        help="articles to index and ask: dev (tuning), test (published) or all",
    )
    parser.add_argument(
        "--articles", type=int, default=None, help="the first N articles of the split only"
    )
    parser.add_argument(
        "--every", type=int, default=1, help="ask every K-th question of the split (subsample)"
    )
    parser.add_argument(
        "--rankings",
        type=_keys,
        default=None,
        help="comma-separated subset of " + ", ".join(RANKING_KEYS) + " (default: all)",
    )
    parser.add_argument("--no-bare", action="store_true", help="skip the bare-model baselines")
    parser.add_argument("--index-only", action="store_true", help="chunk the book and stop")
    parser.add_argument("--no-write", action="store_true", help="do not update BENCHMARKS.md")
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

    titles, articles = load(args.datasets, args.articles, args.split)
    in_split = len(split_titles(list(articles), args.split))
    print(f"split {args.split}: {len(titles)} of its {in_split} articles", flush=True)
    t_index = time.perf_counter()
    user, book = ensure_book(titles, articles, args.index_seconds, args.split)
    print(f"index ready in {time.perf_counter() - t_index:.0f} s", flush=True)
    if args.index_only:
        return
    memoised_query_vectors(search)
    rankings = chosen_rankings(args.rankings)
    t0 = time.perf_counter()
    if args.workers > 1:
        # Fresh processes: the local model refuses to run in a child forked after it ran here.
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        from django.db import connections

        connections.close_all()
        jobs = [
            (
                args.datasets,
                args.articles,
                args.split,
                args.every,
                args.rankings,
                user.pk,
                book.pk,
                (i, args.workers),
                args.eval_seconds,
            )
            for i in range(args.workers)
        ]
        with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
            shards = list(pool.map(evaluate_shard, jobs))
        n = sum(part for _, part in shards)
        counts = [
            [sum(shard[0][r][c] for shard in shards) for c in range(4)]
            for r in range(len(rankings))
        ]
    else:
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        deadline = time.monotonic() + args.eval_seconds if args.eval_seconds else None
        counts, n = evaluate(
            user, book, titles, articles, deadline=deadline, every=args.every, keys=args.rankings
        )
    service_seconds = time.perf_counter() - t0
    print(f"service rankings: {service_seconds:.0f} s", flush=True)
    asked = asked_questions(book, titles, articles, args.every)
    rows = []
    shipped_h1 = None
    for (label, _, _), (h1, h3, h5, degraded) in zip(rankings, counts, strict=True):
        if label == "as shipped":
            label = f"service as shipped (word-weight bonus {search.LEXICAL_WEIGHT:g})"
            shipped_h1 = h1 / max(n, 1)
        else:
            label = f"service, {label}"
        rows.append([label, "", h1 / max(n, 1), h3 / max(n, 1), h5 / max(n, 1), n, degraded])
        print(label, f"hit@1 {h1 / max(n, 1):.4f} hit@5 {h5 / max(n, 1):.4f} n={n}", flush=True)
    bare = []
    if not args.no_bare:
        t1 = time.perf_counter()
        # The same vectors as the service's queries (memoised; cached ones come back as stored).
        indexed = sorted({pos for pos, _, _ in asked_questions(book, titles, articles)})
        bare = bare_baselines(titles, articles, indexed, asked, search.embed_query)
        rows += [[*row, len(asked), ""] for row in bare]
        print(f"bare baselines: {time.perf_counter() - t1:.0f} s", flush=True)
    from writing.models import ChildChunk

    chunked = ChildChunk.objects.filter(book=book).values("chapter_id").distinct().count()
    children = ChildChunk.objects.filter(book=book).count()
    for row in rows:
        if row[0].startswith("service"):
            row[1] = f"{children} children"
    total = len(asked_questions(book, titles, articles))
    scope = (
        f"all {chunked} articles"
        if chunked == len(titles)
        else f"the first {chunked} chunked articles (of {len(titles)} loaded)"
    )
    complete = chunked == in_split and n == total and args.every == 1
    if args.every > 1:
        asked_text = (
            f"every {args.every}th question of them ({len(asked)} of {total}: a fixed "
            "deterministic subsample, questions 0, k, 2k, ... in file order)"
        )
    else:
        asked_text = "every question of them"
    if n != len(asked):
        asked_text += (
            f"; **stopped early**: the service answered {n} of these (the first ones of each "
            f"of {args.workers} interleaved shards)"
        )
    body = (
        f"Split: **{args.split}**. Fixed rule (`TUNED_ARTICLES`): dev = the first "
        f"{TUNED_ARTICLES} articles of cmrc2018_dev.json (all earlier tuning ran on that "
        "prefix: the word-weight bonus on the first 892 questions, articles 1-253, over a "
        "partial index of about 420 articles; the ts_rank_cd bonus on the first 88); test = "
        f"the other {len(split_titles(list(articles), 'test'))} articles, never used in tuning. "
        "Tune on dev only.\n\n"
        f"{scope.capitalize()} of the {args.split} split indexed in one book (the retrieval "
        f"corpus of every method); {asked_text} asked. Service: `writing_search` (top 5) as "
        "shipped, small-to-big (children searched, parents returned), default live settings "
        "with one change: `SEARCH_TIME_BUDGET_SECONDS` 60 (default 3) so a loaded machine does "
        "not degrade queries to full text (the degraded column counts answers that did). Bare "
        "model: the same e5 vectors of the questions, exact cosine against every paragraph "
        f"embedded whole, or against fixed {WINDOW}-character windows of each paragraph (an "
        "article scores its best vector). A hit is the question's article (one chapter per "
        "article).\n\n"
        + markdown_table(
            ["method", "vectors", "hit@1", "hit@3", "hit@5", "questions", "degraded"], rows
        )
        + f"\n\nTarget: the service's hit@1 on the test split at least {TARGET_MARGIN} above "
        "the better of the two bare baselines: "
        + verdict(args.split, complete, shipped_h1, bare)
        + f". Service answered in {service_seconds:.0f} s ({args.workers} process(es))."
    )
    print(body)
    if not args.no_write:
        write_section(
            "writing-ranking",
            f"Writing: search ranking on CMRC 2018 ({args.split} split), service beside the "
            "bare model",
            body,
        )


if __name__ == "__main__":
    main()
