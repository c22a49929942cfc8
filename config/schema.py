"""The schema class of the API (``DEFAULT_SCHEMA_CLASS``).

Its own module: DRF imports it while ``drf_spectacular.views`` loads, so it cannot live in
:mod:`config.api_docs`, which imports those views.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema

from config.fields import ClosedSerializer


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's schema, saying which request objects refuse keys they do not declare."""

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        closed = isinstance(serializer, ClosedSerializer) or (
            isinstance(serializer, type) and issubclass(serializer, ClosedSerializer)
        )
        if direction == "request" and closed:
            schema["additionalProperties"] = False
        return schema
