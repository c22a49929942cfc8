"""Input and output serializers of the memory API (the OpenAPI schema is built from them).

Message batches and search filters are validated by :mod:`memory.validation` alone, so an
error names the exact item (``items[3].ts``); their serializers describe the schema with the
bounds read from there.
"""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config import fields
from config.inputs import DATETIME_RANGE_TEXT
from memory.identity import MAX_USER_ID_LENGTH
from memory.models import Kind, Role
from memory.search import DEFAULT_TOP_K, MAX_PAGE_SIZE, MAX_TOP_K
from memory.validation import (
    MAX_CHAT_ID_CHARS,
    MAX_CONTENT_CHARS,
    MAX_ITEMS,
    MAX_MESSAGE_ID_CHARS,
)
from rag.embeddings import DEGRADED_REASONS

MAX_CURSOR_CHARS = 500
MAX_RETURN_FIELDS = 20
# Generous for any embedding model (the column's own dimension is checked by the search).
MAX_EMBEDDING_DIMENSIONS = 8192

# --- messages -------------------------------------------------------------------------------


class MessageItemInSerializer(fields.ClosedSerializer):
    message_id = fields.StrictCharField(required=False, max_length=MAX_MESSAGE_ID_CHARS)
    ts = fields.StrictCharField(
        help_text="RFC 3339 timestamp with a time zone, from 1970-01-01T00:00:00Z up to "
        "(not including) 2100-01-01T00:00:00Z."
    )
    role = serializers.ChoiceField(choices=Role.choices)
    content = fields.TextField(max_length=MAX_CONTENT_CHARS)
    chat_id = fields.StrictCharField(required=False, allow_blank=True, max_length=MAX_CHAT_ID_CHARS)


class MessagesWriteInSerializer(fields.ClosedSerializer):
    items = MessageItemInSerializer(
        many=True, max_length=MAX_ITEMS, help_text=f"1 to {MAX_ITEMS} messages, stored atomically."
    )


class MessageStatusSerializer(serializers.Serializer):
    message_id = serializers.CharField()
    status = serializers.ChoiceField(choices=["created", "unchanged"])


class MessagesWriteOutSerializer(serializers.Serializer):
    items = MessageStatusSerializer(many=True)
    created = serializers.IntegerField()
    unchanged = serializers.IntegerField()


class MessageSerializer(serializers.Serializer):
    message_id = serializers.CharField()
    user_id = serializers.CharField()
    chat_id = serializers.CharField()
    ts = serializers.CharField()
    role = serializers.ChoiceField(choices=Role.choices)
    kind = serializers.ChoiceField(choices=Kind.choices)
    content = serializers.CharField()
    summarised = serializers.BooleanField()
    embed_state = serializers.CharField()
    edited_at = serializers.CharField(
        allow_null=True, help_text="When the content was last corrected (null: as written)."
    )
    stale = serializers.BooleanField(
        help_text="Summaries: a message it covers changed and an LLM wrote it (may be outdated)."
    )


class MessageListOutSerializer(serializers.Serializer):
    items = MessageSerializer(many=True)
    next_cursor = serializers.CharField(required=False)


class MessageListQuerySerializer(serializers.Serializer):
    since = serializers.CharField(required=False, help_text="RFC 3339, inclusive.")
    until = serializers.CharField(required=False, help_text="RFC 3339, exclusive.")
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    kind = serializers.ChoiceField(choices=Kind.choices, required=False)
    chat_id = serializers.CharField(required=False, max_length=MAX_CHAT_ID_CHARS)
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=500, default=50)
    cursor = serializers.CharField(required=False, max_length=MAX_CURSOR_CHARS)


class NeighborsQuerySerializer(serializers.Serializer):
    before = serializers.IntegerField(required=False, min_value=0, max_value=200, default=20)
    after = serializers.IntegerField(required=False, min_value=0, max_value=200, default=0)


class NeighborsOutSerializer(serializers.Serializer):
    items = MessageSerializer(many=True)


class ContextQuerySerializer(serializers.Serializer):
    budget = serializers.IntegerField(required=False, min_value=1, max_value=200_000, default=4000)


class ChatContextOutSerializer(serializers.Serializer):
    chat_id = serializers.CharField()
    summary = MessageSerializer(allow_null=True)
    messages = MessageSerializer(many=True)
    used_chars = serializers.IntegerField()
    truncated = serializers.BooleanField()


# --- search ---------------------------------------------------------------------------------


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
        default=False,
        help_text="Read a past time phrase in query_text (上周, 三月, 昨天, last May, yesterday) "
        "in time_zone: filter by its window, or rank by closeness to it when the filter would "
        "leave nothing; the response's `understood` says which (docs/memory.md).",
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
        help_text="The time phrase understood (with understand: true), or null.",
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


# --- persona, deletion, shared contexts -----------------------------------------------------


class PreferenceInSerializer(fields.ClosedSerializer):
    category = fields.StrictCharField(max_length=100)
    value = fields.StrictCharField(max_length=1000)


class PreferenceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    category = serializers.CharField(help_text="The category as stored (food, vibe, likes...).")
    category_label = serializers.CharField(
        help_text="The category's name in the request's language (as stored when unknown)."
    )
    value = serializers.CharField(
        help_text="As the user stated it, in their language ('no spicy food', '不吃辣')."
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    superseded_at = serializers.DateTimeField(
        allow_null=True, help_text="When a later, contradicting preference replaced it."
    )
    superseded_by = serializers.IntegerField(allow_null=True, source="superseded_by_id")


class PreferenceQuerySerializer(serializers.Serializer):
    history = serializers.BooleanField(
        required=False, default=False, help_text="Include preferences later ones replaced."
    )


class PreferenceUpdateInSerializer(fields.ClosedSerializer):
    category = fields.StrictCharField(max_length=100, required=False)
    value = fields.StrictCharField(max_length=1000, required=False)


class MessageUpdateInSerializer(fields.ClosedSerializer):
    content = fields.TextField(max_length=MAX_CONTENT_CHARS, required=False)
    role = serializers.ChoiceField(choices=Role.choices, required=False)


class ContextEntryUpdateInSerializer(fields.ClosedSerializer):
    content = fields.TextField()


class PreferenceListSerializer(serializers.Serializer):
    items = PreferenceSerializer(many=True)


class FeedbackInSerializer(fields.ClosedSerializer):
    target_message_id = fields.StrictCharField(max_length=100)
    rating = serializers.ChoiceField(choices=[-1, 0, 1])
    comment = fields.StrictCharField(required=False, allow_blank=True, max_length=5000)


class FeedbackSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    target_message_id = serializers.CharField()
    rating = serializers.IntegerField()
    comment = serializers.CharField()
    created_at = serializers.DateTimeField()


class FeedbackRateInSerializer(fields.ClosedSerializer):
    target_type = serializers.ChoiceField(
        choices=["activity", "message"],
        help_text="What is rated: an activity a chat reply recommended, or a message (an "
        "answer) of the user's chats.",
    )
    target_id = fields.StrictCharField(
        max_length=100,
        help_text="The activity's id, or the message's message_id (both are in a chat reply's "
        "`items`).",
    )
    rating = fields.IntegerField(min_value=-1, max_value=1, help_text="-1 (not for me) or 1.")
    comment = fields.StrictCharField(required=False, allow_blank=True, max_length=5000)


class FeedbackItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    target_type = serializers.CharField()
    target_id = serializers.CharField(source="rated_id")
    target_label = serializers.CharField(
        help_text="What was rated: the activity's title or the message's first words."
    )
    rating = serializers.IntegerField()
    comment = serializers.CharField()
    created_at = serializers.DateTimeField()


class FeedbackListQuerySerializer(serializers.Serializer):
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=200, default=50)
    cursor = serializers.CharField(required=False, max_length=MAX_CURSOR_CHARS)


class FeedbackListSerializer(serializers.Serializer):
    items = FeedbackItemSerializer(many=True)
    next_cursor = serializers.CharField(
        required=False, help_text="Send it as `cursor` for the next page; absent on the last."
    )


class UserDeleteOutSerializer(serializers.Serializer):
    deleted = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="What was removed, per kind: every kind an app declares in config.userdata "
        "(messages, books, chapters, activities, agent_events, ...; zeros included), "
        "embedding_cache, admin_log_entries (scrubbed), task_rows and account (1: the account "
        "itself, its token and sessions are deleted too).",
    )


class ContextCreateInSerializer(fields.ClosedSerializer):
    user_id = fields.StrictCharField(
        required=False, max_length=MAX_USER_ID_LENGTH, help_text="Owner; default: the caller."
    )
    title = fields.StrictCharField(max_length=300)
    entry = fields.TextField(help_text="The first entry.")
    agent_name = fields.StrictCharField(max_length=100)


class ContextEntryInSerializer(fields.ClosedSerializer):
    agent_name = fields.StrictCharField(max_length=100)
    content = fields.TextField()


class ContextEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    agent_name = serializers.CharField()
    content = serializers.CharField()
    created_at = serializers.DateTimeField()


class ContextListQuerySerializer(serializers.Serializer):
    user_id = fields.StrictCharField(
        required=False,
        max_length=MAX_USER_ID_LENGTH,
        help_text="Staff tokens only: list this user's contexts. Default: the caller's.",
    )
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=200, default=50)
    cursor = serializers.CharField(required=False, max_length=MAX_CURSOR_CHARS)


class ContextSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    owner = serializers.CharField(source="owner.get_username")
    title = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    entry_count = serializers.IntegerField()
    latest_entry = ContextEntrySerializer(allow_null=True)


class ContextListSerializer(serializers.Serializer):
    items = ContextSummarySerializer(many=True)
    next_cursor = serializers.CharField(
        required=False, help_text="Send it as `cursor` for the next page; absent on the last."
    )


class ContextSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    owner = serializers.CharField()
    title = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    entries = ContextEntrySerializer(many=True)
