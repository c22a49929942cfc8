"""Helpers for admin pages: long text shortened or wrapped, times in the admin's time zone.

A changelist column holding a title, a URL or a message shows at most :data:`SHORT_CHARS`
characters (the full text is on the change page), an inline row's text box is small
(:func:`compact_text`), and machine text (an index's text) is shown wrapped as code
(:func:`machine_text`), so that no page is wider than a 1400-pixel window.
"""

from __future__ import annotations

from datetime import datetime
from operator import attrgetter

from django import forms
from django.contrib import admin
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html

SHORT_CHARS = 60


class ReadOnlyMixin:
    """An admin page of rows only the service writes: never added or edited here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


def shorten(text, limit: int = SHORT_CHARS) -> str:
    """Return ``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def short_column(field: str, description, *, limit: int = SHORT_CHARS, ordering=None):
    """Return a changelist column showing ``field`` (a dotted path on the row) shortened.

    ``short_title = short_column("title", _("title"), ordering="title")`` in a ModelAdmin.
    """
    read = attrgetter(field)
    return admin.display(description=description, ordering=ordering)(
        lambda self, obj: shorten(read(obj), limit)
    )


def local_datetime(value: datetime | str | None) -> str:
    """Return an aware datetime (or its ISO text) in the current time zone, to the second.

    ``2026-11-25 18:30:05 +0800``: the same in every language, no microseconds; "" for None.
    """
    if not value:
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, "Y-m-d H:i:s O" if timezone.is_aware(value) else "Y-m-d H:i:s")


def compact_text(cols: int = 40) -> dict:
    """Return ``formfield_overrides`` giving an inline's text fields a two-row box.

    Django's admin text box is 10 rows and as wide as a form's field; in a table row beside
    other columns it pushes the page past the window.
    """
    return {models.TextField: {"widget": forms.Textarea(attrs={"rows": 2, "cols": cols})}}


def machine_text(text) -> str:
    """Return text a program made (an index's text) as wrapped code, not page prose."""
    return format_html(
        '<pre style="white-space: pre-wrap; overflow-wrap: anywhere; margin: 0">{}</pre>',
        text or "",
    )
