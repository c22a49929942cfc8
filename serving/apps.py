from django.apps import AppConfig


class ServingConfig(AppConfig):
    """The serving package: ``manage.py serve`` and what it configures (no models)."""

    name = "serving"
    verbose_name = "Serving"
