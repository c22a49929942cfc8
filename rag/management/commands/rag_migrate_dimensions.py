from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection, transaction

from rag.checks import embedding_columns
from rag.db import build_vector_indexes, vector_column_dimensions


class Command(BaseCommand):
    help = (
        "Change every embedding column to EMBEDDING_DIMENSIONS (clearing its vectors), "
        "as step 2 of switching providers; then run rag_reembed."
    )

    # The system checks fail with rag.E001 exactly when this command is needed (the columns
    # disagree with EMBEDDING_DIMENSIONS), so they must not stop it from running.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args, dry_run, **options):
        target = int(settings.RAG_EMBEDDING["DIMENSIONS"])
        qn = connection.ops.quote_name
        changes = []
        for model, field in embedding_columns():
            table = model._meta.db_table
            actual = vector_column_dimensions(connection, table, field.column)
            if actual is None or actual == target:
                self.stdout.write(f"{model._meta.label}.{field.name}: vector({actual}), unchanged")
                continue
            changes.append((model, field, table, actual))
        if dry_run:
            for model, field, _table, actual in changes:
                self.stdout.write(
                    f"{model._meta.label}.{field.name}: would change vector({actual}) -> "
                    f"vector({target}) and clear its vectors"
                )
            return
        # One transaction: every column switches, or none does. Indexes on the
        # column are rebuilt by ALTER TYPE (empty, since every value becomes NULL).
        with transaction.atomic(), connection.cursor() as cursor:
            for model, field, table, actual in changes:
                cursor.execute(
                    f"ALTER TABLE {qn(table)} ALTER COLUMN {qn(field.column)} "
                    f"TYPE vector({target}) USING NULL"
                )
                model._default_manager.update(embedding_model="", embedding_hash="")
                # A halfvec index casts to the old dimension: built again at the new one.
                build_vector_indexes(connection, model, target)
                self.stdout.write(
                    f"{model._meta.label}.{field.name}: vector({actual}) -> vector({target})"
                )
        self.stdout.write(
            f"{len(changes)} column(s) changed. Now run: python manage.py rag_reembed"
        )
