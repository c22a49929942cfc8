"""Models used only by the tests of the platform and the rag engine."""

from django.db import models
from pgvector.django import HnswIndex

from rag.models import Embedded
from rag.search import fulltext_index


class Doc(Embedded):
    """A row with an embedding of ``text``, a segmented ``search_text`` and filter columns."""

    category = models.CharField(max_length=50, blank=True, default="")
    n = models.IntegerField(default=0)
    text = models.TextField(blank=True, default="")
    search_text = models.TextField(blank=True, default="")

    class Meta:
        indexes = [
            HnswIndex(
                name="testapp_doc_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            models.Index(fields=["category"], name="testapp_doc_category"),
            models.Index(fields=["n"], name="testapp_doc_n"),
            fulltext_index("search_text", "testapp_doc_search_text_gin"),
        ]

    def __str__(self):
        return self.text[:40]

    def embedding_text(self) -> str:
        return self.text
