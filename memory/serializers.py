"""Input and output serializers of the memory API (the OpenAPI schema is built from them).

Message batches and search filters are validated by :mod:`memory.validation` alone, so an
error names the exact item (``items[3].ts``); their serializers describe the schema with the
bounds read from there.
"""

from rest_framework import serializers

from config import fields
from memory.identity import MAX_USER_ID_LENGTH
from memory.models import Kind, Role
from memory.validation import (
    MAX_CHAT_ID_CHARS,
    MAX_CONTENT_CHARS,
    MAX_ITEMS,
    MAX_MESSAGE_ID_CHARS,
    MAX_SPEAKER_CHARS,
)

MAX_CURSOR_CHARS = 500

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
    speaker = fields.StrictCharField(
        required=False,
        allow_blank=True,
        max_length=MAX_SPEAKER_CHARS,
        help_text='Who said it, by name ("Caroline"); optional. Hybrid search ranks the turns '
        "of a speaker the question names first.",
    )


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
    speaker = serializers.CharField(help_text="Who said it, by name (empty: not given).")
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
    # Checked by memory.validation.clean_speaker, the rule of a write, not here: a bound
    # here would count the spaces that rule strips first.
    speaker = fields.StrictCharField(
        required=False,
        allow_blank=True,
        allow_null=True,
        trim_whitespace=False,
        help_text=f"Who said it, by name; at most {MAX_SPEAKER_CHARS} characters once "
        "stripped of surrounding spaces. Empty or null clears it (the rule of a write).",
    )

    def validate_speaker(self, value):
        # Null clears the speaker, as on a write (memory.validation.clean_speaker); the
        # service reads None as "not given".
        return "" if value is None else value


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
