"""Input and output serializers of the activities API (one pair per operation)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from activities.models import ActivityStatus, IndexState
from config import fields
from config.inputs import INT_MAX
from rag.embeddings import DEGRADED_REASONS

# What a client may ask for; the participant count and every other status are the server's.
CLIENT_CREATE_STATUSES = [ActivityStatus.DRAFT, ActivityStatus.ACTIVE]
CLIENT_UPDATE_STATUSES = [ActivityStatus.ACTIVE, ActivityStatus.CANCELLED]


class ActivityLocationSerializer(fields.ClosedSerializer):
    lat = fields.FloatField(min_value=-90, max_value=90)
    lng = fields.FloatField(min_value=-180, max_value=180)


class ActivityCreateInputSerializer(fields.ClosedSerializer):
    title = fields.StrictCharField(max_length=200)
    description = fields.TextField(allow_blank=True, default="")
    type = fields.StrictCharField(max_length=50)
    tags = fields.ListField(
        child=fields.StrictCharField(max_length=50), default=list, max_length=20
    )
    start_at = fields.DateTimeField()
    end_at = fields.DateTimeField(required=False, allow_null=True)
    location = ActivityLocationSerializer()
    location_name = fields.StrictCharField(max_length=200, allow_blank=True, default="")
    max_participants = fields.IntegerField(min_value=1, max_value=100000)
    # current_participants is counted by the server (joins and leaves), never sent: a client
    # sending it gets 400. A new activity is published or a draft, never cancelled or finished.
    status = serializers.ChoiceField(
        choices=CLIENT_CREATE_STATUSES,
        default=ActivityStatus.ACTIVE,
        help_text="`draft` (only you see it) or `active` (published).",
    )


class ActivityUpdateInputSerializer(fields.ClosedSerializer):
    title = fields.StrictCharField(max_length=200, required=False)
    description = fields.TextField(allow_blank=True, required=False)
    type = fields.StrictCharField(max_length=50, required=False)
    tags = fields.ListField(
        child=fields.StrictCharField(max_length=50), required=False, max_length=20
    )
    start_at = fields.DateTimeField(required=False)
    end_at = fields.DateTimeField(required=False, allow_null=True)
    location = ActivityLocationSerializer(required=False)
    location_name = fields.StrictCharField(max_length=200, allow_blank=True, required=False)
    max_participants = fields.IntegerField(min_value=1, max_value=100000, required=False)
    status = serializers.ChoiceField(
        choices=CLIENT_UPDATE_STATUSES,
        required=False,
        help_text="`active` publishes a draft, `cancelled` cancels a draft or an active "
        "activity; no other change of status is allowed.",
    )


def flatten_location(data: dict) -> dict:
    """Turn ``{"location": {"lat", "lng"}}`` into the model's ``lat``/``lng`` fields."""
    data = dict(data)
    location = data.pop("location", None)
    if location:
        data["lat"], data["lng"] = location["lat"], location["lng"]
    return data


class ActivityOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField()
    type = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    vibes = serializers.ListField(child=serializers.CharField())
    start_at = fields.DateTimeField()
    end_at = fields.DateTimeField(allow_null=True)
    location = serializers.SerializerMethodField()
    location_name = serializers.CharField()
    status = serializers.ChoiceField(choices=ActivityStatus.choices)
    max_participants = serializers.IntegerField()
    current_participants = serializers.IntegerField()
    creator_id = serializers.IntegerField()
    index_state = serializers.ChoiceField(choices=IndexState.choices)
    indexed_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_location(self, obj) -> dict:
        return {"lat": obj.lat, "lng": obj.lng}


class ActivityDetailOutputSerializer(ActivityOutputSerializer):
    index_error = serializers.CharField()
    index_attempts = serializers.IntegerField()


class ActivityListOutputSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    results = ActivityOutputSerializer(many=True)


class ActivityListQuerySerializer(serializers.Serializer):
    type = serializers.CharField(required=False)
    status = serializers.ChoiceField(choices=ActivityStatus.choices, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0)


class ParticipationOutputSerializer(serializers.Serializer):
    activity_id = serializers.IntegerField()
    user_id = serializers.IntegerField()
    joined_at = serializers.DateTimeField()
    feedback = serializers.IntegerField(allow_null=True)
    current_participants = serializers.IntegerField(source="activity.current_participants")


class FeedbackInputSerializer(fields.ClosedSerializer):
    rating = serializers.ChoiceField(choices=[-1, 0, 1])


# --- POST /rag/search (camelCase, as the issue specifies) ----------------------------------


class SearchLocationSerializer(fields.ClosedSerializer):
    lat = fields.FloatField(min_value=-90, max_value=90)
    lng = fields.FloatField(min_value=-180, max_value=180)
    radiusInKm = fields.FloatField(
        min_value=0.001,
        max_value=20000,
        required=False,  # noqa: N815
        allow_null=True,
    )


