"""The project's URLs plus test-only views under every API prefix."""

from django.urls import path

from config.urls import handler404, handler500
from config.urls import urlpatterns as project_urlpatterns
from tests.testapp import views

urlpatterns = [
    path("api/testapp/whoami", views.WhoAmIView.as_view()),
    path("api/testapp/echo", views.EchoView.as_view()),
    path("api/testapp/boom", views.BoomView.as_view()),
    path("rag/testapp/throttled", views.ThrottledView.as_view()),
    path("v1/testapp/plain-boom", views.plain_boom),
    path("v1/testapp/plain-post-only", views.plain_post_only),
    *project_urlpatterns,
]

__all__ = ["handler404", "handler500", "urlpatterns"]
