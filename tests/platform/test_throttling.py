"""Rate limits: counted in the shared cache, per operation, by a client address nobody can forge."""

from __future__ import annotations

import ipaddress

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory

from config.throttling import client_ip
from tests.testapp.server import manage

pytestmark = pytest.mark.django_db

SEMANTIC = "/v1/messages/semantic_search"
LEXICAL = "/v1/messages/lexical_search"
ECHO = "/api/testapp/echo"
CLIENT = "203.0.113.7"
PROXY = "10.0.0.2"


@pytest.fixture(autouse=True)
def _fresh_throttle_history():
    """Forget throttle history kept in the cache (a transactional test commits it)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def rates(settings):
    """Return a function that sets some throttle rates (the others stay the test settings')."""

    def set_rates(**overrides):
        framework = settings.REST_FRAMEWORK
        settings.REST_FRAMEWORK = {
            **framework,
            "DEFAULT_THROTTLE_RATES": {**framework["DEFAULT_THROTTLE_RATES"], **overrides},
        }

    return set_rates


@pytest.fixture
def trusted_proxy(settings):
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.0/8")]


def test_an_expensive_operation_past_its_scope_answers_429_in_the_error_shape(
    api_client, user, rates
):
    rates(search="1/min")
    # An empty body is refused (400) after the throttles ran: nothing is embedded.
    assert api_client.post(SEMANTIC, {}, format="json").status_code == 400

    response = api_client.post(SEMANTIC, {}, format="json")

    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "RATE_LIMITED"
    assert set(error) == {"code", "message", "details"}
    assert int(response["Retry-After"]) == error["details"]["retry_after_seconds"] > 0


def test_an_operation_without_a_scope_is_not_held_back_by_another_scope(api_client, user, rates):
    rates(search="1/min")
    api_client.post(SEMANTIC, {}, format="json")
    assert api_client.post(SEMANTIC, {}, format="json").status_code == 429

    assert api_client.post(LEXICAL, {}, format="json").status_code != 429


def test_each_user_has_a_bucket_of_their_own(api_client, other_client, user, other_user, rates):
    rates(search="1/min")
    api_client.post(SEMANTIC, {}, format="json")

    assert other_client.post(SEMANTIC, {}, format="json").status_code != 429


@pytest.mark.urls("tests.testapp.urls")
def test_a_forged_x_forwarded_for_from_an_untrusted_peer_keeps_its_bucket(anon_client, rates):
    rates(anon="1/min")
    first = anon_client.post(
        ECHO, {}, format="json", REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    assert first.status_code == 200

    second = anon_client.post(
        ECHO, {}, format="json", REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR="198.51.100.2"
    )

    assert second.status_code == 429
    assert second.json()["error"]["code"] == "RATE_LIMITED"


@pytest.mark.urls("tests.testapp.urls")
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_bucket(
    anon_client, rates, trusted_proxy
):
    rates(anon="1/min")
    for address in ("198.51.100.1", "198.51.100.2"):
        response = anon_client.post(
            ECHO, {}, format="json", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address
        )
        assert response.status_code == 200

    again = anon_client.post(
        ECHO, {}, format="json", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    assert again.status_code == 429


def test_a_client_cannot_forge_the_hops_before_the_trusted_proxy(trusted_proxy):
    request = RequestFactory().get(
        "/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.1"
    )
    assert client_ip(request) == "198.51.100.1"


def test_a_chain_of_trusted_proxies_is_walked_to_the_client(trusted_proxy):
    request = RequestFactory().get(
        "/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.1, 10.1.1.1"
    )
    assert client_ip(request) == "198.51.100.1"


def test_without_trusted_proxies_the_peer_is_the_client():
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert client_ip(request) == PROXY


CHILD_REQUESTS = """
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from config.throttling import OperationRateThrottle


class SearchView:
    throttle_scope = "search"


rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "search": "2/min"}
with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
    request = Request(APIRequestFactory().post("/v1/messages/semantic_search"))
    request.user = get_user_model().objects.get(username="alice")
    print("allowed", [OperationRateThrottle().allow_request(request, SearchView()) for _ in "ab"])
"""


@pytest.mark.real_clock
def test_a_limit_spent_in_another_process_holds_here(transactional_db, api_client, user, rates):
    child = manage(connection.settings_dict["NAME"], "shell", "-c", CHILD_REQUESTS, timeout=300)
    assert "allowed [True, True]" in child.stdout, child.stdout + child.stderr
    rates(search="2/min")

    response = api_client.post(SEMANTIC, {}, format="json")

    assert response.status_code == 429
