from django.db import migrations

from rag.db import InlineVectors


class Migration(migrations.Migration):
    """Keep child chunk vectors in the rows: a chunk's text and segmented copy push its row past
    2 kB, and the exact search over a book's children then read one TOAST value per row."""

    dependencies = [("writing", "0004_chunk_task")]

    operations = [InlineVectors("childchunk", "embedding")]
