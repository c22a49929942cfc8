from django.apps import AppConfig
from django.db.models.signals import pre_migrate
from django.utils.translation import gettext_lazy as _


class RagConfig(AppConfig):
    name = "rag"
    verbose_name = _("RAG engine")

    def ready(self):
        # Imported here, not at the top: these modules import models, which need the app registry.
        from config.errors import register_provider_error
        from config.userdata import register_text_cache
        from rag import (
            checks,  # noqa: F401  (registers system checks)
            embeddings,
            signals,
        )
        from rag.embeddings import public_provider_error
        from rag.providers.embedding import ProviderError

        pre_migrate.connect(signals.create_extensions, sender=self)
        # 503 UNAVAILABLE wherever it escapes; a row's recorded failure says only its kind.
        register_provider_error(ProviderError, public_provider_error)
        register_text_cache(embeddings.text_cache())  # erasure forgets cached vectors
