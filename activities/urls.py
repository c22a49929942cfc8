from django.urls import path

from activities import staff, views

urlpatterns = [
    path("api/activities/", views.ActivityListCreateView.as_view(), name="activities-list"),
    path(
        "api/activities/<int:activity_id>/",
        views.ActivityDetailView.as_view(),
        name="activities-detail",
    ),
    path(
        "api/activities/<int:activity_id>/join/",
        views.ActivityJoinView.as_view(),
        name="activities-join",
    ),
    path(
        "api/activities/<int:activity_id>/feedback/",
        views.ActivityFeedbackView.as_view(),
        name="activities-feedback",
    ),
    path("rag/search", views.SearchView.as_view(), name="rag-search"),
    path("staff/activities/", staff.activity_browser, name="activities-staff-browser"),
    path("staff/activities/search/", staff.search_playground, name="activities-staff-search"),
]
