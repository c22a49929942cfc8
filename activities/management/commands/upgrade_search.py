from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection

from activities.backfill import backfill
from activities.models import Activity


class Command(BaseCommand):
    help = (
        "Make an existing database searchable in one idempotent step: the vector extension, "
        "the embedding column and indexes (migrations), then a backfill that pauses between "
        "batches when the provider rate-limits."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Report, change nothing.")
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument("--pause-seconds", type=float, default=5.0)

    def handle(self, *args, dry_run, batch_size, pause_seconds, **options):
        from django.db.migrations.executor import MigrationExecutor

        from rag.db import ensure_extensions

        with connection.cursor() as cursor:
            cursor.execute("SELECT extname FROM pg_extension WHERE extname IN ('vector','pg_trgm')")
            present = {r[0] for r in cursor.fetchall()}
        self.stdout.write(f"1. extensions present: {', '.join(sorted(present)) or 'none'}")
        if not dry_run:
            ensure_extensions(connection)
        executor = MigrationExecutor(connection)
        # Only what activities needs (its migrations and their dependencies, rag's included).
        targets = [n for n in executor.loader.graph.leaf_nodes() if n[0] == "activities"]
        plan = executor.migration_plan(targets)
        pending = [f"{m.app_label}.{m.name}" for m, _ in plan]
        self.stdout.write(f"2. pending migrations: {', '.join(pending) or 'none'}")
        if pending and not dry_run:
            call_command("migrate", "activities", interactive=False, stdout=self.stdout)
        if pending and dry_run:
            self.stdout.write("3. backfill: needs the migrations first (dry run stops here)")
            return
        self.stdout.write(f"3. backfill of {Activity.objects.count()} activities")

        def progress(t):
            self.stdout.write(
                f"  {t.processed + t.skipped + t.errors}/{t.total}  processed {t.processed}  "
                f"skipped {t.skipped}  errors {t.errors}  pauses {t.pauses}"
            )

        totals = backfill(
            dry_run=dry_run,
            batch_size=batch_size,
            pause_on_rate_limit=True,
            pause_seconds=pause_seconds,
            progress=progress,
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{'[dry run] would process' if dry_run else 'processed'} {totals.processed}, "
                f"skipped {totals.skipped}, errors {totals.errors}, pauses {totals.pauses}"
            )
        )
