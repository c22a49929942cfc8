"""Create the writing app's live settings (WritingSettings), with the values the engine's row held.

Moved from rag.RagSettings (each app owns its live settings): cliff_threshold, cliff_mode,
cliff_percentile, child_min_chars, child_max_chars, parent_max_chars, parent_min_chars,
context_window_chars, parent_size_normalization, debounce_seconds. Runs before rag.0013, which
drops them there; reversed, it copies them back.
"""

from django.db import migrations, models

from config.live import copy_row

FIELDS = [
    "cliff_threshold",
    "cliff_mode",
    "cliff_percentile",
    "child_min_chars",
    "child_max_chars",
    "parent_max_chars",
    "parent_min_chars",
    "context_window_chars",
    "parent_size_normalization",
    "debounce_seconds",
]


def forward(apps, schema_editor):
    copy_row(apps, "rag.RagSettings", "writing.WritingSettings", FIELDS)


def backward(apps, schema_editor):
    copy_row(apps, "writing.WritingSettings", "rag.RagSettings", FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("writing", "0006_verbose_names"),
        ("rag", "0012_activities_cut_foreign"),
    ]
    run_before = [("rag", "0013_app_settings_moved")]

    operations = [
        migrations.CreateModel(
            name="WritingSettings",
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
                    "cliff_threshold",
                    models.FloatField(
                        default=0.3,
                        help_text="Semantic-cliff threshold (0-1); see docs/CHUNKING.md.",
                        verbose_name="cliff threshold",
                    ),
                ),
                (
                    "cliff_mode",
                    models.CharField(
                        choices=[
                            ("drop", "drop (scaled valley depth)"),
                            ("percentile", "percentile of distances"),
                        ],
                        default="drop",
                        max_length=16,
                        verbose_name="cliff mode",
                    ),
                ),
                (
                    "cliff_percentile",
                    models.FloatField(
                        default=90.0,
                        help_text="Used when the mode is percentile.",
                        verbose_name="cliff percentile",
                    ),
                ),
                (
                    "child_min_chars",
                    models.PositiveIntegerField(
                        default=200, verbose_name="child minimum characters"
                    ),
                ),
                (
                    "child_max_chars",
                    models.PositiveIntegerField(
                        default=300, verbose_name="child maximum characters"
                    ),
                ),
                (
                    "parent_max_chars",
                    models.PositiveIntegerField(
                        default=1500, verbose_name="parent maximum characters"
                    ),
                ),
                (
                    "parent_min_chars",
                    models.PositiveIntegerField(
                        default=150, verbose_name="parent minimum characters"
                    ),
                ),
                (
                    "context_window_chars",
                    models.PositiveIntegerField(
                        default=1000, verbose_name="context window characters"
                    ),
                ),
                (
                    "parent_size_normalization",
                    models.BooleanField(
                        default=False,
                        help_text="Multiply child scores by sqrt(median parent size / parent size). Off by default: with multilingual-e5-small the factor swamps the similarity (docs/writing.md).",
                        verbose_name="parent size normalisation",
                    ),
                ),
                (
                    "debounce_seconds",
                    models.FloatField(default=3.0, verbose_name="debounce seconds"),
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
