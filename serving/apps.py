from django.apps import AppConfig

from serving import checks  # noqa: F401 - registers the system checks (serving.E070-E072)


class ServingConfig(AppConfig):
    """The serving package: ``manage.py serve`` and what it configures (no models)."""

    name = "serving"
    verbose_name = "Serving"
