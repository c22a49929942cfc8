"""Chat memory: messages and summaries, preferences, feedback, shared contexts.

A :class:`ChatMessage` row is either a chat turn (``kind="message"``) or a summary of a chat
(``kind="summary"``). Every row carries its own embedding (``rag.models.Embedded``) and the
jieba-segmented ``search_text`` that the full-text index is built on.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex

from config.inputs import validate_datetime_range
from config.live import LiveSettings
from rag.models import Embedded


class Role(models.TextChoices):
    USER = "user", _("user")
    ASSISTANT = "assistant", _("assistant")
    SYSTEM = "system", _("system")


class Kind(models.TextChoices):
    MESSAGE = "message", _("message")
    SUMMARY = "summary", _("summary")


class EmbedState(models.TextChoices):
    PENDING = "pending", _("pending")
    RUNNING = "running", _("running")
    READY = "ready", _("ready")
    FAILED = "failed", _("failed")


# The previous turn embedded with each turn (``context_text``) is cut to this many characters.
CONTEXT_CHARS = 300


class ChatMessage(Embedded):
    """One turn of a chat, or a summary of earlier turns of that chat.

    The table is partitioned by ``HASH (user_id)`` (migration 0013): a query that filters on
    the user reads one partition, so every read of a user's memory names the user. In SQL the
    primary key is ``(id, user_id)``; ``id`` stays the model's key (one sequence: unique).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("user"),
    )
    message_id = models.CharField(max_length=100, verbose_name=_("message id"))
    chat_id = models.CharField(max_length=200, blank=True, default="", verbose_name=_("chat id"))
    ts = models.DateTimeField(validators=[validate_datetime_range], verbose_name=_("sent at"))
    role = models.CharField(max_length=16, choices=Role.choices, verbose_name=_("role"))
    # Who said the turn, as the client names them ("Caroline"; blank: not given). Optional: a
    # chat between the user and an assistant needs only ``role``; a conversation between
    # people (or a group chat) tells its speakers apart by it, and hybrid search ranks the
    # turns of a speaker a question names first (memory.ranking.speaker_weighed).
    speaker = models.CharField(max_length=100, blank=True, default="", verbose_name=_("speaker"))
    kind = models.CharField(
        max_length=16, choices=Kind.choices, default=Kind.MESSAGE, verbose_name=_("kind")
    )
    content = models.TextField(verbose_name=_("content"))
    # The text before this turn in the same chat (set at write time): embedded with the turn so a
    # short answer ("yes, last Sunday") is found by the question it answers.
    context_text = models.TextField(blank=True, default="", verbose_name=_("context text"))
    # PostgreSQL keeps ``to_tsvector('simple', search_text)`` in the generated column
    # ``search_tsv`` (GIN index ``memory_msg_tsv``, migration 0008), which search reads in SQL.
    # It is no model field so that no ORM read, export or admin form carries it.
    search_text = models.TextField(blank=True, default="", verbose_name=_("search text"))
    summarised = models.BooleanField(default=False, verbose_name=_("summarised"))
    # Summary rows only: a message it covers was edited or deleted and its text may still say
    # what the message said (an LLM summary, which cannot be corrected sentence by sentence).
    stale = models.BooleanField(default=False, verbose_name=_("stale"))
    # When the content was last corrected through the API or the admin (None: as written).
    edited_at = models.DateTimeField(null=True, blank=True, verbose_name=_("edited at"))
    # Summary rows only: the last ts they cover and how many messages they cover.
    covers_until_ts = models.DateTimeField(
        null=True, blank=True, validators=[validate_datetime_range], verbose_name=_("covers until")
    )
    covered_count = models.PositiveIntegerField(default=0, verbose_name=_("covered messages"))
    embed_state = models.CharField(
        max_length=16,
        choices=EmbedState.choices,
        default=EmbedState.PENDING,
        db_index=True,
        verbose_name=_("embedding state"),
    )
    embed_error = models.TextField(blank=True, default="", verbose_name=_("embedding error"))
    embed_attempts = models.PositiveIntegerField(default=0, verbose_name=_("embedding attempts"))
    # When the row entered its embed state, or was last re-queued (config.work).
    embed_state_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("embedding state since")
    )
    # The django-q2 id of the task that last claimed the row: the same task, handed back by a
    # worker stop, takes its running row back at once (config.work.Work.claim).
    embed_task = models.CharField(
        max_length=64, blank=True, default="", editable=False, verbose_name=_("embedding task")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        # Acting for other users (read, write, export, erase anybody's data) is this permission,
        # not ``is_staff``: viewing the admin does not make a login a cross-tenant token.
        permissions = [
            ("act_for_any_user", _("Can read, write, export and erase any user's data")),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "message_id"], name="memory_msg_user_mid")
        ]
        indexes = [
            models.Index("user", models.F("ts").desc(), "message_id", name="memory_msg_user_ts"),
            models.Index(fields=["user", "chat_id", "ts"], name="memory_msg_user_chat_ts"),
            # Every search without a ``kind`` looks for the user's stand-in summaries
            # (memory.stand_ins): a user's few summaries, not all their turns (issue 34: 12 ms
            # of each search for a user with 1,000 turns, checking each turn's kind).
            models.Index(
                fields=["user", "chat_id", "ts"],
                condition=models.Q(kind="summary"),
                name="memory_msg_user_summaries",
            ),
            # Retention finds due rows by when they were stored (memory/retention.py).
            models.Index(fields=["created_at"], name="memory_msg_created"),
            HnswIndex(
                name="memory_msg_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self):
        return f"{self.message_id} ({self.get_role_display()}, {self.get_kind_display()})"

    def embedding_text(self) -> str:
        """Return the content, preceded by the previous turn of the chat when known."""
        if self.context_text:
            return f"{self.context_text}\n{self.content}"
        return self.content


class ChatMessageProxy(ChatMessage):
    """Chat turns only, for the admin."""

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        proxy = True


class SummaryProxy(ChatMessage):
    """Summaries only, for the admin."""

    class Meta:
        verbose_name = _("summary")
        verbose_name_plural = _("summaries")
        proxy = True


class ActivePreferences(models.Manager):
    """The preferences in force: not replaced by a later, contradicting one."""

    def get_queryset(self):
        return super().get_queryset().filter(superseded_at__isnull=True)


# Names of the categories the agent stores preferences in, shown in the reader's language
# (``Preference.category_label``). The category itself is a code and stays as stored; a
# category a client made up is shown as written.
CATEGORY_LABELS = {
    "food": _("food"),
    "drink": _("drinks"),
    "allergy": _("allergies"),
    "vibe": _("vibe"),
    "time": _("free time"),
    "likes": _("likes"),
    "dislikes": _("dislikes"),
}


class Preference(models.Model):
    """A stated preference of a user (``tone: humorous``, ``food: 不吃辣``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memory_preferences",
        verbose_name=_("user"),
    )
    category = models.CharField(max_length=100, verbose_name=_("category"))
    value = models.CharField(max_length=1000, verbose_name=_("value"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))
    # A later preference that contradicts this one (不吃辣 -> 爱吃辣) replaces it: this row stays
    # as history, with when and by which preference; readers use Preference.active.
    superseded_at = models.DateTimeField(null=True, blank=True, verbose_name=_("superseded at"))
    superseded_by = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="supersedes",
        verbose_name=_("superseded by"),
    )

    objects = models.Manager()
    active = ActivePreferences()

    class Meta:
        verbose_name = _("preference")
        verbose_name_plural = _("preferences")
        base_manager_name = "objects"
        default_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "category", "value"], name="memory_pref_user_cat_value"
            )
        ]

    def __str__(self):
        return self.persona_text()

    def persona_text(self) -> str:
        """Return the text the persona selector shows (and embeds) for this preference."""
        return f"{self.category}: {self.value}"

    def category_label(self) -> str:
        """Return the name of the category in the active language (unknown ones as stored)."""
        label = CATEGORY_LABELS.get(self.category.strip().lower())
        return str(label) if label is not None else self.category


class FeedbackTarget(models.TextChoices):
    MESSAGE = "message", _("message")
    ACTIVITY = "activity", _("activity")


class Feedback(models.Model):
    """A user's rating of one message (an agent's answer, usually) or of one activity.

    ``target_label`` names what was rated when it was rated (the activity's title, the
    message's first words), so a listing says what each rating is about.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memory_feedback",
        verbose_name=_("user"),
    )
    # SET_NULL: retention may delete the rated message; the rating is the user's and stays.
    # The message table is partitioned by user (migration 0013), so ``id`` alone is not a key
    # there: the database's foreign key is ``(target_id, user_id) -> (id, user_id)`` with
    # ``ON DELETE SET NULL (target_id)``, made by that migration, not by Django.
    target = models.ForeignKey(
        ChatMessage,
        on_delete=models.SET_NULL,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="feedback",
        verbose_name=_("rated message"),
    )
    target_message_id = models.CharField(
        max_length=100, blank=True, default="", verbose_name=_("rated message id")
    )
    target_type = models.CharField(
        max_length=16,
        choices=FeedbackTarget.choices,
        default=FeedbackTarget.MESSAGE,
        verbose_name=_("rated type"),
    )
    # No foreign key: memory does not own activities, and a rating outlives the activity.
    target_activity_id = models.BigIntegerField(
        null=True, blank=True, verbose_name=_("rated activity id")
    )
    target_label = models.CharField(
        max_length=200, blank=True, default="", verbose_name=_("rated item")
    )
    rating = models.SmallIntegerField(verbose_name=_("rating"))
    comment = models.TextField(blank=True, default="", verbose_name=_("comment"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("feedback")
        verbose_name_plural = _("feedback")
        indexes = [
            models.Index(fields=["user", "-created_at", "-id"], name="memory_feedback_user_at"),
        ]

    def __str__(self):
        return gettext("%(rating)s on %(target)s") % {
            "rating": f"{self.rating:+d}",
            "target": self.rated_id,
        }

    @property
    def rated_id(self) -> str:
        """Return the rated message's id, or the rated activity's id as text."""
        if self.target_type == FeedbackTarget.ACTIVITY:
            return str(self.target_activity_id)
        return self.target_message_id

    def persona_text(self) -> str:
        """Return the text the persona selector shows (and embeds) for this rating."""
        if self.target_type == FeedbackTarget.ACTIVITY:
            text = f"rating {self.rating:+d} on activity {self.target_label or self.rated_id}"
        else:
            text = f"rating {self.rating:+d} on {self.target_message_id}"
        return text + (f": {self.comment}" if self.comment else "")


class SharedContext(models.Model):
    """A context several agents read and append to on behalf of its owner."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memory_contexts",
        verbose_name=_("owner"),
    )
    title = models.CharField(max_length=300, verbose_name=_("title"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("shared context")
        verbose_name_plural = _("shared contexts")

    def __str__(self):
        return self.title


class ContextEntry(models.Model):
    """One entry of a shared context, written by a named agent."""

    context = models.ForeignKey(
        SharedContext, on_delete=models.CASCADE, related_name="entries", verbose_name=_("context")
    )
    agent_name = models.CharField(max_length=100, verbose_name=_("agent name"))
    content = models.TextField(verbose_name=_("content"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("context entry")
        verbose_name_plural = _("context entries")
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.agent_name}: {self.content[:40]}"


class ChangeAction(models.TextChoices):
    UPDATE = "update", _("update")
    DELETE = "delete", _("delete")
    SUPERSEDE = "supersede", _("supersede")


# What a MemoryChange's ``entity`` names, for people.
ENTITY_LABELS = {
    "message": _("message"),
    "preference": _("preference"),
    "context_entry": _("context entry"),
}


class MemoryChange(models.Model):
    """One correction of a user's memory (a message, a preference, a context entry): the audit.

    ``actor`` is who made it (the username of the token or the admin user: the user, or a staff
    client acting for them), kept as text so the record survives that account. ``before`` and
    ``after`` hold the changed fields; erasing the user erases their changes too.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memory_changes",
        verbose_name=_("user"),
    )
    actor = models.CharField(max_length=150, verbose_name=_("actor"))
    entity = models.CharField(
        max_length=32, verbose_name=_("entity")
    )  # message, preference, context_entry
    entity_id = models.CharField(max_length=200, verbose_name=_("entity id"))
    action = models.CharField(max_length=16, choices=ChangeAction.choices, verbose_name=_("action"))
    before = models.JSONField(default=dict, blank=True, verbose_name=_("before"))
    after = models.JSONField(default=dict, blank=True, verbose_name=_("after"))
    at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("at"))

    class Meta:
        verbose_name = _("memory change")
        verbose_name_plural = _("memory changes")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["user", "-at"], name="memory_change_user_at")]

    def __str__(self):
        entity = ENTITY_LABELS.get(self.entity, self.entity)
        return f"{self.actor}: {self.get_action_display()} {entity} {self.entity_id}"


