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
    assert response.json()["error"]["code"] == "UNSUPPORTED_MEDIA_TYPE"


@pytest.mark.django_db
def test_a_flat_view_still_takes_a_form_body(api_client, user):
    response = api_client.post(
        f"/v1/users/{user.username}/preferences",
        "category=food&value=spicy",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 201, response.content
    assert response.json()["value"] == "spicy"


@pytest.mark.django_db
def test_a_browser_form_with_its_csrf_token_is_not_refused_as_an_unknown_field(user):
    # A page rendered with {% csrf_token %} posts the token with the fields, over the session.
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    browser.get("/admin/login/")  # any page with a form sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    response = browser.post(
        f"/v1/users/{user.username}/preferences",
        f"category=food&value=spicy&csrfmiddlewaretoken={token}",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 201, response.content
    assert response.json()["value"] == "spicy"
