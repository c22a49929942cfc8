"""Reads of the rag engine: its live settings, which providers are configured."""

from __future__ import annotations

from django.conf import settings

from config import live
from rag.embeddings import get_provider
from rag.models import RagSettings


def rag_settings_get() -> RagSettings:
    """Return the engine's live settings (config.live: cached per process, dropped on save)."""
    return live.read(RagSettings)


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
