"""Live settings: one row per app, edited in the admin, read on every use.

Each app that has live settings owns a model extending :class:`LiveSettings` (the engine's in
``rag.models``, each business app's in its own ``models.py``) and reads it through one selector
calling :func:`read`. A read is served from a per-process copy for up to ``TTL_SECONDS``, so a
search pays a dictionary look-up, not a query. Another process sees a saved change after at
most ``TTL_SECONDS`` (each process caches on its own; the saving process drops its copy at once).
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Sequence
from typing import TypeVar

from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

TTL_SECONDS = 2.0
_lock = threading.Lock()
_cached: dict[type, tuple[models.Model, float]] = {}

Row = TypeVar("Row", bound="LiveSettings")


class LiveSettings(models.Model):
    """Abstract base of an app's live settings: a singleton row (pk 1)."""

    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        abstract = True
        verbose_name = _("live settings")
        verbose_name_plural = _("live settings")

    def __str__(self):
        return capfirst(str(self._meta.verbose_name))

    def save(self, *args, **kwargs):
        # A singleton: every save writes the one row, and the next read in this process sees it.
        self.pk = 1
        super().save(*args, **kwargs)
        invalidate(type(self))


def read(model: type[Row]) -> Row:
    """Return the row of ``model``, cached briefly; its defaults (unsaved) while there is none.

    A read never writes: searches read inside read-only snapshots (config.replicas). The row is
    written by its first save (the admin page, a test, a migration).
    """
    now = time.monotonic()
    with _lock:
        hit = _cached.get(model)
        if hit is not None and now - hit[1] < TTL_SECONDS:
            return hit[0]
    row = model.objects.order_by("pk").first() or model(pk=1)
    with _lock:
        _cached[model] = (row, time.monotonic())
    return row


def invalidate(model: type[LiveSettings] | None = None) -> None:
    """Forget the cached row of ``model`` (of every model when None); the next read queries."""
    with _lock:
        if model is None:
            _cached.clear()
        else:
            _cached.pop(model, None)


def copy_row(apps, source: str, target: str, fields: Sequence[str]) -> None:
    """Copy ``fields`` of the row of ``source`` ("app_label.Model") into the row of ``target``.

    For data migrations moving live settings between apps (run it with ``source`` and
    ``target`` swapped to reverse one). ``apps`` is the migration's historical registry; without
    a source row (an empty database) nothing is written: the first read makes the defaults.
    """
    row = apps.get_model(source).objects.order_by("pk").first()
    if row is None:
        return
    values = {name: getattr(row, name) for name in fields}
    apps.get_model(target).objects.update_or_create(pk=1, defaults=values)


def move_untouched(apps, model: str, field: str, path: Sequence[str], old, new) -> None:
    """Set the JSON ``field`` of every row of ``model`` at ``path`` to ``new`` where it is ``old``.

    For data migrations moving a shipped default (``rag.RagSettings.relevance_cuts``: a model's
    cut for a surface): a value someone fitted or edited, or one missing, is left alone.
    ``apps`` is the migration's historical registry.
    """
    *outer, last = path
    for row in apps.get_model(model).objects.all():
        top = dict(getattr(row, field) or {})
        node = top
        for key in outer:
            node[key] = dict(node.get(key) or {})
            node = node[key]
        if node.get(last) == old:
            node[last] = copy.deepcopy(new)
            setattr(row, field, top)
            row.save(update_fields=[field])
