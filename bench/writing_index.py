"""Writing indexing speed against the raw embedding throughput of the same texts, same run.

One command::

    python bench/writing_index.py --datasets ../shared/datasets [--chapters 100]

On its own database ``bench_writing_index`` (or ``--database-url``), with a cold embedding cache:
the first ``--chapters`` chapters of 西游记 are stored, then, chapter by chapter, indexed with
``chunk_chapter`` (plan, embed, jieba, write: what the worker runs) while every text it sends to
the embedding provider is recorded; right after each chapter the same texts go through the
provider directly (``provider.embed`` in batches of ``max_batch``, same role). Interleaving the
two per chapter lets a change in machine load hit both alike. Reported: characters per second
of indexing, of the raw embedding of the texts indexing had to embed (book characters / raw
seconds), their ratio (target >= 0.8), and the time until the whole book is searchable. The
raw pass doubles the run; ``--raw-every N`` re-embeds only every Nth chapter (1st, N+1th, ...)
and takes the ratio over those chapters alone, while every chapter is still indexed and timed.
Writes the section ``writing-index-ratio`` of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
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
    spin_note,
    write_section,
)
from bench._live import load_text  # noqa: E402

DB_NAME = "bench_writing_index"


def dry_run_texts(chapters) -> dict[str, tuple[int, int]]:
    """Plan every chapter with a stand-in embedder; return the texts each rule would embed.

    Keys: ``every parent`` (sentences of every parent of two or more sentences, the rule before
    ``single_child``) and ``as shipped``; values: (distinct sentence texts, their characters).
    The stand-in gives each text a fixed pseudo-random vector, so both rules see the same
    cliffs. Children are the same under both rules (checked here).
    """
    import zlib

    import numpy as np

    from writing import chunking

    sent: list[str] = []

    def stand_in(texts, **kwargs):
        sent.extend(texts)
        return [
            np.random.default_rng(zlib.crc32(t.encode())).normal(size=8).tolist() for t in texts
        ]

    rules = {"every parent": lambda spans, cfg: len(spans) < 2, "as shipped": None}
    real_embed, real_single = chunking.embed_texts, chunking.single_child
    cfg = chunking.ChunkConfig.from_live()
    counts, children = {}, {}
    try:
        chunking.embed_texts = stand_in
        for label, rule in rules.items():
            chunking.single_child = rule or real_single
            sent.clear()
            made = []
            for _, paragraphs in chapters:
                blocks = [chunking.BlockText(i, p) for i, p in enumerate(paragraphs)]
                plan = chunking.plan_chapter(blocks, [], cfg)
                made += [c.text for p in plan.build for c in p.children]
            distinct = list(dict.fromkeys(sent))
            counts[label] = (len(distinct), sum(len(t) for t in distinct))
            children[label] = made
    finally:
        chunking.embed_texts, chunking.single_child = real_embed, real_single
    if children["every parent"] != children["as shipped"]:
        raise SystemExit("single_child changed the children: a bug")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--chapters", type=int, default=100)
    parser.add_argument("--database-url")
    parser.add_argument(
        "--raw-every",
        type=int,
        default=1,
        help="re-embed raw only every Nth chapter (the ratio is taken over those chapters)",
    )
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    from rag.providers.local import openmp_defaults

    openmp_defaults()  # the model's OpenMP spin as `manage.py serve` sets it (shipped default)
    setup_django(migrate=True)
    from bench.writing import load_book, reset_user
    from rag.embeddings import get_provider
    from rag.models import EmbeddingCache
    from writing.demo import parse_chapters
    from writing.indexing import chunk_chapter
    from writing.models import ChildChunk, ParentChunk

    chapters = parse_chapters((args.datasets / "novels" / "xiyouji.txt").read_text("utf-8"))
    chapters = chapters[: args.chapters]
    chapter_chars = [sum(len(p) for p in ps) for _, ps in chapters]
    user = reset_user("bench-writing-index")
    EmbeddingCache.objects.all().delete()  # the benchmark database only: a cold cache
    book, ids = load_book(user, "西游记", chapters)
    dry = dry_run_texts(chapters)
    print("sentence texts to embed (dry run):", dry, flush=True)

    provider = get_provider()
    provider.embed(["热身"], "passage")  # load the model outside the timings
    sent: list[tuple[str, str]] = []
    original = provider.embed

    def recording(texts, role="passage"):
        sent.extend((t, role) for t in texts)
        return original(texts, role)

    load_start = load_text()
    index_seconds = raw_seconds = sampled_index_seconds = 0.0
    texts_embedded = chars_embedded = sampled_chars = sampled_chapters = 0
    # SIGTERM (and Ctrl-C) end the run early: the section then reports the chapters done.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    done, done_seconds = 0, 0.0
    try:
        for n, chapter_id in enumerate(ids, start=1):
            sent.clear()
            provider.embed = recording
            try:
                started = time.perf_counter()
                result = chunk_chapter(chapter_id)
                chapter_seconds = time.perf_counter() - started
                index_seconds += chapter_seconds
            finally:
                provider.embed = original
            if result.status not in ("done", "unchanged"):
                raise SystemExit(f"chapter {chapter_id}: {result.status}")
            texts_embedded += len(sent)
            chars_embedded += sum(len(t) for t, _ in sent)
            if (n - 1) % args.raw_every == 0:
                by_role: dict[str, list[str]] = {}
                for text, role in sent:
                    by_role.setdefault(role, []).append(text)
                started = time.perf_counter()
                for role, texts in by_role.items():
                    for i in range(0, len(texts), provider.max_batch):
                        original(texts[i : i + provider.max_batch], role)
                raw_seconds += time.perf_counter() - started
                sampled_index_seconds += chapter_seconds
                sampled_chars += chapter_chars[n - 1]
                sampled_chapters += 1
            if n % 5 == 0 or n == len(ids):
                print(
                    f"{n}/{len(ids)} chapters: index {index_seconds:.0f}s; sampled "
                    f"{sampled_chapters} chapters: index {sampled_index_seconds:.0f}s, "
                    f"raw {raw_seconds:.0f}s; load {load_text()}",
                    flush=True,
                )
            done, done_seconds = n, index_seconds
    except KeyboardInterrupt:
        print(f"stopped after {done} of {len(ids)} chapters", flush=True)
    parents = ParentChunk.objects.filter(chapter__book=book).count()
    children = ChildChunk.objects.filter(book=book).count()
    if not sampled_chapters or not done:
        raise SystemExit("stopped before a chapter was indexed and re-embedded")
    index_seconds = done_seconds  # the chapters that finished, a stopped one left out
    ratio = raw_seconds / sampled_index_seconds
    sample = (
        "every chapter"
        if args.raw_every == 1
        else f"every {args.raw_every}th chapter ({sampled_chapters} of {done}, "
        f"{sampled_chars} characters)"
    )
    whole = done == len(ids)
    book_scope = "whole book" if whole else f"first {done} chapters"
    chars_done = sum(chapter_chars[:done])
    rows = [
        ["chapters indexed", f"{done} of {len(ids)}"],
        ["characters of those chapters", chars_done],
        ["parents / children", f"{parents} / {children}"],
        ["texts sent to the provider (characters)", f"{texts_embedded} ({chars_embedded})"],
        [f"**time until searchable, {book_scope} (s)**", round(index_seconds, 1)],
        [
            f"indexing: book characters per second, {book_scope}",
            round(chars_done / index_seconds, 1),
        ],
        ["chapters re-embedded raw", sample],
        ["indexing of those chapters (s)", round(sampled_index_seconds, 1)],
        ["raw embedding of the texts those chapters sent (s)", round(raw_seconds, 1)],
        [
            "indexing / raw: book characters per second",
            f"{sampled_chars / sampled_index_seconds:.1f} / {sampled_chars / raw_seconds:.1f}",
        ],
        ["**ratio indexing / raw** (target >= 0.8)", round(ratio, 3)],
    ]
    verdict = "met" if ratio >= 0.8 else "NOT met"
    (before_n, before_c), (after_n, after_c) = dry["every parent"], dry["as shipped"]
    dry_text = (
        f"Sentence embeddings for the cliffs, all {len(ids)} chapters planned with a stand-in "
        f"embedder (no model, independent of load): {before_n} texts ({before_c} characters) "
        "when every parent's sentences are embedded, the rule before this run; "
        f"{after_n} ({after_c} characters) as shipped, where a parent shorter than two "
        "children (`single_child`) embeds none, since its one child does not depend on the "
        "cliffs (the children are identical under both rules, checked by the run)."
    )
    early = (
        ""
        if whole
        else f"\n**Stopped early** (SIGTERM) after {done} of {len(ids)} chapters: the time until "
        "the whole book is searchable was not measured in this run.\n"
    )
    body = f"""
Cold embedding cache, one process, synchronous `chunk_chapter` per chapter (what the worker
runs), the local model with default settings ({spin_note()}). The raw figure embeds
exactly the texts indexing sent to the provider (recorded per chapter, same roles, batches
of `max_batch`), right after each chapter, so both see the same machine load; the ratio is
taken over the chapters re-embedded ({sample}), the time until searchable over the {book_scope}.
{early}
{markdown_table(["measure", "value"], rows)}

{dry_text}

Ratio >= 0.8: **{verdict}**. Load average at the start: {load_start}; at the end: {load_text()}
(2 cores shared).
"""
    print(body)
    write_section("writing-index-ratio", "Writing: indexing against raw embedding", body)


if __name__ == "__main__":
    main()
