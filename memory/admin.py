"""Admin: messages (read-only, searchable by user and chat), summaries, preferences, contexts,
and the audit of every correction (API or admin) with who made it.

Retention and summary thresholds are the memory app's live settings (their own page); the
retention page (linked from the messages list) shows a dry run's report and runs it now.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.admin_display import ReadOnlyMixin, compact_text, local_datetime, short_column, shorten
from config.admin_live import LiveSettingsAdmin
from memory import services
from memory.edits import change_record
from memory.models import (
    ENTITY_LABELS,
    ChatMessageProxy,
    ContextEntry,
    Feedback,
    Kind,
    MemoryChange,
    MemorySettings,
    Preference,
    SharedContext,
    SummaryProxy,
)
from memory.retention import CUTOFF_LABEL, RetentionReport, retention_run

READ_ONLY_FIELDS = [
    "user",
    "message_id",
    "chat_id",
    "ts",
    "role",
    "speaker",
    "kind",
    "content",
    "context_text",
    "summarised",
    "stale",
    "edited_at",
    "covers_until_ts",
    "covered_count",
    "embed_state",
    "embed_error",
    "embed_attempts",
    "embed_state_at",
    "embedding_model",
    "created_at",
]


@admin.register(ChatMessageProxy)
class MessageAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "short_message_id",
        "user",
        "short_chat_id",
        "ts",
        "role",
        "short_content",
        "summarised",
        "embed_state",
    ]
    list_filter = ["role", "embed_state", "summarised"]
    search_fields = ["user__username", "chat_id", "message_id"]
    fields = READ_ONLY_FIELDS
    readonly_fields = READ_ONLY_FIELDS
    ordering = ["-ts", "message_id"]
    list_select_related = ["user"]
    change_list_template = "admin/memory/chatmessageproxy/change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).filter(kind=Kind.MESSAGE)

    short_message_id = short_column("message_id", _("message id"), limit=30, ordering="message_id")

    short_chat_id = short_column("chat_id", _("chat id"), limit=30, ordering="chat_id")

    short_content = short_column("content", _("content"))

    def get_urls(self):
        retention = self.admin_site.admin_view(self.retention_view)
        return [
            path("retention/", retention, name="memory_chatmessageproxy_retention"),
            *super().get_urls(),
        ]

    def retention_view(self, request):
        """Show a dry run's report (GET); run retention now and show its report (POST).

        Staff only (``admin_view``); running needs the permission to delete messages.
        """
        if not self.has_view_permission(request):
            raise PermissionDenied
        can_run = self.has_delete_permission(request)
        if request.method == "POST":
            if not can_run:
                raise PermissionDenied
            report = retention_run(dry_run=False)
            self.message_user(
                request,
                gettext(
                    "Retention ran: %(deleted)d messages deleted, "
                    "%(summarised)d chats summarised first."
                )
                % {
                    "deleted": report.messages_deleted,
                    "summarised": report.chats_summarised,
                },
                messages.SUCCESS,
            )
            # Show the report of this run, not a new dry run.
            request.session["memory_retention_report"] = report.as_dict()
            return redirect("admin:memory_chatmessageproxy_retention")
        ran = request.session.pop("memory_retention_report", None)
        report = RetentionReport(**ran) if ran else retention_run(dry_run=True)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Retention of chat messages"),
            "report": report,
            "rows": report_rows(report),
            "can_run": can_run,
        }
        return TemplateResponse(request, "admin/memory/retention.html", context)


def report_rows(report) -> list[tuple[str, str]]:
    """Return the report's (label, value) rows for the page: the cut-off in local time."""
    return [
        (label, local_datetime(report.cutoff) if label == str(CUTOFF_LABEL) else value)
        for label, value in report.rows()
    ]


