"""The admin of API tokens: prefixes, lifetimes and revocation; never a key or its digest."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from rest_framework.authtoken.models import TokenProxy

from config.admin_display import ReadOnlyMixin
from config.models import ApiToken, WorkerHeartbeat
from config.services import token_revoke

# DRF's plain-text tokens are not used (config.auth reads ApiToken; the migration
# platform.0003 hashed and deleted them): their admin, which lists keys, goes.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Tokens are not added here: a key is shown once, to whoever issues it (`manage.py
    issue_token` or the API)."""

    list_display = ("prefix", "user", "name", "created_at", "expires_at", "revoked_at")
    list_filter = ("revoked_at", "expires_at")
    search_fields = ("prefix", "name", "user__username")
    fields = ("user", "name", "prefix", "created_at", "expires_at", "revoked_at")
    readonly_fields = fields
    actions = ["revoke"]

    @admin.action(description=_("Revoke the selected tokens"), permissions=["delete"])
    def revoke(self, request, queryset):
        count = 0
        for token in queryset.filter(revoked_at__isnull=True):
            token_revoke(user=token.user, token_id=token.pk)
            count += 1
        self.message_user(
            request,
            ngettext("%(count)d token revoked.", "%(count)d tokens revoked.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ["name", "seen_at"]
    readonly_fields = ["name", "seen_at"]
