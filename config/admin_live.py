"""The admin page of an app's live settings (config.live): one change page, no add or delete."""

from __future__ import annotations

from django.contrib import admin
from django.shortcuts import redirect


class LiveSettingsAdmin(admin.ModelAdmin):
    """One row; saving it takes effect on the next read (config.live)."""

    readonly_fields = ["updated_at"]

    def has_add_permission(self, request):
        return False  # the list page makes the one row

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        # One row: go straight to its form (made with the defaults if it was never saved).
        opts = self.model._meta
        row, _ = self.model.objects.get_or_create(pk=1)
        return redirect(f"admin:{opts.app_label}_{opts.model_name}_change", row.pk)
