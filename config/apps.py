from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlatformConfig(AppConfig):
    """The platform: settings' system checks, the shared cache's table, hashed API tokens."""

    name = "config"
    label = "platform"
    verbose_name = _("Platform")

    def ready(self):
        from config import (
            checks,  # noqa: F401  (registers system checks)
            login_guard,  # noqa: F401  (connects the login failure receivers)
        )
