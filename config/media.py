"""Media types the API reads and writes beyond DRF's defaults.

- :func:`json_parsers`: the JSON parser(s) of ``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``, for
  views whose input has nested data (objects, lists): form and multipart bodies cannot carry it,
  so those views accept JSON only and the OpenAPI schema offers ``application/json`` only.
- :class:`EventStreamRenderer` and :class:`EventStreamAPIView`: a view that answers with
  server-sent events to clients sending ``Accept: text/event-stream`` (every SSE client does),
  while its errors keep the one JSON error shape.
"""

from __future__ import annotations

from rest_framework.parsers import JSONParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

JSON_MEDIA_TYPE = "application/json"
EVENT_STREAM_MEDIA_TYPE = "text/event-stream"


def json_parsers() -> list[type]:
    """Return the configured default parsers that read JSON (DRF's ``JSONParser`` if none)."""
    # Follow the project's default: a stricter JSON parser configured there applies here too.
    found = [
        parser
        for parser in api_settings.DEFAULT_PARSER_CLASSES
        if parser.media_type.split(";")[0].strip() == JSON_MEDIA_TYPE
    ]
    return found or [JSONParser]


def json_renderer() -> BaseRenderer:
    """Return an instance of the first configured default renderer that writes JSON."""
    for renderer in api_settings.DEFAULT_RENDERER_CLASSES:
        if renderer.media_type.split(";")[0].strip() == JSON_MEDIA_TYPE:
            return renderer()
    return JSONRenderer()


class EventStreamRenderer(BaseRenderer):
    """Accept ``text/event-stream`` in content negotiation.

    The stream itself is a ``StreamingHttpResponse`` the view builds frame by frame; this
    renderer only lets DRF agree to the media type. Anything DRF would render through it (an
    error) is switched to JSON by :class:`EventStreamAPIView`.
    """

    media_type = EVENT_STREAM_MEDIA_TYPE
    format = "event-stream"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        # Only reached if a view returns a plain Response without EventStreamAPIView.
        return json_renderer().render(data, JSON_MEDIA_TYPE, renderer_context)


class EventStreamAPIView(APIView):
    """An APIView whose success is a server-sent-event stream and whose errors are JSON.

    Clients send ``Accept: text/event-stream`` (or ``*/*``); one that accepts neither gets 406.
    Errors raised before the stream starts (validation, authentication, throttling) answer in
    the JSON error shape with their own status, whatever the client accepted: an SSE client
    treats any non-200 answer as a failed connection, and a JSON body says why.
    """

    renderer_classes = [EventStreamRenderer]

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response):
            response.accepted_renderer = json_renderer()
            response.accepted_media_type = JSON_MEDIA_TYPE
        return response


JSON_LINES_MEDIA_TYPE = "application/x-ndjson"


class JsonLinesRenderer(EventStreamRenderer):
    """Accept ``application/x-ndjson`` (JSON Lines) in content negotiation; the view streams."""

    media_type = JSON_LINES_MEDIA_TYPE
    format = "jsonl"


class JsonLinesAPIView(EventStreamAPIView):
    """An APIView whose success is a stream of JSON Lines and whose errors are JSON.

    Clients send ``Accept: application/x-ndjson`` (or ``*/*``); errors before the stream
    starts answer in the JSON error shape, as for :class:`EventStreamAPIView`.
    """

    renderer_classes = [JsonLinesRenderer]
