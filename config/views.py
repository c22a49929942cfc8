"""Pages of the project itself (not of an app): the home page at ``/``."""

from __future__ import annotations

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
