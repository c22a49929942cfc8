"""Every MCP tool, called with generated arguments, answers a result or a 4xx-class error.

The tools run in-process (:func:`mcp_server.tools.run`, the same Django stack as the HTTP API);
arguments are any JSON: the tool's own argument names with values of any type, plus unknown
keys. No call may raise, and an error is always in the API's one shape with a client-error code
(never INTERNAL). The examples per tool follow ``FUZZ_MAX_EXAMPLES`` (:mod:`tests.fuzz.budget`).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from mcp_server import tools
from tests.fuzz import budget
from tests.mcp_server.conftest import in_test_transaction  # noqa: F401  (a fixture)

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock

CLIENT_ERRORS = {"INVALID_ARGUMENT", "NOT_FOUND", "PAYLOAD_TOO_LARGE", "CONFLICT"}
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=60)
    | st.sampled_from(["alice", "bob", "a1", "c1", "1", "0", "-1", "火锅", "2026-01-05"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


def arguments(name: str):
    """Return a strategy of argument objects for tool ``name``: its keys, any values, extras."""
    keys = list(tools.input_schema(name)["properties"])
    known = st.dictionaries(st.sampled_from(keys), JSON, max_size=len(keys))
    extra = st.dictionaries(st.text(max_size=10), JSON, max_size=2)
    return st.builds(lambda a, b: {**b, **a}, known, extra)


@pytest.mark.usefixtures("in_test_transaction", "other_user")
@pytest.mark.parametrize("name", [spec.name for spec in tools.TOOLS])
def test_a_tool_never_fails_on_generated_arguments(name, user):
    @seed(budget.seed())
    @settings(
        max_examples=budget.max_examples() * 4,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(args=arguments(name))
    def check(args):
        ok, data = tools.run(name, user, args)
        if not ok:
            assert set(data) == {"error"}, data
            assert set(data["error"]) == {"code", "message", "details"}, data
            assert data["error"]["code"] in CLIENT_ERRORS, data

    check()
