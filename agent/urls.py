from django.urls import path

from agent import views, views_events

E = "v1/users/<str:user_id>"

urlpatterns = [
    path("api/agent/chat", views.ChatView.as_view(), name="agent-chat"),
    path("api/agent/chat/stream", views.ChatStreamView.as_view(), name="agent-chat-stream"),
    path(f"{E}/events", views.UserEventsView.as_view(), name="agent-events"),
    path(
        f"{E}/events/stream",
        views_events.UserEventsStreamView.as_view(),
        name="agent-events-stream",
    ),
    path(
        f"{E}/events/<int:event_id>/read",
        views_events.EventReadView.as_view(),
        name="agent-event-read",
    ),
    path(f"{E}/webhooks", views_events.WebhooksView.as_view(), name="agent-webhooks"),
    path(
        f"{E}/webhooks/<int:webhook_id>",
        views_events.WebhookDetailView.as_view(),
        name="agent-webhook",
    ),
    path(
        f"{E}/webhooks/<int:webhook_id>/deliveries",
        views_events.WebhookDeliveriesView.as_view(),
        name="agent-webhook-deliveries",
    ),
]
