"""Pages of the project itself (not of an app): the home page at ``/``, the site icon."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

# The staff pages of the apps, linked from the home page and the admin index (staff only).
STAFF_PAGES = (
    ("activities-staff-browser", _("Activities"), _("every activity, its index state and text")),
    (
        "activities-staff-search",
        _("Search playground"),
        _("run a search as any user, see each stage"),
    ),
    (
        "writing-staff-index",
        _("Writing"),
        _("books, chapters, their chunks and a search per book"),
    ),
)


def staff_pages(request) -> dict:
    """Add ``staff_pages`` (label, url, what it shows) to templates rendered for staff."""
    user = getattr(request, "user", None)
    if not (user and user.is_active and user.is_staff):
        return {"staff_pages": ()}
    return {"staff_pages": [(label, reverse(name), text) for name, label, text in STAFF_PAGES]}


@require_GET
def home(request):
    """Say what this service is and link to its admin, API docs, health and staff pages."""
    return render(request, "home.html")


# Browsers ask every site for /favicon.ico (the admin's and the API docs' pages name no icon):
# without one each page logs a failed request in the browser's console.
FAVICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    '<circle cx="8" cy="8" r="7" fill="#417690"/></svg>'
)


@require_GET
def favicon(request):
    """Serve the site's icon (a small SVG), cacheable for a day."""
    response = HttpResponse(FAVICON_SVG, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response
