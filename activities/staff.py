"""Staff-only pages: the activity browser and the search playground."""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from activities.models import Activity, ActivityStatus, IndexState
from activities.search import activities_search
from activities.search_meta import said
from config.admin_display import local_datetime
from config.errors import ServiceError


@staff_member_required
def activity_browser(request):
    """List activities with filters, their index state and the embedded text."""
    qs = (
        Activity.objects.defer("embedding", "meta_embedding")
        .select_related("creator")
        .order_by("start_at", "pk")
    )
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
            "statuses": ActivityStatus.choices,
            "states": IndexState.choices,
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


# The search's own words (its meta is English, like the API), shown in the staff's language.
PATH_LABELS = {
    "semantic": gettext_lazy("semantic: ranked by meaning"),
    "hard_filter_small": gettext_lazy("few candidates: every row that passes the filters"),
    "hard_filter_sorted": gettext_lazy("no words to rank by: the filtered rows, sorted"),
    "hard_filter_degraded": gettext_lazy("degraded: the query could not be embedded"),
}
APPLIED_LABELS = {
    "filter": gettext_lazy("filter: only activities in the window"),
    "rank": gettext_lazy("rank: closest to the window first"),
    "none": gettext_lazy("not applied"),
    "radius": gettext_lazy("radius filter"),
    "location": gettext_lazy("orders by distance"),
    "unknown": gettext_lazy("asked, but the request has no location"),
}
LANGUAGE_LABELS = {
    "zh": gettext_lazy("Chinese"),
    "en": gettext_lazy("English"),
    "mixed": gettext_lazy("mixed"),
    "und": gettext_lazy("undetermined"),
}


def stages(outcome: dict) -> dict:
    """Return what each stage of a search did, worded for the playground.

    ``time``: the understood time phrase, its window (in the admin's time zone), whether it
    filtered or ranked, and why; ``relevance``: the cut's gate, the best margin, whether the
    query was off-topic and how many hits it dropped; ``empty_reason``: why nothing was found.
    """
    meta = outcome.get("meta") or {}
    understood = meta.get("understood") or {}
    time = understood.get("time")
    if time:
        time = {
            **time,
            "start_local": local_datetime(time.get("start")),
            "end_local": local_datetime(time.get("end")),
            "applied_label": APPLIED_LABELS.get(time.get("applied"), time.get("applied")),
            "reason_text": said(time.get("reason")),
        }
    place = understood.get("place")
    if place:
        place = {
            **place,
            "applied_label": APPLIED_LABELS.get(place.get("applied"), place.get("applied")),
        }
    reason = said(meta.get("reason"))
    empty_reason = ""
    if not outcome.get("results"):
        if reason:
            empty_reason = reason
        elif not meta.get("candidates"):
            empty_reason = (time or {}).get("reason_text") or _("no activity passes the filters")
        elif meta.get("degraded"):
            empty_reason = _("the query could not be embedded and no row passes the filters")
        else:
            empty_reason = _("every candidate was cut as not relevant")
    return {
        "path_label": PATH_LABELS.get(meta.get("path"), meta.get("path")),
        "language": LANGUAGE_LABELS.get(understood.get("language"), understood.get("language")),
        "understood": understood,
        "time": time,
        "place": place,
        "relevance": meta.get("relevance"),
        "reason": reason,
        "empty_reason": empty_reason,
    }


@staff_member_required
def search_playground(request):
    """Run a search and show each result's similarity, boost, score, reason and the path."""
    params = request.GET
    query = params.get("q", "")
    as_user = params.get("as_user", "")
    outcome, error = None, None
    if len(query) > settings.RAG_QUERY_MAX_CHARS:
        error = _("The query is longer than %(max)d characters.") % {
            "max": settings.RAG_QUERY_MAX_CHARS
        }
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
        {
            "params": params,
            "outcome": outcome,
            "stages": stages(outcome) if outcome else None,
            "error": error,
            "query": query,
        },
    )
