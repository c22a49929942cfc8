"""Create the memory app's live settings (MemorySettings), with the values the engine's row held.

Moved from rag.RagSettings (each app owns its live settings): summary_trigger_messages,
summary_max_chars, retention_enabled, retention_days. Runs before rag.0013, which drops them
there; reversed, it copies them back.
"""

from django.db import migrations, models

from config.live import copy_row

FIELDS = ["summary_trigger_messages", "summary_max_chars", "retention_enabled", "retention_days"]


def forward(apps, schema_editor):
    copy_row(apps, "rag.RagSettings", "memory.MemorySettings", FIELDS)


def backward(apps, schema_editor):
    copy_row(apps, "memory.MemorySettings", "rag.RagSettings", FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0012_match_conversations_exact_retry"),
        ("rag", "0012_activities_cut_foreign"),
    ]
    run_before = [("rag", "0013_app_settings_moved")]

    operations = [
        migrations.CreateModel(
            name="MemorySettings",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "updated_at",
                    models.DateTimeField(auto_now=True, verbose_name="updated at"),
                ),
                (
                    "summary_trigger_messages",
                    models.PositiveIntegerField(
                        default=20,
                        help_text="Summarise a chat once this many messages are not yet summarised.",
                        verbose_name="summary trigger messages",
                    ),
                ),
                (
                    "summary_max_chars",
                    models.PositiveIntegerField(
                        default=500, verbose_name="summary maximum characters"
                    ),
                ),
                (
                    "retention_enabled",
                    models.BooleanField(
                        default=True,
                        help_text="Delete chat messages stored more than retention_days ago, once a summary covers them (summaries are kept). Off: keep every message. Report, dry run and run now: admin, Chat memory > Messages > Retention.",
                        verbose_name="retention enabled",
                    ),
                ),
                (
                    "retention_days",
                    models.PositiveIntegerField(
                        default=90,
                        help_text="Age, counted from when the service stored a message, after which retention deletes it (summaries are kept).",
                        verbose_name="retention days",
                    ),
                ),
            ],
            options={
                "verbose_name": "live settings",
                "verbose_name_plural": "live settings",
                "abstract": False,
            },
        ),
        migrations.RunPython(forward, backward),
    ]
