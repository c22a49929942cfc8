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
seconds), their ratio (target >= 0.8), and the time until the whole book is searchable. Writes
the section ``writing-index-ratio`` of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
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
from bench._live import load_text  # noqa: E402

DB_NAME = "bench_writing_index"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS)
    parser.add_argument("--chapters", type=int, default=100)
    parser.add_argument("--database-url")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = bench_database_url(DB_NAME, args.database_url)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as `manage.py serve` runs the model
    setup_django(migrate=True)
    from bench.writing import load_book, reset_user
    from rag.embeddings import get_provider
    from rag.models import EmbeddingCache
    from writing.demo import parse_chapters
    from writing.indexing import chunk_chapter
    from writing.models import ChildChunk, ParentChunk

    chapters = parse_chapters((args.datasets / "novels" / "xiyouji.txt").read_text("utf-8"))
    chapters = chapters[: args.chapters]
    chars = sum(len(p) for _, ps in chapters for p in ps)
    user = reset_user("bench-writing-index")
    EmbeddingCache.objects.all().delete()  # the benchmark database only: a cold cache
    book, ids = load_book(user, "西游记", chapters)

    provider = get_provider()
    provider.embed(["热身"], "passage")  # load the model outside the timings
    sent: list[tuple[str, str]] = []
    original = provider.embed

    def recording(texts, role="passage"):
        sent.extend((t, role) for t in texts)
        return original(texts, role)

    load_start = load_text()
    index_seconds = raw_seconds = 0.0
    texts_embedded = chars_embedded = 0
    for n, chapter_id in enumerate(ids, start=1):
        sent.clear()
        provider.embed = recording
        try:
            started = time.perf_counter()
            result = chunk_chapter(chapter_id)
            index_seconds += time.perf_counter() - started
        finally:
            provider.embed = original
        if result.status not in ("done", "unchanged"):
            raise SystemExit(f"chapter {chapter_id}: {result.status}")
        by_role: dict[str, list[str]] = {}
        for text, role in sent:
            by_role.setdefault(role, []).append(text)
        started = time.perf_counter()
        for role, texts in by_role.items():
            for i in range(0, len(texts), provider.max_batch):
                original(texts[i : i + provider.max_batch], role)
        raw_seconds += time.perf_counter() - started
        texts_embedded += len(sent)
        chars_embedded += sum(len(t) for t, _ in sent)
        if n % 10 == 0 or n == len(ids):
            print(
                f"{n}/{len(ids)} chapters: index {index_seconds:.0f}s, raw {raw_seconds:.0f}s",
                flush=True,
            )
    parents = ParentChunk.objects.filter(chapter__book=book).count()
    children = ChildChunk.objects.filter(book=book).count()
    ratio = raw_seconds / index_seconds
    rows = [
        ["chapters", len(ids)],
        ["book characters", chars],
        ["parents / children", f"{parents} / {children}"],
        ["texts sent to the provider (characters)", f"{texts_embedded} ({chars_embedded})"],
        ["time until searchable, whole book (s)", round(index_seconds, 1)],
        ["indexing: book characters per second", round(chars / index_seconds, 1)],
        ["raw embedding of the same texts (s)", round(raw_seconds, 1)],
        ["raw: book characters per second", round(chars / raw_seconds, 1)],
        ["**ratio indexing / raw** (target >= 0.8)", round(ratio, 3)],
    ]
    verdict = "met" if ratio >= 0.8 else "NOT met"
    body = f"""
Cold embedding cache, one process, synchronous `chunk_chapter` per chapter (what the worker
runs), the local model with default settings. The raw figure embeds exactly the texts indexing
sent to the provider (recorded per chapter, same roles, batches of `max_batch`), right after
each chapter, so both see the same machine load.

{markdown_table(["measure", "value"], rows)}

Ratio >= 0.8: **{verdict}**. Load average at the start: {load_start}; at the end: {load_text()}
(2 cores shared with other agents' work).
"""
    print(body)
    write_section("writing-index-ratio", "Writing: indexing against raw embedding", body)


if __name__ == "__main__":
    main()