# 100 years: above it the cut-off date would leave the calendar Python can represent.
MAX_RETENTION_DAYS = 36500


class MemorySettings(LiveSettings):
    """The live settings of chat memory: summaries and retention. One row, edited in the admin."""

    summary_trigger_messages = models.PositiveIntegerField(
        default=20,
        help_text=_("Summarise a chat once this many messages are not yet summarised."),
        verbose_name=_("summary trigger messages"),
    )
    summary_max_chars = models.PositiveIntegerField(
        default=500, verbose_name=_("summary maximum characters")
    )
    # On by default: retention never loses a message (it summarises a chat before deleting
    # what the summary covers, and counts age from when the service stored a message).
    retention_enabled = models.BooleanField(
        default=True,
        help_text=_(
            "Delete chat messages stored more than retention_days ago, once a summary "
            "covers them (summaries are kept). Off: keep every message. Report, dry run and run "
            "now: admin, Chat memory > Messages > Retention."
        ),
        verbose_name=_("retention enabled"),
    )
    retention_days = models.PositiveIntegerField(
        default=90,
        help_text=_(
            "Age, counted from when the service stored a message, after which retention "
            "deletes it (summaries are kept)."
        ),
        verbose_name=_("retention days"),
    )

    def clean(self):
        errors = {}
        if not 1 <= self.retention_days <= MAX_RETENTION_DAYS:
            errors["retention_days"] = gettext(
                "Use a value between 1 and %(max)d days; to keep every message, switch "
                "retention off."
            ) % {"max": MAX_RETENTION_DAYS}
        if self.summary_trigger_messages < 2:
            errors["summary_trigger_messages"] = gettext("Use at least 2.")
        if not 50 <= self.summary_max_chars <= 5000:
            errors["summary_max_chars"] = gettext("Use a value between 50 and 5000.")
        if errors:
            raise ValidationError(errors)
