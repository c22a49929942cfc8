from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlatformConfig(AppConfig):
    """The platform settings' system checks and the shared cache's table (no models)."""

    name = "config"
    label = "platform"
    verbose_name = _("Platform")

    def ready(self):
        from config import checks  # noqa: F401  (registers system checks)
