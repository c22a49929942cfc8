"""The API documentation pages, served entirely from local static files.

drf-spectacular's ReDoc page links Google Fonts in its ``<head>``; this view renders the same
page with a head that loads nothing remote (the Swagger UI page already loads nothing remote).
"""

from __future__ import annotations

from django.template import engines
from drf_spectacular.views import SpectacularRedocView
from rest_framework.renderers import TemplateHTMLRenderer

REDOC_TEMPLATE = """{% extends "drf_spectacular/redoc.html" %}
{% block head %}
<title>{{ title|default:"Redoc" }}</title>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { margin: 0; padding: 0; }</style>
{% endblock head %}
"""


class LocalTemplateRenderer(TemplateHTMLRenderer):
    """Render the ReDoc page from :data:`REDOC_TEMPLATE` instead of a template file."""

    def resolve_template(self, template_names):
        return engines["django"].from_string(REDOC_TEMPLATE)


class LocalRedocView(SpectacularRedocView):
    """ReDoc without remote fonts (offline deployments, no third-party requests)."""

    renderer_classes = [LocalTemplateRenderer]
