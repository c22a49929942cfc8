"""WorkerHeartbeat, moved from rag (rag.0011): state only, it keeps its table rag_workerheartbeat."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("platform", "0003_hash_legacy_tokens"),
        ("rag", "0011_workerheartbeat_to_platform"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="WorkerHeartbeat",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "name",
                            models.CharField(max_length=100, unique=True, verbose_name="name"),
                        ),
                        ("seen_at", models.DateTimeField(verbose_name="seen at")),
                    ],
                    options={
                        "verbose_name": "worker heartbeat",
                        "verbose_name_plural": "worker heartbeats",
                        "db_table": "rag_workerheartbeat",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
