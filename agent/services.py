"""Writes of the agent app that are not a tool's own: the user's searches for company."""

from __future__ import annotations

from agent.models import PartnerIntent, PartnerIntentStatus


def partner_intent_open(
    *, user, activity_type: str, description: str, time_range: dict | None
) -> PartnerIntent:
    """Open a search for company, or return the user's open one of the same kind and time.

    Asking twice ("找个周六一起去爬山的搭子" again) is the same search, not a second one that
    counts twice and lists twice; its description becomes the newer wording. The row lock
    keeps two concurrent asks from both finding none (one waits for the other's commit).
    """
    same = (
        PartnerIntent.objects.select_for_update()
        .filter(user=user, status=PartnerIntentStatus.OPEN, activity_type=activity_type)
        .order_by("-created_at", "-pk")
    )
    existing = next((i for i in same if (i.time_range or None) == (time_range or None)), None)
    if existing is None:
        return PartnerIntent.objects.create(
            user=user, activity_type=activity_type, description=description, time_range=time_range
        )
    if existing.description != description:
        existing.description = description
        existing.save(update_fields=["description"])
    return existing
