"""A webhook's disabled_reason becomes a code, translated when read (it was English text)."""

from django.db import migrations, models


def reasons_to_codes(apps, schema_editor):
    """Replace the English text the service stored ("disabled after N ...") by its code."""
    Webhook = apps.get_model("agent", "Webhook")
    Webhook.objects.exclude(disabled_reason="").exclude(
        disabled_reason="consecutive_failures"
    ).update(disabled_reason="consecutive_failures")


class Migration(migrations.Migration):
    dependencies = [
        ("agent", "0005_verbose_names"),
    ]

    operations = [
        migrations.AlterField(
            model_name="webhook",
            name="disabled_reason",
            field=models.CharField(
                blank=True,
                choices=[("consecutive_failures", "consecutive failed deliveries")],
                default="",
                max_length=200,
                verbose_name="disabled reason",
            ),
        ),
        migrations.RunPython(reasons_to_codes, migrations.RunPython.noop),
    ]
