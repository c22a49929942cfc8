"""WorkerHeartbeat moves to the platform app (config.models): state only, the table stays."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rag", "0010_verbose_names"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="WorkerHeartbeat")],
            database_operations=[],
        ),
    ]
