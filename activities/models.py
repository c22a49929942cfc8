"""Activities, participations and each user's working memory.

An :class:`Activity` carries its own embedding (``rag.models.Embedded``) of the text built by
:meth:`Activity.embedding_text`; ``index_state`` records whether that vector is current.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from activities.text import embedding_text_for, meta_text_for
from config.inputs import validate_datetime_range
from config.live import LiveSettings
from rag.db import HalfvecHnsw
from rag.fields import EmbeddingField
from rag.models import Embedded
from rag.search import fulltext_index


class ActivityStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    ACTIVE = "active", _("active")
    CANCELLED = "cancelled", _("cancelled")
    FINISHED = "finished", _("finished")


class IndexState(models.TextChoices):
    PENDING = "pending", _("pending")
    RUNNING = "running", _("running")
    INDEXED = "indexed", _("indexed")
    FAILED = "failed", _("failed")


def default_time_zone() -> str:
    return settings.TIME_ZONE


# What the indexer keeps about a row's vector: written by config.work and the tasks, never by a
# user. Read-only in the admin; a search never loads it (activities.search_filters.UNREAD_FIELDS).
INDEX_BOOKKEEPING_FIELDS = (
    "embedding_model",
    "embedding_hash",
    "index_state",
    "index_error",
    "indexed_at",
    "index_attempts",
    "index_state_at",
)


class Activity(Embedded):
    """One activity listing users can search for and join."""

    # The nearest-neighbour index (migration 0008): halfvec, half the memory of a vector HNSW,
    # re-ranked in full precision by rag.search.vector_search; and partial, since every search
    # reads active rows only (activities.search_filters.hard_filter): cancelled and finished
    # ones stay out of the graph. docs/SCALING.md, "Activities at a million rows".
    ann_index = HalfvecHnsw(name="activity_embedding_half_hnsw", condition="status = 'active'")

    title = models.CharField(max_length=200, verbose_name=_("title"))
    description = models.TextField(blank=True, default="", verbose_name=_("description"))
    type = models.CharField(max_length=50, db_index=True, verbose_name=_("type"))
    tags = models.JSONField(default=list, blank=True, verbose_name=_("tags"))
    start_at = models.DateTimeField(
        validators=[validate_datetime_range], verbose_name=_("starts at")
    )
    end_at = models.DateTimeField(
        null=True, blank=True, validators=[validate_datetime_range], verbose_name=_("ends at")
    )
    time_zone = models.CharField(
        max_length=64, default=default_time_zone, verbose_name=_("time zone")
    )
    lat = models.FloatField(verbose_name=_("latitude"))
    lng = models.FloatField(verbose_name=_("longitude"))
    location_name = models.CharField(
        max_length=200, blank=True, default="", verbose_name=_("location")
    )
    status = models.CharField(
        max_length=16,
        choices=ActivityStatus.choices,
        default=ActivityStatus.ACTIVE,
        verbose_name=_("status"),
    )
    max_participants = models.PositiveIntegerField(verbose_name=_("maximum participants"))
    current_participants = models.PositiveIntegerField(
        default=0, verbose_name=_("current participants")
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="activities_created",
        verbose_name=_("creator"),
    )
    # Inferred from type and description (lexicon offline, the LLM when configured); part of
    # the embedded text, so it is stored rather than recomputed on every read.
    vibes = models.JSONField(default=list, blank=True, verbose_name=_("vibes"))
    index_state = models.CharField(
        max_length=16,
        choices=IndexState.choices,
        default=IndexState.PENDING,
        db_index=True,
        verbose_name=_("index state"),
    )
    index_error = models.TextField(blank=True, default="", verbose_name=_("indexing error"))
    indexed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("indexed at"))
    index_attempts = models.PositiveIntegerField(default=0, verbose_name=_("indexing attempts"))
    # When the row entered its index state, or was last re-queued (config.work).
    index_state_at = models.DateTimeField(
        null=True, blank=True, verbose_name=_("index state since")
    )
    # The django-q2 id of the task that last claimed the row: the same task, handed back by a
    # worker stop, takes its running row back at once (config.work.Work.claim).
    index_task = models.CharField(
        max_length=64, blank=True, default="", editable=False, verbose_name=_("indexing task")
    )
    # The vector of the listing's kind alone, its type and tags (activities.text.meta_text_for),
    # made with ``embedding`` in one call and kept with it (its model and hash stand for both).
    # The hybrid reads it for the query's ~20 candidates, loaded with them: no nearest-neighbour
    # index (docs/RELEVANCE.md, "The listing's kind as a fusion feature, shipped").
    meta_embedding = EmbeddingField(null=True, blank=True, verbose_name=_("kind vector"))
    # jieba-segmented embedded text, for the full-text baseline.
    search_text = models.TextField(blank=True, default="", verbose_name=_("search text"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("activity")
        verbose_name_plural = _("activities")
        ordering = ["start_at", "pk"]
        indexes = [
            models.Index(fields=["status", "start_at"], name="activity_status_start"),
            # Radius filter: a lat/lng bounding box served by these btrees, then exact
            # haversine on the survivors (no PostGIS/earthdistance in the embedded server).
            models.Index(fields=["lat", "lng"], name="activity_lat_lng"),
            models.Index(fields=["lng"], name="activity_lng"),
            fulltext_index("search_text", "activity_search_text_gin"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(current_participants__lte=models.F("max_participants")),
                name="activity_participants_within_max",
            ),
        ]

    def __str__(self):
        return self.title

    def embedding_text(self) -> str:
        """Return the multi-line text whose embedding this row stores."""
        return embedding_text_for(self)

    EXTRA_VECTOR_FIELDS = ("meta_embedding",)

    def extra_vector_texts(self) -> dict[str, str]:
        """Return the text of the kind vector, embedded with the listing's own."""
        return {"meta_embedding": meta_text_for(self)}

    @property
    def is_full(self) -> bool:
        return self.current_participants >= self.max_participants


