"""Create the agent app's live settings (AgentSettings), with the values the engine's row held.

Moved from rag.RagSettings (each app owns its live settings): interest_spike_count,
interest_spike_days. Runs before rag.0013, which drops them there; reversed, it copies them
back.
"""

from django.db import migrations, models

from config.live import copy_row

FIELDS = ["interest_spike_count", "interest_spike_days"]


def forward(apps, schema_editor):
    copy_row(apps, "rag.RagSettings", "agent.AgentSettings", FIELDS)


def backward(apps, schema_editor):
    copy_row(apps, "agent.AgentSettings", "rag.RagSettings", FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0006_webhook_disabled_reason_code"),
        ("rag", "0012_activities_cut_foreign"),
    ]
    run_before = [("rag", "0013_app_settings_moved")]

    operations = [
        migrations.CreateModel(
            name="AgentSettings",
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
                    "interest_spike_count",
                    models.PositiveIntegerField(default=3, verbose_name="interest spike count"),
                ),
                (
                    "interest_spike_days",
                    models.PositiveIntegerField(default=3, verbose_name="interest spike days"),
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
