from django.urls import path

from memory import views, views_edit, views_export, views_persona

U = "v1/users/<str:user_id>"

urlpatterns = [
    path(f"{U}/messages", views.MessagesView.as_view(), name="memory-messages"),
    path(
        f"{U}/messages/<str:message_id>",
        views_edit.MessageDetailView.as_view(),
        name="memory-message",
    ),
    path(
        f"{U}/messages/<str:message_id>/neighbors",
        views.NeighborsView.as_view(),
        name="memory-neighbors",
    ),
    path(f"{U}/chats/<str:chat_id>/context", views.ChatContextView.as_view(), name="memory-ctx"),
    path(f"{U}/preferences", views_persona.PreferencesView.as_view(), name="memory-preferences"),
    path(
        f"{U}/preferences/<int:preference_id>",
        views_edit.PreferenceDetailView.as_view(),
        name="memory-preference",
    ),
    path(f"{U}/feedback", views_persona.FeedbackView.as_view(), name="memory-feedback"),
    path(U, views_persona.UserDataView.as_view(), name="memory-user"),
    path(f"{U}/export", views_export.UserExportView.as_view(), name="memory-user-export"),
    path("v1/messages/lexical_search", views.LexicalSearchView.as_view(), name="memory-lexical"),
    path("v1/messages/semantic_search", views.SemanticSearchView.as_view(), name="memory-semantic"),
    path("v1/messages/hybrid_search", views.HybridSearchView.as_view(), name="memory-hybrid"),
    path("api/feedback/", views_persona.RatingsView.as_view(), name="feedback"),
    path("v1/contexts", views_persona.ContextsView.as_view(), name="memory-contexts"),
    path(
        "v1/contexts/<int:context_id>",
        views_persona.ContextDetailView.as_view(),
        name="memory-context",
    ),
    path(
        "v1/contexts/<int:context_id>/entries",
        views_persona.ContextEntriesView.as_view(),
        name="memory-context-entries",
    ),
    path(
        "v1/contexts/<int:context_id>/entries/<int:entry_id>",
        views_edit.ContextEntryDetailView.as_view(),
        name="memory-context-entry",
    ),
]
