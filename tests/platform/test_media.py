"""JSON-only parsers follow the configured default; errors of a stream view are JSON."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.parsers import JSONParser

from config.media import json_parsers


class StrictJSONParser(JSONParser):
    """A project JSON parser, as a default parser class."""


def test_json_parsers_follow_the_configured_default_json_parser(settings):
    rest = {**settings.REST_FRAMEWORK}
    rest["DEFAULT_PARSER_CLASSES"] = [
        "tests.platform.test_media.StrictJSONParser",
        "rest_framework.parsers.FormParser",
    ]
    with override_settings(REST_FRAMEWORK=rest):
        assert json_parsers() == [StrictJSONParser]


def test_json_parsers_default_to_drf_json_parser(settings):
    rest = {**settings.REST_FRAMEWORK}
    rest["DEFAULT_PARSER_CLASSES"] = ["rest_framework.parsers.FormParser"]
    with override_settings(REST_FRAMEWORK=rest):
        assert json_parsers() == [JSONParser]


@pytest.mark.django_db
def test_a_form_body_to_a_json_only_view_is_415_in_the_error_shape(api_client, user):
    response = api_client.post(
        f"/v1/users/{user.username}/messages",
        "items=1",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


@pytest.mark.django_db
def test_a_flat_view_still_takes_a_form_body(api_client, user):
    response = api_client.post(
        f"/v1/users/{user.username}/preferences",
        "category=food&value=spicy",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 201, response.content
    assert response.json()["value"] == "spicy"
