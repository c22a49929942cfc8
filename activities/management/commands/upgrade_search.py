from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from activities.backfill import backfill
from activities.models import Activity, IndexState
from rag.db import (
    REQUIRED_EXTENSIONS,
    build_vector_indexes,
    ensure_extensions,
    vector_column_dimensions,
)

APP, MODEL = "activities", "activity"


class Command(BaseCommand):
    help = (
        "Make an existing database searchable in one idempotent step: the vector extension, "
        "the activities migrations, then the embedding column (with the configured dimension) "
        "and every index the migrations define, re-created when missing, then a backfill that "
        "pauses between batches when the provider rate-limits. --dry-run writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Report, change nothing.")
        parser.add_argument("--batch-size", type=int, default=100)
        parser.add_argument("--pause-seconds", type=float, default=5.0)

    def handle(self, *args, dry_run, batch_size, pause_seconds, **options):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT extname FROM pg_extension WHERE extname = ANY(%s)",
                [list(REQUIRED_EXTENSIONS)],
            )
            present = {r[0] for r in cursor.fetchall()}
        missing_ext = [e for e in REQUIRED_EXTENSIONS if e not in present]
        self.stdout.write(
            f"1. extensions present: {', '.join(sorted(present)) or 'none'}"
            + (f"; {'would create' if dry_run else 'creating'}: {', '.join(missing_ext)}")
            * bool(missing_ext)
        )
        if missing_ext and not dry_run:
            ensure_extensions(connection)
        executor = MigrationExecutor(connection)
        # Only what activities needs (its migrations and their dependencies, rag's included).
        targets = [n for n in executor.loader.graph.leaf_nodes() if n[0] == APP]
        plan = executor.migration_plan(targets)
        pending = [f"{m.app_label}.{m.name}" for m, _ in plan]
        self.stdout.write(f"2. pending migrations: {', '.join(pending) or 'none'}")
        if (pending or missing_ext) and dry_run:
            self.stdout.write("3. schema and backfill: need the steps above first (dry run stops)")
            return
        if pending:
            call_command("migrate", APP, interactive=False, stdout=self.stdout)
        # Migrations recorded as applied do not prove the schema is there (an index dropped by
        # hand, a restored dump without indexes, a column of another dimension): verify it.
        self.repair_schema(executor.loader.project_state(), dry_run=dry_run)
        self.stdout.write(f"4. backfill of {Activity.objects.count()} activities")

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

    def repair_schema(self, state, *, dry_run: bool) -> None:
        """Check the embedding column and the migrations' indexes; (re)create what is missing.

        The field and index definitions come from the migrations' project state and go through
        the schema editor, so the DDL is the one ``migrate`` runs.
        """
        model = state.apps.get_model(APP, MODEL)
        table = model._meta.db_table
        field = model._meta.get_field("embedding")
        target = int(settings.RAG_EMBEDDING["DIMENSIONS"])
        verb = "would" if dry_run else "will"
        actions = []
        with connection.cursor() as cursor:
            columns = {
                c.name for c in connection.introspection.get_table_description(cursor, table)
            }
            existing = set(connection.introspection.get_constraints(cursor, table))
        if field.column not in columns:
            self.stdout.write(f"3. column {table}.{field.column}: missing, {verb} add it")
            actions.append("add_column")
        else:
            actual = vector_column_dimensions(connection, table, field.column)
            if actual != target:
                self.stdout.write(
                    f"3. column {table}.{field.column}: vector({actual}), "
                    f"EMBEDDING_DIMENSIONS={target}: {verb} re-create it (its vectors are "
                    "unusable with this model and are embedded again)"
                )
                actions += ["drop_column", "add_column"]
            else:
                self.stdout.write(f"3. column {table}.{field.column}: vector({actual}), ok")
        indexes = state.models[APP, MODEL].options["indexes"]
        if "drop_column" in actions:
            # Indexes on the dropped column go with it and are re-created below.
            existing -= {i.name for i in indexes if field.name in i.fields}
        missing = [i for i in indexes if i.name not in existing]
        for index in missing:
            self.stdout.write(f"   index {index.name}: missing, {verb} create it")
        # The halfvec HNSW index lives outside the model state (rag.db.CreateHalfvecHnsw).
        ann = Activity.ann_index
        ann_missing = "drop_column" in actions or ann.name not in existing
        if ann_missing:
            self.stdout.write(f"   index {ann.name}: missing, {verb} create it")
        if not (missing or ann_missing):
            self.stdout.write(f"   indexes: all {len(indexes) + 1} of the migrations present")
        if dry_run or not (actions or missing or ann_missing):
            return
        with transaction.atomic(), connection.schema_editor() as editor:
            if "drop_column" in actions:
                editor.remove_field(model, field)
            if "add_column" in actions:
                editor.add_field(model, field)
                Activity.objects.update(
                    embedding_model="", embedding_hash="", index_state=IndexState.PENDING
                )
            for index in missing:
                editor.add_index(model, index)
            if ann_missing:
                build_vector_indexes(connection, Activity, target)
        repaired = len(missing) + int(ann_missing)
        self.stdout.write(
            f"   schema repaired: {len(actions)} column step(s), {repaired} index(es)"
        )
