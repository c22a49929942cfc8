from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import errors
from config.api_docs import LocalRedocView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", LocalRedocView.as_view(url_name="schema"), name="redoc"),
    path("", include("rag.urls")),
    path("", include("activities.urls")),
    path("", include("writing.urls")),
    path("", include("memory.urls")),
    path("", include("agent.urls")),
]

handler404 = errors.handler404
handler500 = errors.handler500
