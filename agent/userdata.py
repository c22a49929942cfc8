"""The user data the agent holds, declared to ``config.userdata`` (erasure and export).

Webhooks and their delivery log, proactive events, partner intents, muted and cancelled
reminders and the per-chat state (``AgentSession``). The drafts the agent creates are
activities, declared by the activities app; the chat turns it saves are memory's messages.
"""

from __future__ import annotations

from agent.models import (
    AgentSession,
    PartnerIntent,
    ReminderMute,
    SystemEvent,
    TaskReminderMute,
    Webhook,
    WebhookDelivery,
)
from config.userdata import Kind, UserData


def _texts(user):
    """Yield the partner intents' descriptions (not embedded today; cheap to forget anyway)."""
    yield from PartnerIntent.objects.filter(user=user).values_list("description", flat=True)


def declaration() -> UserData:
    """Return the agent's declaration of a user's data."""
    return UserData(
        "agent",
        kinds=(
            Kind(
                "webhook_deliveries",
                WebhookDelivery,
                "webhook__owner",
                description="deliveries to the user's webhooks",
            ),
            Kind(
                "webhooks",
                Webhook,
                "owner",
                left_out=("secret",),
            ),
            Kind(
                "others_deliveries",
                WebhookDelivery,
                lambda user: WebhookDelivery.objects.filter(event__user=user).exclude(
                    webhook__owner=user
                ),
                erased_with="agent_events",
                description="deliveries of the user's events to a service's all-users webhook "
                "(that webhook's log: erased with the events, not exported)",
            ),
            Kind("agent_events", SystemEvent, "user"),
            Kind("partner_intents", PartnerIntent, "user"),
            Kind("agent_sessions", AgentSession, "user"),
            Kind("reminder_mutes", ReminderMute, "user"),
            Kind("task_reminder_mutes", TaskReminderMute, "user"),
        ),
        texts=_texts,
        tasks={
            "agent.tasks.event_fanout": SystemEvent,
            "agent.tasks.webhook_deliveries_send": WebhookDelivery,
        },
    )
