"""Input and output serializers of the memory API (the OpenAPI schema is built from them).

Message batches and search bodies are validated by :mod:`memory.validation` after the
serializer, so an error names the exact item (``items[3].ts``).
"""

from rest_framework import serializers

from memory.models import Kind, Role
from memory.search import DEFAULT_TOP_K, MAX_PAGE_SIZE, MAX_TOP_K
from rag.embeddings import DEGRADED_REASONS

# --- messages -------------------------------------------------------------------------------


class MessageItemInSerializer(serializers.Serializer):
    message_id = serializers.CharField(required=False, max_length=100)
    ts = serializers.CharField(help_text="RFC 3339 timestamp with a time zone.")
    role = serializers.ChoiceField(choices=Role.choices)
    content = serializers.CharField()
    chat_id = serializers.CharField(required=False, allow_blank=True, max_length=200)


class MessagesWriteInSerializer(serializers.Serializer):
    items = MessageItemInSerializer(many=True, help_text="1 to 500 messages, stored atomically.")


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


class MessageListOutSerializer(serializers.Serializer):
    items = MessageSerializer(many=True)
    next_cursor = serializers.CharField(required=False)


class MessageListQuerySerializer(serializers.Serializer):
    since = serializers.CharField(required=False, help_text="RFC 3339, inclusive.")
    until = serializers.CharField(required=False, help_text="RFC 3339, exclusive.")
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    kind = serializers.ChoiceField(choices=Kind.choices, required=False)
    chat_id = serializers.CharField(required=False)
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=500, default=50)
    cursor = serializers.CharField(required=False)


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


class TimeRangeSerializer(serializers.Serializer):
    since = serializers.CharField(required=False, help_text="RFC 3339, inclusive.")
    until = serializers.CharField(required=False, help_text="RFC 3339, exclusive.")


class SearchFilterSerializer(serializers.Serializer):
    time_range = TimeRangeSerializer(required=False)
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    chat_id = serializers.CharField(required=False)
    kind = serializers.ChoiceField(choices=Kind.choices, required=False)


class LexicalSearchInSerializer(serializers.Serializer):
    user_id = serializers.CharField()
    query_text = serializers.CharField(help_text='rag query syntax: "不吃辣" AND 火锅, OR, NOT, -x')
    filter = serializers.JSONField(required=False, help_text="SearchFilter")
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=MAX_PAGE_SIZE)
    cursor = serializers.CharField(required=False)
    return_fields = serializers.ListField(child=serializers.CharField(), required=False)
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
    items = serializers.ListField(child=serializers.DictField(), help_text="Message items.")
    next_cursor = serializers.CharField(required=False)
    highlights = HighlightSerializer(many=True)
    scores = ScoreSerializer(many=True)


class SemanticSearchInSerializer(serializers.Serializer):
    user_id = serializers.CharField()
    filter = serializers.JSONField(required=False, help_text="SearchFilter")
    query_text = serializers.CharField(required=False)
    query_embedding = serializers.ListField(child=serializers.FloatField(), required=False)
    top_k = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_TOP_K, default=DEFAULT_TOP_K
    )
    min_score = serializers.FloatField(required=False, min_value=-1.0, max_value=1.0)
    return_fields = serializers.ListField(child=serializers.CharField(), required=False)


class HybridSearchInSerializer(SemanticSearchInSerializer):
    query_text = serializers.CharField()


class DegradedSerializer(serializers.Serializer):
    """The two fields of every search that embeds its query text."""

    degraded = serializers.BooleanField(
        help_text="True when the query text could not be embedded within the time budget "
        "(provider down or slow): the results are the lexical matches."
    )
    degraded_reason = serializers.ChoiceField(
        choices=list(DEGRADED_REASONS), allow_null=True, help_text="Why (null when not degraded)."
    )


class SemanticItemSerializer(MessageSerializer):
    semantic_score = serializers.FloatField(
        allow_null=True, help_text="Null in a degraded answer (a lexical match)."
    )
    lexical_score = serializers.FloatField(
        required=False, help_text="Only in a degraded answer: the lexical rank score."
    )


class SemanticSearchOutSerializer(DegradedSerializer):
    items = SemanticItemSerializer(many=True)
    floor = serializers.FloatField(allow_null=True)


class HybridItemSerializer(MessageSerializer):
    hybrid_score = serializers.FloatField()
    lexical_score = serializers.FloatField()
    lexical_rank = serializers.IntegerField(allow_null=True)
    semantic_score = serializers.FloatField(allow_null=True)
    semantic_rank = serializers.IntegerField(allow_null=True)


class HybridSearchOutSerializer(DegradedSerializer):
    items = HybridItemSerializer(many=True)


# --- persona, deletion, shared contexts -----------------------------------------------------


class PreferenceInSerializer(serializers.Serializer):
    category = serializers.CharField(max_length=100)
    value = serializers.CharField(max_length=1000)


class PreferenceSerializer(serializers.Serializer):
    category = serializers.CharField()
    value = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class PreferenceListSerializer(serializers.Serializer):
    items = PreferenceSerializer(many=True)


class FeedbackInSerializer(serializers.Serializer):
    target_message_id = serializers.CharField(max_length=100)
    rating = serializers.ChoiceField(choices=[-1, 0, 1])
    comment = serializers.CharField(required=False, allow_blank=True, max_length=5000)


class FeedbackSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    target_message_id = serializers.CharField()
    rating = serializers.IntegerField()
    comment = serializers.CharField()
    created_at = serializers.DateTimeField()


class UserDeleteOutSerializer(serializers.Serializer):
    deleted = serializers.DictField(child=serializers.IntegerField())


class ContextCreateInSerializer(serializers.Serializer):
    user_id = serializers.CharField(required=False, help_text="Owner; default: the caller.")
    title = serializers.CharField(max_length=300)
    entry = serializers.CharField(help_text="The first entry.")
    agent_name = serializers.CharField(max_length=100)


class ContextEntryInSerializer(serializers.Serializer):
    agent_name = serializers.CharField(max_length=100)
    content = serializers.CharField()


class ContextEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    agent_name = serializers.CharField()
    content = serializers.CharField()
    created_at = serializers.DateTimeField()


class ContextSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    owner = serializers.CharField()
    title = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    entries = ContextEntrySerializer(many=True)
