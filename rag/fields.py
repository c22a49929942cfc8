"""A vector column whose dimension follows the configured embedding provider."""

from django.conf import settings
from pgvector.django import VectorField


def configured_dimensions() -> int:
    """Return the vector dimension of the configured embedding provider."""
    return int(settings.RAG_EMBEDDING["DIMENSIONS"])


class EmbeddingField(VectorField):
    """A ``vector(N)`` column with N taken from ``EMBEDDING_DIMENSIONS``.

    The dimension is left out of migrations on purpose: a provider switch is done
    with ``rag_migrate_dimensions`` (which alters every such column) rather than
    a new migration per deployment.
    """

    def __init__(self, *args, **kwargs):
        kwargs.pop("dimensions", None)
        super().__init__(*args, dimensions=configured_dimensions(), **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs.pop("dimensions", None)
        return name, "rag.fields.EmbeddingField", args, kwargs
