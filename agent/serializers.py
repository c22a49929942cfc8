"""Input and output serializers of the agent API."""

from django.utils.translation import gettext
from rest_framework import serializers

from agent.intent_rules import INTENTS
from agent.models import DeliveryState, EventKind  # noqa: F401  (EventKind re-exported for views)
from config import fields


class LocationSerializer(fields.ClosedSerializer):
    lat = fields.FloatField(min_value=-90, max_value=90)
    lng = fields.FloatField(min_value=-180, max_value=180)


class ChatRequestSerializer(fields.ClosedSerializer):
    # The message is searched by meaning: a query text, bounded by RAG_QUERY_MAX_CHARS.
    message = fields.QueryTextField(trim_whitespace=True)
    chat_id = fields.RegexField(
        r"^[A-Za-z0-9_.:\-]{1,200}$", required=False, allow_null=True, allow_blank=True
    )
    location = LocationSerializer(
        required=False, allow_null=True, help_text="The client's position; used for 附近 (nearby)."
    )
    context_id = fields.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=fields.BIGINT_MAX,
        help_text="The shared context the agent reads (one of yours); default: your most "
        "recently updated one.",
    )


class ToolCallSerializer(serializers.Serializer):
    name = serializers.CharField()
    arguments = serializers.DictField()
    result = serializers.DictField()


class ReplyItemSerializer(serializers.Serializer):
    type = serializers.CharField(help_text="activity or message (a feedback target_type).")
    id = serializers.CharField(help_text="The activity's id or the reply's message_id.")


class ChatResponseSerializer(serializers.Serializer):
    reply = serializers.CharField()
    intent = serializers.ChoiceField(choices=INTENTS)
    mode = serializers.CharField(help_text="The mode that answered (same names as the intents).")
    tool_calls = ToolCallSerializer(many=True)
    chat_id = serializers.CharField()
    sources = serializers.ListField(
        child=serializers.CharField(), help_text="Where each context chunk came from."
    )
    items = ReplyItemSerializer(
        many=True,
        help_text="What the reply recommended or said, to rate with POST /api/feedback/ "
        "(target_type, target_id): the activities the tools returned, then the reply message.",
    )


class EventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="daily_digest, interest_spike or deadline_reminder.")
    period_key = serializers.CharField()
    payload = serializers.DictField()
    created = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class EventListSerializer(serializers.Serializer):
    events = EventSerializer(many=True)


class EventQuerySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=EventKind.choices, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, required=False, default=50)


# --- POST /api/agent/chat/stream: one serializer per event's JSON payload ----------------------


class StreamIntentSerializer(serializers.Serializer):
    intent = serializers.ChoiceField(choices=INTENTS)
    mode = serializers.CharField()
    confidence = serializers.FloatField()
    source = serializers.CharField(help_text="rules, embedding, fused, context, llm or default.")
    chat_id = serializers.CharField()


class StreamToolCallSerializer(serializers.Serializer):
    name = serializers.CharField()
    arguments = serializers.DictField()


class StreamToolResultSerializer(serializers.Serializer):
    name = serializers.CharField()
    result = serializers.DictField()


class StreamDeltaSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The next piece of the reply.")


class StatedPreferenceSerializer(serializers.Serializer):
    category = serializers.CharField()
    value = serializers.CharField()


class StreamDoneSerializer(ChatResponseSerializer):
    engine = serializers.ChoiceField(choices=["offline", "llm"])
    preferences = StatedPreferenceSerializer(
        many=True, help_text="Preferences the message stated (saved to memory)."
    )
    elapsed_ms = serializers.FloatField()


# --- Event delivery: read marks, the events stream, webhooks ------------------------------------


class EventStreamQuerySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=EventKind.choices, required=False)
    wait = serializers.IntegerField(
        min_value=0,
        max_value=3600,
        required=False,
        help_text="Seconds to wait for new events before the stream ends (default and cap: "
        "EVENTS_STREAM_MAX_SECONDS); 0 sends what is there and ends. Clients reconnect with "
        "Last-Event-ID.",
    )
    last_event_id = serializers.IntegerField(
        min_value=0,
        max_value=fields.BIGINT_MAX,
        required=False,
        help_text="Resume after this event id (for clients that cannot send the Last-Event-ID "
        "header; the header wins).",
    )


class EventListQuerySerializer(EventQuerySerializer):
    unread = serializers.BooleanField(
        required=False, default=False, help_text="Only events not yet marked read."
    )


class WebhookInSerializer(fields.ClosedSerializer):
    url = fields.StrictCharField(max_length=2000, help_text="http(s) URL that receives a POST.")
    kinds = fields.ListField(
        max_length=len(EventKind.choices),
        child=serializers.ChoiceField(choices=EventKind.choices),
        required=False,
        default=list,
        help_text="Event kinds to send; empty: all.",
    )
    all_users = serializers.BooleanField(
        required=False, default=False, help_text="Staff clients only: every user's events."
    )


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    kinds = serializers.ListField(child=serializers.CharField())
    all_users = serializers.BooleanField()
    active = serializers.BooleanField(
        help_text="False when turned off by its owner or disabled after repeated failures."
    )
    disabled_at = serializers.DateTimeField(
        allow_null=True, help_text="When it was disabled for failing; null while it is not."
    )
    disabled_code = serializers.CharField(
        source="disabled_reason",
        help_text="Why it was disabled, as a code (consecutive_failures); empty otherwise.",
    )
    disabled_reason = serializers.CharField(
        source="disabled_message",
        help_text="Why it was disabled, in the request's language; empty otherwise.",
    )
    created = serializers.DateTimeField()


class WebhookUpdateSerializer(fields.ClosedSerializer):
    active = serializers.BooleanField(
        help_text="true turns the webhook back on (clearing a disabling), false turns it off."
    )


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        help_text="Shown once: verify X-Memory-Signature = sha256=HMAC-SHA256(secret, "
        "'<X-Memory-Timestamp>.<raw body>') in hex."
    )


class WebhookListSerializer(serializers.Serializer):
    webhooks = WebhookSerializer(many=True)


# What a webhook's owner sees of a delivery: whether it arrived, never the receiver's answer or
# the connection error (that would make the deliveries log a port scanner); the server's log
# and the admin keep the detail.
OWNER_STATES = {
    DeliveryState.PENDING: "pending",
    DeliveryState.RUNNING: "pending",
    DeliveryState.DELIVERED: "delivered",
    DeliveryState.FAILED: "failed",
}


class DeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    state = serializers.SerializerMethodField(
        help_text="pending (queued or being sent, retries included), delivered or failed."
    )
    attempts = serializers.IntegerField(source="delivery_attempts")
    error = serializers.SerializerMethodField(
        help_text="'not delivered' (in the request's language) after a failed attempt, else "
        "empty (details: server log)."
    )
    delivered_at = serializers.DateTimeField(allow_null=True)
    created = serializers.DateTimeField()

    def get_state(self, delivery) -> str:
        return OWNER_STATES.get(delivery.delivery_state, "pending")

    def get_error(self, delivery) -> str:
        return gettext("not delivered") if delivery.delivery_error else ""


class DeliveryListSerializer(serializers.Serializer):
    deliveries = DeliverySerializer(many=True)
