from django.urls import path

from agent import views

urlpatterns = [
    path("api/agent/chat", views.ChatView.as_view(), name="agent-chat"),
    path("api/agent/chat/stream", views.ChatStreamView.as_view(), name="agent-chat-stream"),
    path("v1/users/<str:user_id>/events", views.UserEventsView.as_view(), name="agent-events"),
]
