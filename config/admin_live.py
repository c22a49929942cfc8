"""The admin page of an app's live settings (config.live): one change page, no add or delete."""

from __future__ import annotations

from django.contrib import admin
from django.shortcuts import redirect

from config import live


class LiveSettingsAdmin(admin.ModelAdmin):
    """One row; saving it takes effect on the next read (config.live)."""

    readonly_fields = ["updated_at"]

    def has_add_permission(self, request):
        return not self.model.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        # One row: go straight to its form.
        opts = self.model._meta
        row = live.read(self.model)
        return redirect(f"admin:{opts.app_label}_{opts.model_name}_change", row.pk)
