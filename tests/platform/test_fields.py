"""The shared DRF fields of config/fields.py: strings are strings, integers fit their column,
dates lie in 1970..2100 and render as RFC 3339, query texts follow RAG_QUERY_MAX_CHARS."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.test import override_settings
from rest_framework import serializers

from config import fields

RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def run(field, value):
    """Return the field's internal value or the list of its error messages."""
    try:
        return field.run_validation(value)
    except serializers.ValidationError as exc:
        return exc.detail


@pytest.mark.parametrize("value", [0, 1.5, True, ["a"], {"a": 1}])
def test_strict_char_field_refuses_non_strings(value):
    assert run(fields.StrictCharField(), value) == ["Not a valid string: send a JSON string."]


def test_strict_char_field_keeps_strings():
    assert run(fields.StrictCharField(), " 书 ") == "书"


def test_strict_regex_field_refuses_non_strings_and_keeps_its_pattern_message():
    field = fields.RegexField(r"^[a-z]+$")
    assert run(field, 5) == ["Not a valid string: send a JSON string."]
    assert run(field, "A") != ["Not a valid string: send a JSON string."]
    assert run(field, "ab") == "ab"


@pytest.mark.parametrize("value", ["12", True, "1e3"])
def test_integer_field_refuses_strings_and_booleans(value):
    assert isinstance(run(fields.IntegerField(), value), list)


@pytest.mark.parametrize("value", [2**31, -(2**31) - 1, 10**12])
def test_integer_field_stays_within_a_postgresql_integer(value):
    assert isinstance(run(fields.IntegerField(), value), list)


def test_integer_field_takes_the_bounds_of_integer():
    assert run(fields.IntegerField(), 2**31 - 1) == 2**31 - 1
    assert run(fields.IntegerField(), -(2**31)) == -(2**31)


def test_id_field_takes_a_bigint_and_nothing_beyond():
    assert run(fields.IdField(), 2**63 - 1) == 2**63 - 1
    assert isinstance(run(fields.IdField(), 2**63), list)
    assert isinstance(run(fields.IdField(), 0), list)


@pytest.mark.parametrize("value", ["1.5", False])
def test_float_field_refuses_strings_and_booleans(value):
    assert isinstance(run(fields.FloatField(), value), list)


@pytest.mark.parametrize(
    "value",
    [
        "9999-12-31T23:59:59-14:00",
        "0149-03-30T10:34:02+08:00",
        "1969-12-31T23:59:59Z",
        "2100-01-01T00:00:00Z",
        "2100-01-01T08:00:00+08:00",
        1714550400,
    ],
)
def test_date_time_field_refuses_dates_out_of_range(value):
    errors = run(fields.DateTimeField(), value)
    assert isinstance(errors, list)


def test_date_time_field_says_the_range_in_its_error():
    errors = run(fields.DateTimeField(), "9999-12-31T23:59:59-14:00")
    assert "1970-01-01T00:00:00Z" in str(errors[0]) and "2100-01-01T00:00:00Z" in str(errors[0])


@pytest.mark.parametrize("value", ["1970-01-01T00:00:00Z", "2099-12-31T23:59:59.999999Z"])
def test_date_time_field_takes_the_edges_of_the_range(value):
    assert isinstance(run(fields.DateTimeField(), value), datetime)


def test_date_time_field_renders_rfc_3339_even_for_an_lmt_offset():
    """An old stored value in Asia/Shanghai would render with +08:05:43: render it in UTC."""
    old = datetime(149, 3, 30, 2, 28, 19, tzinfo=UTC)
    rendered = fields.DateTimeField().to_representation(old)
    assert RFC3339.match(rendered), rendered


def test_date_time_field_renders_in_range_values_in_the_local_zone():
    value = datetime(2024, 5, 1, 4, 0, tzinfo=timezone(timedelta(0)))
    assert fields.DateTimeField().to_representation(value) == "2024-05-01T12:00:00+08:00"


def test_query_text_field_reads_the_cap_when_the_serializer_is_made():
    class Query(serializers.Serializer):
        q = fields.QueryTextField()

    with override_settings(RAG_QUERY_MAX_CHARS=5):
        assert not Query(data={"q": "123456"}).is_valid()
        assert Query(data={"q": "12345"}).is_valid()


def test_text_field_caps_free_text():
    assert isinstance(run(fields.TextField(), "x" * (fields.MAX_TEXT_CHARS + 1)), list)
    assert run(fields.TextField(), "x" * fields.MAX_TEXT_CHARS) == "x" * fields.MAX_TEXT_CHARS


def test_list_field_requires_a_bound():
    with pytest.raises(TypeError):
        fields.ListField(child=fields.IntegerField())


class _Place(fields.ClosedSerializer):
    lat = fields.FloatField()


class _Search(fields.ClosedSerializer):
    query = fields.StrictCharField()
    place = _Place(required=False)
    stops = _Place(many=True, required=False)


def _errors(data) -> dict:
    serializer = _Search(data=data)
    assert not serializer.is_valid()
    return serializer.errors


def test_closed_serializer_refuses_a_key_it_does_not_declare():
    errors = _errors({"query": "a", "qeury": "b"})
    assert list(errors) == ["qeury"]
    assert "this object takes: query, place, stops" in str(errors["qeury"][0])


def test_closed_serializer_refuses_unknown_keys_in_nested_objects_and_list_items():
    assert list(_errors({"query": "a", "place": {"lat": 1, "lon": 2}})["place"]) == ["lon"]
    stops = _errors({"query": "a", "stops": [{"lat": 1}, {"lat": 1, "x": 0}]})["stops"]
    assert {i: list(e) for i, e in dict(stops).items() if e} == {1: ["x"]}


def test_closed_serializer_takes_exactly_its_fields():
    serializer = _Search(data={"query": "a", "place": {"lat": 1}})
    assert serializer.is_valid(), serializer.errors


def test_closed_serializer_ignores_the_csrf_token_of_a_browser_form():
    from django.http import QueryDict

    form = QueryDict("query=a&csrfmiddlewaretoken=t0ken")
    serializer = _Search(data=form)
    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data == {"query": "a"}


def test_response_datetime_gives_an_instant_in_the_service_time_zone():
    instant = datetime(2026, 5, 1, 1, 30, tzinfo=UTC)
    assert fields.response_datetime(instant) == "2026-05-01T09:30:00+08:00"
    assert fields.response_datetime(None) is None


@pytest.mark.django_db
def test_every_response_gives_instants_with_the_service_offset(api_client, user):
    """A message sent in UTC and a book made now: both answered at +08:00, never Z."""
    body = {"items": [{"message_id": "m1", "ts": "2026-05-01T01:30:00Z", "role": "user"}]}
    body["items"][0]["content"] = "周末去划船"
    written = api_client.post(f"/v1/users/{user.username}/messages", body, format="json")
    assert written.status_code in (200, 201), written.content
    listed = api_client.get(f"/v1/users/{user.username}/messages").json()
    assert [item["ts"] for item in listed["items"]] == ["2026-05-01T09:30:00+08:00"]
    book = api_client.post("/api/books/", {"title": "湖"}, format="json").json()
    assert book["created_at"].endswith("+08:00"), book
