"""Writes of the agent app that are not a tool's own: the user's searches for company, and the
activities they asked not to be reminded of."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from agent.models import PartnerIntent, PartnerIntentStatus, ReminderMute, TaskReminderMute
from config.errors import NotFound


def _same_time(one: dict | None, other: dict | None) -> bool:
    """Return whether two searches are for the same time: no time both, or the same end (a
    window already open starts at the moment it was asked, to the microsecond)."""
    if not one or not other:
        return not one and not other
    return one.get("end") == other.get("end")


def partner_intent_open(
    *, user, activity_type: str, description: str, time_range: dict | None
) -> PartnerIntent:
    """Open a search for company, or return the user's open one of the same kind and time.

    Asking twice ("找个周六一起去爬山的搭子" again) is the same search, not a second one that
    counts and lists twice; its description becomes the newer wording. A search naming neither
    a kind nor a time is always new (nothing says it is the same). The user's row is locked
    for the transaction, so two asks at once take turns: the second finds the first's search.
    """
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if activity_type or time_range:
            for intent in PartnerIntent.objects.filter(
                user=user, status=PartnerIntentStatus.OPEN, activity_type=activity_type
            ):
                if _same_time(intent.time_range, time_range):
                    if intent.description != description:
                        intent.description = description
                        intent.save(update_fields=["description", "updated_at"])
                    return intent
        return PartnerIntent.objects.create(
            user=user, activity_type=activity_type, description=description, time_range=time_range
        )


def partner_intent_close(*, user, intent_id: int) -> PartnerIntent:
    """Close one of the user's open searches for company (不用再找搭子了); NotFound when the user
    has no open search of that id. Closing it again finds none: a second turn says so."""
    intent = PartnerIntent.objects.filter(
        user=user, pk=intent_id, status=PartnerIntentStatus.OPEN
    ).first()
    if intent is None:
        raise NotFound(gettext("No such search for company."))
    intent.status = PartnerIntentStatus.CLOSED
    intent.save(update_fields=["status", "updated_at"])
    return intent


def reminders_set(*, user, activity_ids, remind: bool) -> None:
    """Mute (``remind`` False) or unmute the day-before reminders of these activities for the
    user; safe to repeat (the unique constraint makes a second mute a no-op)."""
    ids = sorted({int(pk) for pk in activity_ids})
    if remind:
        ReminderMute.objects.filter(user=user, activity_id__in=ids).delete()
        return
    ReminderMute.objects.bulk_create(
        [ReminderMute(user=user, activity_id=pk) for pk in ids], ignore_conflicts=True
    )


def task_reminders_cancel(*, user, tasks) -> None:
    """Cancel the reminders of told times (``tasks``: ``(period key, what was said)``) for the
    user; cancelling one again moves its time to now (told again after it, it comes back)."""
    now = timezone.now()
    for key, said in tasks:
        TaskReminderMute.objects.update_or_create(
            user=user, period_key=key, defaults={"said": said[:1000], "created": now}
        )
