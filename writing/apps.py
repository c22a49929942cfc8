from django.apps import AppConfig


class WritingConfig(AppConfig):
    name = "writing"
