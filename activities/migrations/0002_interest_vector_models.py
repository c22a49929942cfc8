"""Record the model of interest vectors stored before entries carried one.

The personaliser ignores an entry whose ``model`` is not the active one, so an entry without a
model would lose its boost. An entry gets its activity's ``embedding_model`` only when its vector
is still that activity's vector (so the model is known); any other entry is left as it is and
is replaced the next time the user rates or the activity is indexed.
"""

import numpy as np
from django.db import migrations


def add_models(apps, schema_editor):
    Activity = apps.get_model("activities", "Activity")
    WorkingMemory = apps.get_model("activities", "WorkingMemory")
    for memory in WorkingMemory.objects.filter(data__has_key="interestVectors").iterator():
        entries = list((memory.data or {}).get("interestVectors") or [])
        legacy = [e for e in entries if not e.get("model") and e.get("embedding")]
        if not legacy:
            continue
        rows = {
            a.pk: a
            for a in Activity.objects.filter(
                pk__in=[e.get("activityId") for e in legacy], embedding__isnull=False
            ).only("pk", "embedding", "embedding_model")
        }
        changed = False
        for entry in legacy:
            row = rows.get(entry.get("activityId"))
            if row is None or not row.embedding_model:
                continue
            stored = np.asarray(entry["embedding"], dtype=np.float32)
            current = np.asarray(row.embedding, dtype=np.float32)
            if stored.shape == current.shape and np.allclose(stored, current, atol=1e-6):
                entry["model"] = row.embedding_model
                changed = True
        if changed:
            memory.data = {**memory.data, "interestVectors": entries}
            memory.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [("activities", "0001_initial")]

    operations = [migrations.RunPython(add_models, migrations.RunPython.noop)]
