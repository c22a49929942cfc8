from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class PlatformConfig(AppConfig):
    """The platform: system checks, the shared cache's table, hashed API tokens, the task
    queues (config.queues, config.worker, config.work), replicas and the user-data registry."""

    name = "config"
    label = "platform"
    verbose_name = _("Platform")

    def ready(self):
        # Imported here: these modules (django_q.signals too) import models: the registry first.
        from django_q.signals import post_execute

        from config import (
            checks,  # noqa: F401  (registers system checks)
            login_guard,  # noqa: F401  (connects the login failure receivers)
        )
        from config.schedules import register_platform_schedules
        from config.tasks import task_executed
        from config.work import task_finished
        from config.worker import install as install_bounded_stop

        post_migrate.connect(register_platform_schedules, sender=self)
        post_execute.connect(task_executed, dispatch_uid="platform.heartbeat")
        post_execute.connect(task_finished, dispatch_uid="platform.work.task_finished")
        install_bounded_stop()  # qcluster stops within Q_STOP_TIMEOUT (config/worker.py)
        _keep_framework_user_data()


def _keep_framework_user_data():
    """Say why the framework's own models that point at a user survive an erasure."""
    # Imported here: config.userdata imports models, which need the app registry.
    from config.userdata import keep

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
