"""Input and output serializers of the memory search API: lexical, semantic and hybrid.

The search filter is validated by :func:`memory.validation.clean_filter` alone, so an error
names the exact key; :data:`SEARCH_FILTER_SCHEMA` describes it in the schema.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config import fields
from config.inputs import DATETIME_RANGE_TEXT
from memory.identity import MAX_USER_ID_LENGTH
from memory.models import Kind, Role
from memory.search import DEFAULT_TOP_K, MAX_PAGE_SIZE, MAX_TOP_K
from memory.serializers import MAX_CURSOR_CHARS, MessageSerializer
from memory.validation import MAX_CHAT_ID_CHARS
from rag.embeddings import DEGRADED_REASONS

MAX_RETURN_FIELDS = 20
# Generous for any embedding model (the column's own dimension is checked by the search).
MAX_EMBEDDING_DIMENSIONS = 8192


def _nullable(schema: dict) -> dict:
    return {**schema, "type": [schema["type"], "null"]}


_TIMESTAMP = {
    "type": "string",
    "format": "date-time",
    "description": "RFC 3339 with a time zone, " + DATETIME_RANGE_TEXT + ".",
}
# The filter is checked by memory.validation.clean_filter, which names the exact key in its
# error and refuses keys it does not know at every level; the schema says the same, so a
# generated client cannot send start/end and get an unfiltered answer.
SEARCH_FILTER_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "description": "Narrow the search; every key is optional and null means absent.",
    "properties": {
        "time_range": _nullable(
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "since": _nullable(
                        {**_TIMESTAMP, "description": "Inclusive. " + _TIMESTAMP["description"]}
                    ),
                    "until": _nullable(
                        {**_TIMESTAMP, "description": "Exclusive. " + _TIMESTAMP["description"]}
                    ),
                },
            }
        ),
        "role": _nullable({"type": "string", "enum": [*Role.values, None]}),
        "chat_id": _nullable({"type": "string", "maxLength": MAX_CHAT_ID_CHARS}),
        "kind": _nullable({"type": "string", "enum": [*Kind.values, None]}),
    },
}


@extend_schema_field(SEARCH_FILTER_SCHEMA, component_name="MemorySearchFilter")
class SearchFilterField(serializers.JSONField):
    """The search filter: any JSON here, validated by :func:`memory.validation.clean_filter`."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


class UnderstandInMixin(fields.ClosedSerializer):
    """The request fields of a search that may read a time phrase in its query."""

    understand = serializers.BooleanField(
        required=False,
        # On by default since 2026-11-27: it raised recall in both languages on sets nobody
        # tuned on (bench/memory_zh_fresh_set.json and the held-out sets of issue 30;
        # docs/memory.md, "Time phrases").
        default=True,
        help_text="Read a past time phrase in query_text (上周, 三月, 昨天, last May, yesterday) "
        "in time_zone: filter by its window, or rank by closeness to it when the filter would "
        "leave nothing; the response's `understood` says which (docs/memory.md). false: the "
        "phrase is searched as words.",
    )
    time_zone = fields.StrictCharField(
        required=False,
        max_length=64,
        help_text="IANA time zone the phrase is read in (default: the service's TIME_ZONE).",
    )
    now = fields.DateTimeField(
        required=False,
        help_text="The instant relative phrases count back from (default: the current time).",
    )


class MemoryUnderstoodSerializer(serializers.Serializer):
    phrase = serializers.CharField(help_text="The time phrase read in query_text.")
    start = serializers.CharField(help_text="Window start, RFC 3339 (inclusive).")
    end = serializers.CharField(help_text="Window end, RFC 3339 (exclusive).")
    applied = serializers.ChoiceField(
        choices=["filter", "rank", "none", "range"],
        help_text="filter: only messages in the window; rank: none matched in it, so all are "
        "ranked by closeness to it; none: the window lies outside filter.time_range; range: "
        "a question about one day, answered with that day's messages in time order.",
    )
    reason = serializers.CharField()


def _understood():
    return MemoryUnderstoodSerializer(
        allow_null=True,
        required=False,
        help_text="The time phrase understood, or null (no phrase read, or understand: false).",
    )


def _return_fields():
    return fields.ListField(
        child=fields.StrictCharField(max_length=50), required=False, max_length=MAX_RETURN_FIELDS
    )


class LexicalSearchInSerializer(UnderstandInMixin):
    user_id = fields.StrictCharField(
        required=False,
        max_length=MAX_USER_ID_LENGTH,
        help_text="Whose memory; default: the caller's (a service token names the user).",
    )
    query_text = fields.QueryTextField(help_text='rag query syntax: "不吃辣" AND 火锅, OR, NOT, -x')
    filter = SearchFilterField()
    page_size = fields.IntegerField(required=False, min_value=1, max_value=MAX_PAGE_SIZE)
    cursor = fields.StrictCharField(required=False, max_length=MAX_CURSOR_CHARS)
    return_fields = _return_fields()
    default_operator = serializers.ChoiceField(
        choices=["and", "or"], required=False, help_text="Joins bare words (default or)."
    )