@admin.register(SummaryProxy)
class SummaryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "message_id",
        "user",
        "chat_id",
        "covers_until_ts",
        "covered_count",
        "short_content",
    ]
    search_fields = ["user__username", "chat_id"]
    fields = READ_ONLY_FIELDS
    readonly_fields = READ_ONLY_FIELDS
    ordering = ["-ts"]
    list_select_related = ["user"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(kind=Kind.SUMMARY)

    short_content = short_column("content", _("content"))


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    """Preferences, with those later ones replaced; edits go through the services (audited)."""

    list_display = ["user", "category", "short_value", "updated_at", "superseded_at"]
    list_filter = [("superseded_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "category", "value"]
    readonly_fields = ["superseded_at", "superseded_by"]

    short_value = short_column("value", _("value"), ordering="value")

    def save_model(self, request, obj, form, change):
        if not change:
            pref, _ = services.preference_upsert(
                user=obj.user, category=obj.category, value=obj.value, actor=request.user
            )
            obj.pk = pref.pk
            return
        original = Preference.objects.get(pk=obj.pk)
        obj.category, obj.value = original.category, original.value  # the service saves them
        services.preference_update(
            user=obj.user,
            preference_id=obj.pk,
            actor=request.user,
            category=form.cleaned_data["category"],
            value=form.cleaned_data["value"],
        )

    def delete_model(self, request, obj):
        change_record(
            user=obj.user,
            actor=request.user,
            entity="preference",
            entity_id=obj.pk,
            action="delete",
            before={"category": obj.category, "value": obj.value},
            after={},
        )
        obj.delete()


class EntityFilter(admin.SimpleListFilter):
    """Filter corrections by what was corrected, named in the admin's language."""

    title = _("entity")
    parameter_name = "entity"

    def lookups(self, request, model_admin):
        return list(ENTITY_LABELS.items())

    def queryset(self, request, queryset):
        return queryset.filter(entity=self.value()) if self.value() else queryset


@admin.register(MemoryChange)
class MemoryChangeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Every correction of a user's memory: who made it, what, before and after (read-only)."""

    list_display = ["at", "user", "actor", "action", "entity_label", "entity_id"]
    list_filter = ["action", EntityFilter]
    search_fields = ["user__username", "actor", "entity_id"]
    date_hierarchy = "at"
    fields = ["user", "actor", "entity_label", "entity_id", "action", "before", "after", "at"]
    readonly_fields = fields

    @admin.display(description=_("entity"), ordering="entity")
    def entity_label(self, obj):
        return ENTITY_LABELS.get(obj.entity, obj.entity)

    def has_delete_permission(self, request, obj=None):
        return False  # an audit trail; erasing the user removes it


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ["user", "target_type", "short_target", "rating", "created_at"]
    search_fields = ["user__username", "target_message_id"]
    raw_id_fields = ["target"]

    @admin.display(description=_("rated item"))
    def short_target(self, obj):
        return shorten(obj.target_label or obj.rated_id)


class ContextEntryInline(admin.TabularInline):
    model = ContextEntry
    extra = 0
    readonly_fields = ["created_at"]
    formfield_overrides = compact_text()


@admin.register(SharedContext)
class SharedContextAdmin(admin.ModelAdmin):
    list_display = ["short_title", "owner", "created_at", "updated_at"]
    search_fields = ["title", "owner__username"]
    inlines = [ContextEntryInline]

    short_title = short_column("title", _("title"), ordering="title")

    def save_formset(self, request, form, formset, change):
        """Save the entries, recording each edit and deletion with who made it."""
        owner = form.instance.owner
        originals = {e.pk: e.content for e in ContextEntry.objects.filter(context=form.instance)}
        deleting = [f.instance.pk for f in formset.deleted_forms if f.instance.pk]
        super().save_formset(request, form, formset, change)
        for pk in deleting:
            change_record(
                user=owner,
                actor=request.user,
                entity="context_entry",
                entity_id=pk,
                action="delete",
                before={"content": originals.get(pk, "")},
                after={},
            )
        for entry, _changed in formset.changed_objects:
            change_record(
                user=owner,
                actor=request.user,
                entity="context_entry",
                entity_id=entry.pk,
                action="update",
                before={"content": originals.get(entry.pk, "")},
                after={"content": entry.content},
            )


@admin.register(MemorySettings)
class MemorySettingsAdmin(LiveSettingsAdmin):
    """Chat memory's live settings: summaries and retention; the next write or run reads them."""

    fields = [
        "summary_trigger_messages",
        "summary_max_chars",
        "retention_enabled",
        "retention_days",
    ]
