"""The configured LLM provider, built once per process from ``settings.RAG_LLM``."""

from __future__ import annotations

import threading

from django.conf import settings
from django.core.signals import setting_changed

from rag.providers.llm import LLMProvider, LLMUnavailable, build_llm_provider

__all__ = ["LLMUnavailable", "get_llm", "reset_llm"]

_lock = threading.Lock()
_llm: LLMProvider | None = None


def get_llm() -> LLMProvider:
    """Return the LLM provider (``.enabled`` is false when none is configured)."""
    global _llm
    with _lock:
        if _llm is None:
            _llm = build_llm_provider(settings.RAG_LLM)
        return _llm


def reset_llm(**kwargs) -> None:
    """Forget the provider (settings changed, or a test pointed it at a fake server)."""
    global _llm
    with _lock:
        _llm = None


def _on_setting_changed(setting, **kwargs):
    if setting == "RAG_LLM":
        reset_llm()


setting_changed.connect(_on_setting_changed)
