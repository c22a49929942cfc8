"""Reads of the rag engine: which providers are configured."""

from __future__ import annotations

from django.conf import settings

from rag.embeddings import get_provider


def embedding_info() -> dict:
    """Describe the configured embedding provider without loading its model."""
    provider = get_provider()
    return {
        "provider": provider.name,
        "model": provider.model,
        "dimensions": provider.dimensions,
    }


def llm_info() -> dict:
    """Describe the configured LLM provider."""
    cfg = settings.RAG_LLM
    enabled = cfg.get("PROVIDER") not in (None, "", "none")
    return {
        "provider": cfg.get("PROVIDER") or "none",
        "enabled": enabled,
        "model": cfg.get("MODEL") if enabled else None,
    }
