from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from activities.models import (
    INDEX_BOOKKEEPING_FIELDS,
    Activity,
    ActivitySettings,
    Participation,
    WorkingMemory,
)
from activities.services import (
    EDITABLE_FIELDS,
    activity_change,
    activity_create,
    activity_reindex,
    validate_activity,
)
from config.admin_display import machine_text, short_column
from config.admin_live import LiveSettingsAdmin
from config.errors import InvalidArgument


class ActivityAdminForm(forms.ModelForm):
    """The admin's form: the services' rules refuse what they would refuse from the API."""

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        candidate = Activity(
            **{f.attname: getattr(self.instance, f.attname) for f in Activity._meta.concrete_fields}
        )
        for name, value in cleaned.items():
            setattr(candidate, name, value)
        try:
            validate_activity(candidate)
        except InvalidArgument as exc:
            raise forms.ValidationError(exc.message) from None
        return cleaned


@admin.register(Activity)
class ActivityAdmin(admin.ModelAdmin):
    form = ActivityAdminForm
    list_display = (
        "id",
        "short_title",
        "type",
        "status",
        "start_at",
        "current_participants",
        "max_participants",
        "index_state",
        "indexed_at",
    )
    list_display_links = ("id", "short_title")
    list_filter = ("status", "type", "index_state")
    search_fields = ("title", "description", "location_name")
    readonly_fields = (
        *INDEX_BOOKKEEPING_FIELDS,
        "indexed_text",
        "vibes",
        "created_at",
        "updated_at",
    )
    exclude = ("embedding", "meta_embedding", "search_text")
    raw_id_fields = ("creator",)
    actions = ["reindex"]

    short_title = short_column("title", _("title"), ordering="title")

    @admin.display(description=_("search text"))
    def indexed_text(self, obj):
        return machine_text(obj.search_text)

    def get_readonly_fields(self, request, obj=None):
        # The services change what an activity says, never whose it is.
        readonly = super().get_readonly_fields(request, obj)
        return (*readonly, "creator") if obj is not None else readonly

    def save_model(self, request, obj, form, change):
        # The services recompute the vibes, validate and queue indexing, as for the API.
        fields = {name: getattr(obj, name) for name in EDITABLE_FIELDS}
        if change:
            changed = {k: v for k, v in fields.items() if k in form.changed_data}
            activity_change(activity=Activity.objects.get(pk=obj.pk), **changed)
        else:
            obj.pk = activity_create(creator=obj.creator, **fields).pk

    @admin.action(description=_("Re-index the selected activities"))
    def reindex(self, request, queryset):
        ids = list(queryset.values_list("pk", flat=True))
        activity_reindex(activity_ids=ids)
        self.message_user(
            request,
            ngettext(
                "Queued %(count)d activity for indexing.",
                "Queued %(count)d activities for indexing.",
                len(ids),
            )
            % {"count": len(ids)},
            messages.INFO,
        )


@admin.register(Participation)
class ParticipationAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "activity_title", "joined_at", "feedback")
    list_filter = ("feedback",)
    raw_id_fields = ("user", "activity")
    search_fields = ("user__username", "activity__title")
    list_select_related = ("user", "activity")

    activity_title = short_column("activity.title", _("activity"), ordering="activity__title")


@admin.register(WorkingMemory)
class WorkingMemoryAdmin(admin.ModelAdmin):
    list_display = ("user", "updated_at")
    raw_id_fields = ("user",)


@admin.register(ActivitySettings)
class ActivitySettingsAdmin(LiveSettingsAdmin):
    """Activity search's live settings: one row; the next search reads a saved change."""

    fields = [
        "match_reasons_enabled",
        "llm_match_reasons",
        "personal_boost_max",
        "activities_hybrid",
    ]
