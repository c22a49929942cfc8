"""Searches for company (agent.services.partner_intent_open, partner_intent_close)."""

from __future__ import annotations

import pytest
from django.db import transaction

from agent.models import PartnerIntent, PartnerIntentStatus
from agent.services import partner_intent_close, partner_intent_open
from config.errors import NotFound

pytestmark = pytest.mark.django_db

SATURDAY = {"start": "2026-11-28T00:00:00+08:00", "end": "2026-11-28T23:59:59+08:00"}


def _open(user, kind="户外", time_range=SATURDAY, description="找个周六一起去爬山的搭子"):
    with transaction.atomic():
        return partner_intent_open(
            user=user, activity_type=kind, description=description, time_range=time_range
        )


def test_asking_twice_for_the_same_company_keeps_one_search(user):
    first = _open(user)
    again = _open(user, description="周六爬山有人一起吗")

    assert again.pk == first.pk
    assert PartnerIntent.objects.filter(user=user).count() == 1
    assert PartnerIntent.objects.get(pk=first.pk).description == "周六爬山有人一起吗"


@pytest.mark.parametrize(("kind", "time_range"), [("运动", SATURDAY), ("户外", None)])
def test_another_kind_or_time_is_another_search(user, kind, time_range):
    _open(user)
    _open(user, kind=kind, time_range=time_range)

    assert PartnerIntent.objects.filter(user=user).count() == 2


def test_a_closed_search_is_not_reopened(user):
    first = _open(user)
    PartnerIntent.objects.filter(pk=first.pk).update(status=PartnerIntentStatus.CLOSED)

    assert _open(user).pk != first.pk


def test_another_users_search_is_never_reused(user, other_user):
    theirs = _open(other_user)

    assert _open(user).pk != theirs.pk


def test_a_window_asked_again_later_is_the_same_search(user):
    later = {**SATURDAY, "start": "2026-11-28T09:41:07.681887+08:00"}
    first = _open(user, time_range={**SATURDAY, "start": "2026-11-28T09:40:52.670788+08:00"})

    assert _open(user, time_range=later).pk == first.pk


def test_searches_naming_neither_kind_nor_time_are_never_merged(user):
    _open(user, kind="", time_range=None, description="想找人聊聊天")
    _open(user, kind="", time_range=None, description="找个饭搭子")

    assert PartnerIntent.objects.filter(user=user).count() == 2


def test_another_users_search_for_company_cannot_be_closed(user, django_user_model):
    other = django_user_model.objects.create_user("other49")
    theirs = PartnerIntent.objects.create(user=other, activity_type="运动", description="羽毛球")

    with pytest.raises(NotFound):
        partner_intent_close(user=user, intent_id=theirs.pk)
    theirs.refresh_from_db()
    assert theirs.status == PartnerIntentStatus.OPEN


def test_a_closed_search_is_closed_once(user):
    mine = _open(user)

    assert partner_intent_close(user=user, intent_id=mine.pk).status == PartnerIntentStatus.CLOSED
    with pytest.raises(NotFound):
        partner_intent_close(user=user, intent_id=mine.pk)
