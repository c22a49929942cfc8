from django.db import migrations

from rag.db import CreateHalfvecHnsw


class Migration(migrations.Migration):
    """Replace the vector HNSW index by a halfvec one over active rows only (issue 34).

    Half the index memory and I/O; cancelled and finished activities, which no search reads,
    leave the graph. Building it on a large table takes a while and blocks writes to it
    (measured: 208 s for 200k rows on 2 busy cores): run it in a quiet hour.
    """

    dependencies = [("activities", "0007_verbose_names")]

    operations = [
        migrations.RemoveIndex(model_name="activity", name="activity_embedding_hnsw"),
        CreateHalfvecHnsw(
            "activity", "activity_embedding_half_hnsw", condition="status = 'active'"
        ),
    ]
