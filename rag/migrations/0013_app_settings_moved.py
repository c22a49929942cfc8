"""Drop the settings each app now owns from the engine's live settings row.

The apps' migrations that copy them (activities.0009, memory.0013, writing.0007, agent.0007)
name this one in ``run_before``, so the engine's history names no app.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("rag", "0012_activities_cut_foreign")]

    operations = [
        migrations.RemoveField(model_name="ragsettings", name="match_reasons_enabled"),
        migrations.RemoveField(model_name="ragsettings", name="llm_match_reasons"),
        migrations.RemoveField(model_name="ragsettings", name="personal_boost_max"),
        migrations.RemoveField(model_name="ragsettings", name="activities_hybrid"),
        migrations.RemoveField(model_name="ragsettings", name="summary_trigger_messages"),
        migrations.RemoveField(model_name="ragsettings", name="summary_max_chars"),
        migrations.RemoveField(model_name="ragsettings", name="retention_enabled"),
        migrations.RemoveField(model_name="ragsettings", name="retention_days"),
        migrations.RemoveField(model_name="ragsettings", name="cliff_threshold"),
        migrations.RemoveField(model_name="ragsettings", name="cliff_mode"),
        migrations.RemoveField(model_name="ragsettings", name="cliff_percentile"),
        migrations.RemoveField(model_name="ragsettings", name="child_min_chars"),
        migrations.RemoveField(model_name="ragsettings", name="child_max_chars"),
        migrations.RemoveField(model_name="ragsettings", name="parent_max_chars"),
        migrations.RemoveField(model_name="ragsettings", name="parent_min_chars"),
        migrations.RemoveField(model_name="ragsettings", name="context_window_chars"),
        migrations.RemoveField(model_name="ragsettings", name="parent_size_normalization"),
        migrations.RemoveField(model_name="ragsettings", name="debounce_seconds"),
        migrations.RemoveField(model_name="ragsettings", name="interest_spike_count"),
        migrations.RemoveField(model_name="ragsettings", name="interest_spike_days"),
    ]
