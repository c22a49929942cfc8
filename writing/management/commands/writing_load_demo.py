"""Load 西游记 chapters 1-10 as the demo user's book; the worker (or ``--sync``) chunks them."""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from config.queues import BULK
from rag.embeddings import content_hash
from writing.demo import FIXTURE, parse_chapters
from writing.indexing import chunk_chapter
from writing.models import Book, Chapter, StoryBlock
from writing.tasks import enqueue_chunk

TITLE = "西游记"


class Command(BaseCommand):
    help = (
        "Create the demo user's book 西游记 (chapters 1-10) and queue its chunking for the "
        "worker (--sync: chunk here). Idempotent."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")
        parser.add_argument(
            "--sync", action="store_true", help="chunk in this process instead of the worker"
        )

    def handle(self, *args, **options):
        user, _ = get_user_model().objects.get_or_create(username=options["username"])
        if Book.objects.filter(owner=user, title=TITLE).exists():
            self.stdout.write("writing demo: book already loaded, skipping")
            return
        chapters = parse_chapters(FIXTURE.read_text(encoding="utf-8"))
        started = time.perf_counter()
        with transaction.atomic():
            book = Book.objects.create(owner=user, title=TITLE)
            ids = []
            for seq, (title, paragraphs) in enumerate(chapters, start=1):
                chapter = Chapter.objects.create(book=book, title=title, sequence=seq)
                StoryBlock.objects.bulk_create(
                    StoryBlock(chapter=chapter, order=i, content=p, content_hash=content_hash(p))
                    for i, p in enumerate(paragraphs)
                )
                ids.append(chapter.pk)
                if not options["sync"]:
                    enqueue_chunk(chapter.pk, chapter.version, queue=BULK)  # on commit
        if not options["sync"]:
            # Chunking ~60k characters takes a minute or two of CPU: the worker started by
            # `make run` does it, and the chapters show "pending" until then.
            self.stdout.write(
                f"writing demo: {len(ids)} chapters of {TITLE} loaded; chunking queued "
                "for the worker"
            )
            return
        for chapter_id in ids:
            chunk_chapter(chapter_id)
        self.stdout.write(
            f"writing demo: {len(ids)} chapters of {TITLE} loaded and chunked "
            f"in {time.perf_counter() - started:.1f}s"
        )
