"""Tool schemas come from the REST API's DRF serializers (through drf-spectacular)."""

from __future__ import annotations

import json

import pytest

from activities.serializers import SearchInputSerializer
from mcp_server import schemas, tools
from memory import serializers as memory_serializers
from memory import serializers_search

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = pytest.mark.real_clock


@pytest.mark.parametrize(
    ("tool", "serializer"),
    [
        ("searchMemoryHybrid", serializers_search.HybridSearchInSerializer),
        ("searchMemoryLexical", serializers_search.LexicalSearchInSerializer),
        ("searchMemorySemantic", serializers_search.SemanticSearchInSerializer),
        ("readRange", memory_serializers.MessageListQuerySerializer),
        ("upsertPreference", memory_serializers.PreferenceInSerializer),
        ("exploreNearby", SearchInputSerializer),
    ],
)
def test_a_tools_arguments_are_its_rest_serializers_fields(tool, serializer):
    properties = set(tools.input_schema(tool)["properties"])
    assert properties == set(serializer().fields) | {"user_id"}


def test_a_serializer_constraint_reaches_the_tool_schema():
    top_k = tools.input_schema("searchMemoryHybrid")["properties"]["top_k"]
    field = serializers_search.HybridSearchInSerializer().fields["top_k"]
    assert (top_k["minimum"], top_k["maximum"]) == (field.min_value, field.max_value)


def test_path_parameters_are_required_arguments():
    schema = tools.input_schema("getNeighbors")
    assert "message_id" in schema["required"]
    assert "user_id" not in schema["required"]


@pytest.mark.parametrize("tool", [spec.name for spec in tools.TOOLS])
def test_tool_schemas_stand_alone(tool):
    text = json.dumps([tools.input_schema(tool), tools.output_schema(tool)])
    assert "$ref" not in text
    assert '"nullable"' not in text


def test_nullable_becomes_a_null_type():
    assert schemas._resolve({"type": "string", "nullable": True}, {}) == {
        "type": ["string", "null"]
    }


def test_an_unknown_operation_is_refused():
    with pytest.raises(KeyError):
        schemas.operation("no_such_operation")
