"""Add ``ChatMessage.speaker``: who said a turn, as the client names them (blank: not given).

Issue 30: a question about a conversation between people usually names one of them, and the
service stored only ``role``. On the partitioned table the column is added to every partition;
its constant default makes this a catalogue change, no rewrite of the rows.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0015_summaries_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="chatmessage",
            name="speaker",
            field=models.CharField(blank=True, default="", max_length=100, verbose_name="speaker"),
        ),
    ]
