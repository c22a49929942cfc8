"""Index the stand-in summaries apart: ``(user, chat_id, ts) WHERE kind = 'summary'``.

Every memory search without a ``kind`` asks for the user's stand-in summaries
(memory.stand_ins.stand_in_summaries). Without this index PostgreSQL read every turn of the
user to check its kind: 12 ms of each hybrid search for a user with 1,000 turns (issue 34,
measured in the 1M-message benchmark database). A user has few summaries, so the index is
small; on the partitioned table it is created on each partition.
"""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0014_partition_messages_by_user"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="chatmessage",
            index=models.Index(
                condition=models.Q(("kind", "summary")),
                fields=["user", "chat_id", "ts"],
                name="memory_msg_user_summaries",
            ),
        ),
    ]