class Participation(models.Model):
    """A user's place in an activity, with their feedback afterwards (-1, 0, +1)."""

    class Feedback(models.IntegerChoices):
        DISLIKED = -1, "-1"
        NEUTRAL = 0, "0"
        LIKED = 1, "+1"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="participations",
        verbose_name=_("user"),
    )
    activity = models.ForeignKey(
        Activity,
        on_delete=models.CASCADE,
        related_name="participations",
        verbose_name=_("activity"),
    )
    joined_at = models.DateTimeField(auto_now_add=True, verbose_name=_("joined at"))
    feedback = models.SmallIntegerField(
        choices=Feedback.choices, null=True, blank=True, verbose_name=_("feedback")
    )
    feedback_at = models.DateTimeField(null=True, blank=True, verbose_name=_("feedback at"))

    class Meta:
        verbose_name = _("participation")
        verbose_name_plural = _("participations")
        constraints = [
            models.UniqueConstraint(fields=["user", "activity"], name="participation_once"),
        ]
        ordering = ["-joined_at"]

    def __str__(self):
        return f"{self.user_id} -> {self.activity_id}"


class WorkingMemory(models.Model):
    """A user's working memory: ``{"interestVectors": [...], "preferences": {...}}``.

    ``interestVectors`` holds at most 3 ``{activityId, embedding, model, participatedAt}``
    entries, each the embedding of one activity the user joined and rated +1 (never an average)
    and the embedding model that made it; it stays empty until ``positives`` (the user's count
    of +1 participations) reaches 3.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="working_memory",
        verbose_name=_("user"),
    )
    data = models.JSONField(default=dict, blank=True, verbose_name=_("data"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("working memory")
        verbose_name_plural = _("working memories")

    def __str__(self):
        return gettext("working memory of %(user)s") % {"user": self.user_id}

    @property
    def interest_vectors(self) -> list[dict]:
        return list((self.data or {}).get("interestVectors") or [])

    @property
    def preferences(self) -> dict:
        return dict((self.data or {}).get("preferences") or {})


class ActivitySettings(LiveSettings):
    """The live settings of activity search: one row, edited in the admin, read per search."""

    match_reasons_enabled = models.BooleanField(
        default=True,
        help_text=_("Explain each activity search result."),
        verbose_name=_("match reasons"),
    )
    llm_match_reasons = models.BooleanField(
        default=False,
        help_text=_("Write match reasons with the LLM (when one is configured)."),
        verbose_name=_("LLM match reasons"),
    )
    personal_boost_max = models.FloatField(
        default=0.2,
        help_text=_("Largest personalisation boost, as a fraction of the score (<= 0.2)."),
        verbose_name=_("maximum personal boost"),
    )
    # rel (issue 11): on by default, measured in docs/BENCHMARKS.md ("Activities relevance").
    activities_hybrid = models.BooleanField(
        default=True,
        help_text=_(
            "Re-rank activity search candidates by RRF of the dense rank, a jieba full "
            "text over title, tags, type and vibes, and the kind and mood cues the query names."
        ),
        verbose_name=_("hybrid activity ranking"),
    )

    def clean(self):
        if not 0.0 <= self.personal_boost_max <= 0.2:
            raise ValidationError(
                {
                    "personal_boost_max": gettext(
                        "Use a value between 0 and 0.2 (a cap of 20 percent)."
                    )
                }
            )
