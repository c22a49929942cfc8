"""Add the retention switch (on by default) and describe retention_days by storage time.

Retention no longer loses messages (it summarises a chat before deleting what the summary
covers, by the time the service stored each message), so it stays on; see docs/memory.md.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rag', '0003_memory_floor_e5'),
    ]

    operations = [
        migrations.AddField(
            model_name='ragsettings',
            name='retention_enabled',
            field=models.BooleanField(default=True, help_text='Delete chat messages stored more than retention_days ago, once a summary covers them (summaries are kept). Off: keep every message. Report, dry run and run now: admin, Chat memory > Messages > Retention.'),
        ),
        migrations.AlterField(
            model_name='ragsettings',
            name='retention_days',
            field=models.PositiveIntegerField(default=90, help_text='Age, counted from when the service stored a message, after which retention deletes it (summaries are kept).'),
        ),
    ]
