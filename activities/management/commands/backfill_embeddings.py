from django.core.management.base import BaseCommand, CommandError

from activities.backfill import backfill


class Command(BaseCommand):
    help = (
        "Embed every activity without a current vector (made by the active model from its "
        "present text). Safe to run twice; --dry-run writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Count, write nothing.")
        parser.add_argument("--force", action="store_true", help="Re-embed every row.")
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument(
            "--pause-on-rate-limit",
            action="store_true",
            help="Pause and retry a batch when the provider rate-limits, instead of failing it.",
        )

    def handle(self, *args, dry_run, force, batch_size, pause_on_rate_limit, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")

        def progress(t):
            done = t.processed + t.skipped + t.errors
            self.stdout.write(
                f"  {done}/{t.total}  processed {t.processed}  skipped {t.skipped}  "
                f"errors {t.errors}"
            )

        prefix = "[dry run] " if dry_run else ""
        totals = backfill(
            force=force,
            dry_run=dry_run,
            batch_size=batch_size,
            pause_on_rate_limit=pause_on_rate_limit,
            progress=progress,
        )
        verb = "would process" if dry_run else "processed"
        self.stdout.write(
            self.style.SUCCESS(
                f"{prefix}{verb} {totals.processed}, skipped {totals.skipped}, "
                f"errors {totals.errors} ({totals.total} rows, {totals.seconds:.1f}s)"
            )
        )
