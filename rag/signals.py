"""Signal receivers of the rag engine (connected in RagConfig.ready)."""

from __future__ import annotations

from django.db import connections
from django.dispatch import Signal

from rag.db import ensure_extensions

# Sent by rag_reembed after each batch it re-embedded (sender: the model class, pks: the rows),
# inside that batch's transaction; apps holding copies of those vectors refresh them.
vectors_reembedded = Signal()


def create_extensions(sender, using="default", **kwargs):
    """Create vector and pg_trgm before any table (``pytest --nomigrations`` needs it)."""
    ensure_extensions(connections[using])
