"""Move tasks queued under the old single queue ("semmem") to the interactive queue.

The queue's name is also django-q2's signing salt, so each payload is re-signed, not only
re-keyed: nothing queued before the split into interactive and bulk is lost.
"""

from django.conf import settings
from django.db import migrations

OLD = "semmem"
NEW = "interactive"


def move_tasks(apps, schema_editor):
    from django_q import core_signing as signing
    from django_q.signing import PickleSerializer

    OrmQ = apps.get_model("django_q", "OrmQ")
    for row in OrmQ.objects.filter(key=OLD):
        try:
            task = signing.loads(
                row.payload, key=settings.SECRET_KEY, salt=OLD, serializer=PickleSerializer
            )
        except signing.BadSignature:
            continue  # signed with another key: leave it where it is
        row.payload = signing.dumps(
            task, key=settings.SECRET_KEY, salt=NEW, serializer=PickleSerializer
        )
        row.key = NEW
        row.save(update_fields=["payload", "key"])


class Migration(migrations.Migration):
    dependencies = [
        ("rag", "0004_retention_enabled"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(move_tasks, migrations.RunPython.noop)]