class SearchTimeRangeSerializer(fields.ClosedSerializer):
    start = fields.DateTimeField(required=False, allow_null=True)
    end = fields.DateTimeField(required=False, allow_null=True)

    def validate(self, attrs):
        if attrs.get("start") and attrs.get("end") and attrs["end"] < attrs["start"]:
            raise serializers.ValidationError({"end": _("The end is before the start.")})
        return attrs


# The search's hard filters: the one statement of their rules
# (activities.search_filters.parse_filters validates every caller's filters with it). A
# comment, not a docstring: the schema shows those.
class SearchFiltersSerializer(fields.ClosedSerializer):
    location = SearchLocationSerializer(required=False, allow_null=True)
    timeRange = SearchTimeRangeSerializer(required=False, allow_null=True)  # noqa: N815
    type = fields.StrictCharField(required=False, allow_blank=True, allow_null=True, max_length=50)


class SearchInputSerializer(fields.ClosedSerializer):
    semanticQuery = fields.QueryTextField(  # noqa: N815
        required=False, allow_blank=True, allow_null=True
    )
    filters = SearchFiltersSerializer(required=False, allow_null=True)
    limit = fields.IntegerField(min_value=1, max_value=50, required=False, default=20)
    timeZone = fields.StrictCharField(  # noqa: N815
        required=False,
        allow_blank=True,
        allow_null=True,
        max_length=64,
        help_text="The user's IANA time zone (e.g. Asia/Shanghai) in which time phrases of the "
        "query (今晚, 周五晚上, this weekend) are read; default: the server's TIME_ZONE.",
    )


class SearchProvenanceSourceSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["activity"])
    id = serializers.IntegerField()


class SearchProvenanceSerializer(serializers.Serializer):
    source = SearchProvenanceSourceSerializer()
    retrievedBy = serializers.CharField(  # noqa: N815
        help_text="The path that found it: semantic (dense, after the relevance cut), "
        "hard_filter_small (all that pass the filters), hard_filter_sorted, "
        "hard_filter_degraded (the query could not be embedded in time)."
    )
    hybrid = serializers.BooleanField(help_text="Fused with the full-text rank.")
    personalised = serializers.CharField(
        allow_null=True, help_text="How the user's history or preferences boosted it."
    )
    scores = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text=(
            "similarity (to the query), boost (personal; negative for a listing naming what "
            "the user said they cannot eat or drink), score (the final order)."
        ),
    )


class SearchResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    type = serializers.CharField()
    startAt = serializers.DateTimeField()  # noqa: N815
    locationName = serializers.CharField()  # noqa: N815
    distanceKm = serializers.FloatField(allow_null=True)  # noqa: N815
    similarity = serializers.FloatField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    matchReason = serializers.CharField()  # noqa: N815
    provenance = SearchProvenanceSerializer()


class UnderstoodTimeSerializer(serializers.Serializer):
    phrase = serializers.CharField(allow_null=True, help_text="The time phrase of the query.")
    start = serializers.DateTimeField(allow_null=True, help_text="Start of its window.")
    end = serializers.DateTimeField(allow_null=True, help_text="End of its window (exclusive).")
    applied = serializers.ChoiceField(
        choices=["filter", "rank"],
        help_text="filter: only activities starting in the window (cut to timeRange); rank: "
        "none starts there, so the filters are kept and results are ordered by closeness to it.",
    )
    reason = serializers.CharField()


class UnderstoodPlaceSerializer(serializers.Serializer):
    phrase = serializers.CharField(allow_null=True, help_text="The place cue (附近, near me).")
    applied = serializers.ChoiceField(
        choices=["radius", "location", "unknown"],
        help_text="radius: filtered within radiusKm of filters.location; location: the "
        "request's own radius (or none) applies; unknown: no location was given.",
    )
    radiusKm = serializers.FloatField(allow_null=True)  # noqa: N815


class UnderstoodSerializer(serializers.Serializer):
    language = serializers.ChoiceField(choices=["zh", "en", "mixed", "und"])
    time = UnderstoodTimeSerializer(allow_null=True)
    place = UnderstoodPlaceSerializer(allow_null=True)
    kinds = serializers.ListField(
        child=serializers.CharField(), help_text="Activity types the query names."
    )
    moods = serializers.ListField(
        child=serializers.CharField(), help_text="Vibes (氛围) the query asks for."
    )
    rest = serializers.CharField(
        allow_blank=True,
        help_text="The query without its time phrase and place cue: the text that is embedded.",
    )


