"""Create the activities app's live settings (ActivitySettings), with the values the engine's row
held.

Moved from rag.RagSettings (each app owns its live settings): match_reasons_enabled,
llm_match_reasons, personal_boost_max, activities_hybrid. Runs before rag.0013, which drops them
there; reversed, it copies them back.
"""

from django.db import migrations, models

from config.live import copy_row

FIELDS = ["match_reasons_enabled", "llm_match_reasons", "personal_boost_max", "activities_hybrid"]


def forward(apps, schema_editor):
    copy_row(apps, "rag.RagSettings", "activities.ActivitySettings", FIELDS)


def backward(apps, schema_editor):
    copy_row(apps, "activities.ActivitySettings", "rag.RagSettings", FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("activities", "0008_halfvec_partial_hnsw"),
        ("rag", "0012_activities_cut_foreign"),
    ]
    run_before = [("rag", "0013_app_settings_moved")]

    operations = [
        migrations.CreateModel(
            name="ActivitySettings",
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
                    "match_reasons_enabled",
                    models.BooleanField(
                        default=True,
                        help_text="Explain each activity search result.",
                        verbose_name="match reasons",
                    ),
                ),
                (
                    "llm_match_reasons",
                    models.BooleanField(
                        default=False,
                        help_text="Write match reasons with the LLM (when one is configured).",
                        verbose_name="LLM match reasons",
                    ),
                ),
                (
                    "personal_boost_max",
                    models.FloatField(
                        default=0.2,
                        help_text="Largest personalisation boost, as a fraction of the score (<= 0.2).",
                        verbose_name="maximum personal boost",
                    ),
                ),
                (
                    "activities_hybrid",
                    models.BooleanField(
                        default=True,
                        help_text="Re-rank activity search candidates by RRF of the dense rank, a jieba full text over title, tags, type and vibes, and the kind and mood cues the query names.",
                        verbose_name="hybrid activity ranking",
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
