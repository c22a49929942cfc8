from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RagConfig(AppConfig):
    name = "rag"
    verbose_name = _("RAG engine")

    def ready(self):
        from django.db.models.signals import post_save, pre_migrate
        from django_q.signals import post_execute_in_worker

        from config.errors import register_provider_error
        from rag import (
            checks,  # noqa: F401  (registers system checks)
            signals,
        )
        from rag.embeddings import public_provider_error
        from rag.models import RagSettings
        from rag.providers.embedding import ProviderError

        pre_migrate.connect(signals.create_extensions, sender=self)
        post_save.connect(signals.live_settings_saved, sender=RagSettings)
        # A worker returns the memory a task's embedding freed to the system: workers idle long.
        post_execute_in_worker.connect(signals.task_ended_trim, dispatch_uid="rag.trim_after_task")
        # 503 UNAVAILABLE wherever it escapes; a row's recorded failure says only its kind.
        register_provider_error(ProviderError, public_provider_error)
        _keep_framework_user_data()


def _keep_framework_user_data():
    """Say why the framework's own models that point at a user survive an erasure."""
    from rag.userdata import keep

    keep(
        "authtoken.Token",
        "DRF's plain-text tokens, unused and empty (platform.0003 hashed them into "
        "platform.ApiToken); any row left is deleted with the account (the foreign key "
        "cascades).",
    )
    keep(
        "platform.ApiToken",
        "Not a declared kind, so never exported (its digests stay on the server): erasure "
        "deletes it with the account, last (the foreign key cascades).",
    )
    keep(
        "admin.LogEntry",
        "The admin's audit trail of staff actions: erasure scrubs the entries about the user's "
        "rows (object text, change message) and those the user made go with the account.",
    )
