from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView

from config import error_middleware, views, views_tokens
from config.api_docs import LocalRedocView, LocalSwaggerView, redoc_bundle

admin.site.site_header = _("Semantic Memory administration")
admin.site.site_title = _("Semantic Memory")
admin.site.index_title = _("Site administration")
admin.site.site_url = "/"  # "View site": the home page, which links to the staff pages

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", LocalSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", LocalRedocView.as_view(url_name="schema"), name="redoc"),
    path("api/redoc/redoc.standalone.js", redoc_bundle, name="redoc-bundle"),
    path("v1/tokens", views_tokens.TokensView.as_view(), name="tokens"),
    path("v1/tokens/<int:token_id>", views_tokens.TokenDetailView.as_view(), name="token"),
    path(
        "v1/tokens/<int:token_id>/rotate",
        views_tokens.TokenRotateView.as_view(),
        name="token-rotate",
    ),
    path("", include("rag.urls")),
    path("", include("activities.urls")),
    path("", include("writing.urls")),
    path("", include("memory.urls")),
    path("", include("agent.urls")),
]

handler404 = error_middleware.handler404
handler500 = error_middleware.handler500
