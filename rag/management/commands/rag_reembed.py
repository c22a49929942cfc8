import sys

from django.core.management.base import BaseCommand

from rag.embeddings import current_model
from rag.reembed import (
    embedded_models,
    model_counts,
    reembed_model,
    stale_queryset,
    vector_states,
)


class Command(BaseCommand):
    help = "Re-embed every stored vector that another model made (and rows missing one)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--model-check",
            action="store_true",
            help="Only report, per table, current, stale (another model or dimension) and "
            "missing vectors (none yet: pending or failed); exit 1 when any are stale or "
            "missing (with --only-stale: stale only).",
        )
        parser.add_argument("--dry-run", action="store_true", help="Show what would be done.")
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument(
            "--only-stale",
            action="store_true",
            help="Skip rows that have no vector yet (their own indexing task will make one); "
            "with --model-check, missing vectors are reported but do not fail the check.",
        )

    def handle(self, *args, model_check, dry_run, batch_size, only_stale, **options):
        model_name = current_model()
        self.stdout.write(f"Active embedding model: {model_name}")
        if model_check:
            self._model_check(only_stale=only_stale)
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

    def _model_check(self, *, only_stale: bool) -> None:
        stale = missing = 0
        by_model = model_counts()
        for model in embedded_models():
            label = model._meta.label
            states = vector_states(model)
            stale += states["stale"]
            missing += states["missing"]
            made_by = ", ".join(f"{m}={n}" for m, n in by_model.get(label, {}).items())
            self.stdout.write(
                f"{label}: current={states['current']}, stale={states['stale']}, "
                f"missing={states['missing']} (by model: {made_by or 'no rows'})"
            )
        self.stdout.write(f"stale vectors: {stale}")
        self.stdout.write(f"missing vectors: {missing}")
        if stale or (missing and not only_stale):
            sys.exit(1)
