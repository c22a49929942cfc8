import sys

from django.core.management.base import BaseCommand

from rag.embeddings import current_model
from rag.reembed import embedded_models, model_counts, reembed_model, stale_queryset


class Command(BaseCommand):
    help = "Re-embed every stored vector that another model made (and rows missing one)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--model-check",
            action="store_true",
            help="Only report vectors per model; exit 1 when any were made by another model.",
        )
        parser.add_argument("--dry-run", action="store_true", help="Show what would be done.")
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument(
            "--only-stale",
            action="store_true",
            help="Skip rows that have no vector yet (their own indexing task will make one).",
        )

    def handle(self, *args, model_check, dry_run, batch_size, only_stale, **options):
        model_name = current_model()
        self.stdout.write(f"Active embedding model: {model_name}")
        if model_check:
            stale_total = 0
            for label, counts in model_counts().items():
                self.stdout.write(f"{label}: " + ", ".join(f"{m}={n}" for m, n in counts.items()))
                stale_total += sum(n for m, n in counts.items() if m not in (model_name, "(none)"))
            self.stdout.write(f"stale vectors: {stale_total}")
            if stale_total:
                sys.exit(1)
            return
        for model in embedded_models():
            label = model._meta.label
            pending = stale_queryset(model, include_missing=not only_stale).count()
            if dry_run:
                self.stdout.write(f"{label}: would re-embed {pending} rows")
                continue
            if not pending:
                self.stdout.write(f"{label}: nothing to do")
                continue

            def progress(done, total, label=label):
                self.stdout.write(f"{label}: {done}/{total}")

            for _ in reembed_model(
                model, batch_size=batch_size, include_missing=not only_stale, progress=progress
            ):
                pass
        self.stdout.write("done" if not dry_run else "dry run: nothing written")
