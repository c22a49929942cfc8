from django.db import migrations

from rag.db import InlineVectors


class Migration(migrations.Migration):
    """Keep activity vectors in the rows: exact (filtered) search reads no TOAST table."""

    dependencies = [("activities", "0005_index_task")]

    operations = [InlineVectors("activity", "embedding")]