class HighlightSerializer(serializers.Serializer):
    message_id = serializers.CharField()
    snippets = serializers.ListField(child=serializers.CharField())


class ScoreSerializer(serializers.Serializer):
    message_id = serializers.CharField()
    score = serializers.FloatField()


class LexicalSearchOutSerializer(serializers.Serializer):
    items = serializers.ListField(
        child=serializers.DictField(),
        help_text="Message items (the requested fields), each with its `provenance`.",
    )
    next_cursor = serializers.CharField(required=False)
    highlights = HighlightSerializer(many=True)
    scores = ScoreSerializer(many=True)
    understood = _understood()


class SemanticSearchInSerializer(UnderstandInMixin):
    user_id = fields.StrictCharField(
        required=False,
        max_length=MAX_USER_ID_LENGTH,
        help_text="Whose memory; default: the caller's (a service token names the user).",
    )
    filter = SearchFilterField()
    query_text = fields.QueryTextField(required=False)
    query_embedding = fields.ListField(
        child=fields.FloatField(), required=False, max_length=MAX_EMBEDDING_DIMENSIONS
    )
    top_k = fields.IntegerField(
        required=False, min_value=1, max_value=MAX_TOP_K, default=DEFAULT_TOP_K
    )
    min_score = fields.FloatField(required=False, min_value=-1.0, max_value=1.0)
    return_fields = _return_fields()


class HybridSearchInSerializer(SemanticSearchInSerializer):
    query_text = fields.QueryTextField()


class DegradedSerializer(serializers.Serializer):
    """The two fields of every search that embeds its query text."""

    degraded = serializers.BooleanField(
        help_text="True when the query text could not be embedded within the time budget "
        "(provider down or slow): the results are the lexical matches."
    )
    degraded_reason = serializers.ChoiceField(
        choices=list(DEGRADED_REASONS), allow_null=True, help_text="Why (null when not degraded)."
    )


class ProvenanceCoversSerializer(serializers.Serializer):
    until = serializers.CharField(help_text="The last time the summary covers (RFC 3339).")
    count = serializers.IntegerField(help_text="How many messages of the chat it covers.")


class ProvenanceSourceSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=Kind.choices)
    message_id = serializers.CharField()
    chat_id = serializers.CharField()
    ts = serializers.CharField()
    edited_at = serializers.CharField(allow_null=True)
    covers = ProvenanceCoversSerializer(
        allow_null=True, help_text="Summaries: the range of the chat they stand for."
    )


class ProvenanceSerializer(serializers.Serializer):
    source = ProvenanceSourceSerializer()
    retrieved_by = serializers.ChoiceField(
        choices=["lexical", "semantic", "hybrid", "lexical_fallback", "range"],
        help_text="The pass that found the item (lexical_fallback: the query could not be "
        "embedded in time; range: read from the day a question asked about).",
    )
    scores = serializers.DictField(
        child=serializers.FloatField(allow_null=True), help_text="That pass's scores."
    )


class SemanticItemSerializer(MessageSerializer):
    semantic_score = serializers.FloatField(
        allow_null=True, help_text="Null in a degraded answer (a lexical match)."
    )
    lexical_score = serializers.FloatField(
        required=False, help_text="Only in a degraded answer: the lexical rank score."
    )
    provenance = ProvenanceSerializer()


class SemanticSearchOutSerializer(DegradedSerializer):
    items = SemanticItemSerializer(many=True)
    understood = _understood()
    floor = serializers.FloatField(
        allow_null=True, help_text="The min_score asked for; null: the relevance cut decided."
    )
    reason = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="Why the items are empty when the query fits nothing (null otherwise).",
    )


class HybridItemSerializer(MessageSerializer):
    # Absent from the items of a range read (read_as "range"): nothing was scored.
    hybrid_score = serializers.FloatField(required=False)
    lexical_score = serializers.FloatField(required=False)
    lexical_rank = serializers.IntegerField(allow_null=True, required=False)
    semantic_score = serializers.FloatField(allow_null=True, required=False)
    semantic_rank = serializers.IntegerField(allow_null=True, required=False)
    provenance = ProvenanceSerializer()


class HybridSearchOutSerializer(DegradedSerializer):
    items = HybridItemSerializer(many=True)
    read_as = serializers.ChoiceField(
        choices=["similarity", "range"],
        help_text='similarity: a search; range: a question about one day ("5月2日我们聊了什么", '
        '"what did we talk about yesterday"), answered with that day\'s messages in time '
        "order, whatever `understand` says (the day in `understood`, relative days counted "
        "back from `now`).",
    )
    understood = _understood()
