"""Schemathesis over every operation of the OpenAPI schema, as a normal user and as staff.

Each operation and role is one test: generated requests (valid and invalid) go over real HTTP
to the fuzz server; no answer may be a 5xx, and every answer must match the schema (status,
content type, headers, body, each event of a stream).
"""

from __future__ import annotations

import copy

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.fuzz.budget import coverage_phase, max_examples, seed
from tests.fuzz.world import OWNER, STAFF, load_schema

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

TOKENS = "/v1/tokens/"  # revoke, rotate: the caller's own token may stop working
ERASURE = "/v1/users/{user_id}"  # DELETE erases the user: every row, the account, its token

SCHEMA = schemathesis.openapi.from_dict(
    copy.deepcopy(load_schema()),
    config=schemathesis.Config.from_dict(
        {
            "seed": seed(),
            "generation": {"mode": "all", "with-security-parameters": False},
            "phases": {"stateful": {"enabled": False}, "coverage": {"enabled": coverage_phase()}},
        }
    ),
)


@pytest.fixture(params=[OWNER, STAFF], ids=["user", "staff"])
def actor(request, fuzz_world):
    """The account the requests are sent as (the owner's data is put back first)."""
    if fuzz_world.dirty:
        fuzz_world.ensure(OWNER)
    return fuzz_world.accounts[request.param]


@SCHEMA.parametrize()
@settings(
    max_examples=max_examples(),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_every_answer_matches_the_schema(case, actor, fuzz_world, fuzz_stats):
    fuzz_world.adapt(case)
    headers = dict(actor.headers)
    if case.path.endswith("/stream"):
        headers["Accept"] = "text/event-stream"  # what every SSE client sends
    response = case.call(base_url=fuzz_world.base_url, headers=headers, timeout=120)
    fuzz_stats.record(case.operation.label, "staff" if actor.staff else "user", case, response)
    if case.method.upper() in ("DELETE", "PATCH", "PUT") and response.status_code < 300:
        fuzz_world.dirty = True  # some seeded object may be gone or changed
        if case.path == ERASURE:  # an account and its token are gone: put them back
            fuzz_world.restore_accounts()
    if case.path.startswith(TOKENS) and response.status_code < 300:
        fuzz_world.restore_accounts()  # the actor may have revoked or rotated its own key
    case.validate_response(response, checks=CHECKS, headers=headers)