class SearchRelevanceSerializer(serializers.Serializer):
    """The relevance cut's decision for a semantic search (null on other paths)."""

    gate = serializers.FloatField()
    ratio = serializers.FloatField(allow_null=True)
    calibrated = serializers.BooleanField(
        help_text="False: no fitted parameters for the active model (relative rules only)."
    )
    topMargin = serializers.FloatField(allow_null=True)  # noqa: N815
    offTopic = serializers.BooleanField()  # noqa: N815
    dropped = serializers.IntegerField(help_text="Hits the cut removed.")
    bareGate = serializers.FloatField(  # noqa: N815
        allow_null=True,
        help_text="The gate a query must clear when none of its words or cues appears in the "
        "candidates (null: the gate).",
    )
    evidence = serializers.BooleanField(
        help_text="Whether a word or a kind/mood cue of the query appears in the candidates."
    )
    noise = serializers.BooleanField(
        help_text="The query is keyboard noise (repeated or neighbouring keys): off-topic."
    )


class SearchMetaSerializer(serializers.Serializer):
    path = serializers.CharField()
    candidates = serializers.IntegerField(
        help_text="Rows passing the filters: counted on the small and exact paths, estimated "
        "from a page sample otherwise (candidatesEstimated)."
    )
    candidatesEstimated = serializers.BooleanField(  # noqa: N815 - the API's camelCase
        required=False,
        help_text="True when candidates is an estimate (a large filtered set, searched by index).",
    )
    degraded = serializers.BooleanField(
        help_text="True when the query could not be embedded in time: hard-filter order."
    )
    degradedReason = serializers.ChoiceField(  # noqa: N815 - the API's camelCase
        choices=list(DEGRADED_REASONS),
        allow_null=True,
        help_text="Why the search is degraded (null when it is not).",
    )
    understood = UnderstoodSerializer(
        help_text="What the query was understood to ask (docs/QUERY_UNDERSTANDING.md)."
    )
    # rel (issue 11): the relevance cut (docs/RELEVANCE.md).
    reason = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="Why the results are empty when the query fits nothing (null otherwise).",
    )
    relevance = SearchRelevanceSerializer(allow_null=True, required=False)


class SearchOutputSerializer(serializers.Serializer):
    results = SearchResultSerializer(many=True)
    meta = SearchMetaSerializer()


def _nullable(convert, value):
    """Return ``convert(value)``, or None for None (as a DRF field writes a None attribute)."""
    return None if value is None else convert(value)


def search_result_output(item: dict) -> dict:
    """Return one result of ``activities_search`` as ``SearchResultSerializer`` writes it.

    The same keys, order and values, built directly: twenty results through three nested
    serializers each cost about 2 ms of CPU per search, a tenth of its Python part
    (bench/search_latency.py). ``SearchResultSerializer`` stays the schema, and
    tests/activities/test_serializers.py holds the two equal on real searches.
    """
    provenance = item["provenance"]
    source = provenance["source"]
    return {
        "id": _nullable(int, item["id"]),
        "title": _nullable(str, item["title"]),
        "type": _nullable(str, item["type"]),
        # ISO text already, which DateTimeField passes through (an empty one as None).
        "startAt": item["startAt"] or None,
        "locationName": _nullable(str, item["locationName"]),
        "distanceKm": _nullable(float, item["distanceKm"]),
        "similarity": _nullable(float, item["similarity"]),
        "score": _nullable(float, item["score"]),
        "matchReason": _nullable(str, item["matchReason"]),
        "provenance": {
            "source": {"type": _nullable(str, source["type"]), "id": _nullable(int, source["id"])},
            "retrievedBy": _nullable(str, provenance["retrievedBy"]),
            "hybrid": _nullable(bool, provenance["hybrid"]),
            "personalised": _nullable(str, provenance["personalised"]),
            "scores": {
                str(name): _nullable(float, value) for name, value in provenance["scores"].items()
            },
        },
    }


# One instance for every response: a serializer made per response deep-copies its declared
# fields and those of its nested serializers (the meta's: about 1 ms of CPU per search,
# bench/search_profile.py); ``to_representation`` keeps no state on the instance, so threads
# share it. Its own fields are bound here; a nested serializer binds its fields on first use
# (Django's cached_property, no lock): two first requests at once may both bind them, the same
# fields, the last write kept, which is harmless.
_META_OUTPUT = SearchMetaSerializer()
_META_OUTPUT.fields  # noqa: B018 - binds them once


def search_output(result: dict) -> dict:
    """Return the body of ``POST /rag/search`` for ``activities_search``'s result, as
    ``SearchOutputSerializer`` writes it (the results by :func:`search_result_output`)."""
    return {
        "results": [search_result_output(item) for item in result["results"]],
        "meta": _META_OUTPUT.to_representation(result["meta"]),
    }
