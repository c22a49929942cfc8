"""Staff-only pages: the activity browser and the search playground."""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import render

from activities.models import Activity, ActivityStatus, IndexState
from activities.search import activities_search
from config.errors import ServiceError


@staff_member_required
def activity_browser(request):
    """List activities with filters, their index state and the embedded text."""
    qs = Activity.objects.defer("embedding").select_related("creator").order_by("start_at", "pk")
    status = request.GET.get("status") or ""
    type_ = request.GET.get("type") or ""
    state = request.GET.get("index_state") or ""
    q = (request.GET.get("q") or "").strip()
    if status:
        qs = qs.filter(status=status)
    if type_:
        qs = qs.filter(type=type_)
    if state:
        qs = qs.filter(index_state=state)
    if q:
        qs = qs.filter(Q(title__icontains=q) | Q(description__icontains=q))
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    types = Activity.objects.order_by("type").values_list("type", flat=True).distinct()
    return render(
        request,
        "activities/browser.html",
        {
            "page": page,
            "statuses": ActivityStatus.values,
            "states": IndexState.values,
            "types": list(types),
            "filters": {"status": status, "type": type_, "index_state": state, "q": q},
        },
    )


def _float(value):
    """Return a finite float from a query parameter, or None (``nan``, ``1e400``: None)."""
    try:
        number = float(value) if value not in (None, "") else None
    except ValueError:
        return None
    return number if number is not None and math.isfinite(number) else None


@staff_member_required
def search_playground(request):
    """Run a search and show each result's similarity, boost, score, reason and the path."""
    params = request.GET
    query = params.get("q", "")
    as_user = params.get("as_user", "")
    outcome, error = None, None
    if len(query) > settings.RAG_QUERY_MAX_CHARS:
        error = f"The query is longer than {settings.RAG_QUERY_MAX_CHARS} characters."
    elif "q" in params:
        filters: dict = {}
        lat, lng, radius = (
            _float(params.get("lat")),
            _float(params.get("lng")),
            _float(params.get("radius")),
        )
        if lat is not None and lng is not None:
            filters["location"] = {"lat": lat, "lng": lng, "radiusInKm": radius}
        if params.get("type"):
            filters["type"] = params["type"]
        if params.get("start") or params.get("end"):
            filters["timeRange"] = {"start": params.get("start"), "end": params.get("end")}
        user = request.user
        if as_user:
            user = get_user_model().objects.filter(username=as_user).first() or request.user
        try:
            outcome = activities_search(
                user=user,
                semantic_query=query,
                filters=filters,
                limit=min(max(int(_float(params.get("limit")) or 20), 1), 50),
            )
        except ServiceError as exc:
            error = exc.message
    return render(
        request,
        "activities/search.html",
        {"params": params, "outcome": outcome, "error": error, "query": query},
    )
