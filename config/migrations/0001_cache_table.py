"""Create the table of the database cache (CACHES), where throttle counts are kept."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    """Run ``createcachetable`` (nothing to do when the cache is Redis; idempotent)."""
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
