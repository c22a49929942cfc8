"""The platform's models: API tokens, stored as a hash (docs/SECURITY.md, "API tokens"), and
the queues' worker heartbeats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """An API key of a user: only its SHA-256 digest and a short prefix are stored.

    The key itself is shown once, when issued. A token is valid while neither revoked nor past
    ``expires_at`` (null: no expiry); a revoked one stays listed to its owner.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=100, blank=True, default="")
    prefix = models.CharField(_("prefix"), max_length=16)
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.prefix}…"

    def is_valid(self) -> bool:
        """Return whether the token authenticates now: not revoked, not expired."""
        now = timezone.now()
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)


class WorkerHeartbeat(models.Model):
    """The last time a django-q2 worker ran something (read by /api/health)."""

    name = models.CharField(max_length=100, unique=True, verbose_name=_("name"))
    seen_at = models.DateTimeField(verbose_name=_("seen at"))

    class Meta:
        # Created by rag's first migration; moved here by state only (platform.0004, rag.0011).
        db_table = "rag_workerheartbeat"
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self):
        return f"{self.name} {self.seen_at:%Y-%m-%d %H:%M:%S}"
