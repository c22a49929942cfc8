"""The personal boost of a search result, capped at live ``personal_boost_max`` (20%).

- With interest vectors, which exist only once the user has rated at least
  ``MIN_POSITIVES`` (3) joined activities +1 (seed 000: one like is not yet a taste), the
  embeddings of the 3 latest of them: each candidate's ``maxsim`` (its highest cosine
  similarity to any one stored vector) is read against the other candidates of the same pool,
  not against an absolute scale. A local model such as multilingual-e5-small puts nearly every
  pair of activities at 0.80-0.92, so an absolute rule gave almost every result ~+17%.
  :func:`pool_boosts`: ``z = (maxsim - median) / spread`` over the pool, every candidate the
  search judged, kept by the relevance cut or not (``spread`` the
  scaled median absolute deviation, at least ``MIN_SPREAD``), and
  ``boost = cap * clamp((z - BOOST_FROM_Z) / (BOOST_FULL_Z - BOOST_FROM_Z), 0, 1)``: a
  candidate at the pool's median gains nothing, one clearly above gains up to the cap. A
  candidate at or below the surface's similarity floor (the model's "unrelated" band) gains
  nothing.
- Before that, from preferences: those learned from likes (working memory), the types and
  vibes of the activities the user rated +1 (the feedback API, through ``rag.preferences``),
  and those the user stated in chat or through the preferences API (read through
  ``rag.preferences``, which the memory app feeds; activities never imports memory).
  A stated value names vibes (through the vibe lexicon: 喜欢安静 -> 安静), activity types
  (桌游) or times of day (晚上); negative values
  (不..., category ``dislikes``) add nothing. ``boost = cap / 2 * (0.5 * type liked + 0.3 * a
  liked vibe + 0.2 * a liked time of day)``, so at most half the cap.
- Whatever the boost, a listing naming what the user said they cannot eat or drink (「不吃辣」,
  an allergy) loses ``activities.avoided.AVOID_PENALTY`` of its score (its boost is negative).

``score = similarity * (1 + boost)``, so a liking moves a result up by at most 20%; a refused
food or drink moves it down by half (``activities.avoided``).

A stored vector counts only if it was made by the active embedding model (its ``model`` and its
length match the provider's): after a provider switch the old vectors may have another dimension
(numpy would raise) or the same one (their similarities would mean nothing), so they are ignored
until indexing refreshes the working memory.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from activities.avoided import AVOID_PENALTY, avoided_things, names_avoided
from activities.cues_en import english_kinds, english_moods
from activities.models import Activity, WorkingMemory
from activities.text import local_time, part_of_day
from activities.vibes import TYPE_VIBES, query_vibes
from rag.embeddings import get_provider
from rag.preferences import ratings, stated_preferences

logger = logging.getLogger(__name__)

PREFERENCE_SHARE = 0.5
MIN_POSITIVES = 3  # +1 participations before interest vectors are stored and used
# The pool-relative MaxSim boost (pool_boosts): a candidate BOOST_FROM_Z robust spreads above
# the pool's median starts gaining, one BOOST_FULL_Z above gains the whole cap. BOOST_FROM_Z is
# held at 1 ("clearly above" the median); BOOST_FULL_Z fitted on the dev users of
# bench/activities_personalization.py (MRR of held-out likes 0.431 / 0.499 / 0.500 for 3 / 2 /
# 1.5; starting at 0.5 gained 0.02 more but boosted a third of the results instead of a sixth).
# Kept in session 48 when the pool became every candidate the cut judged (dev users of its eight
# corpora: MRR 0.651 against 0.632 read over the kept rows; docs/RELEVANCE.md, "Personalisation
# after the kind feature").
BOOST_FROM_Z = 1.0
BOOST_FULL_Z = 2.0
# Cosine: a pool whose MaxSims barely differ (all within noise) has nothing "clearly above".
MIN_SPREAD = 0.01
MAD_TO_SIGMA = 1.4826  # the median absolute deviation of a normal sample times this is its sigma
TIMES_OF_DAY = ("早上", "下午", "晚上", "深夜")
NEGATIVE_CATEGORIES = {"dislikes", "dislike", "avoid"}
# A value stated against something, in either language ("不吃辣", "no spicy food").
NEGATIVE_STARTS = ("不", "没", "讨厌", "no ", "not ", "don't ", "don’t ", "never ", "hate ")
# (stored model, active model) pairs already logged: a switch would otherwise log on every search.
_logged_mismatches: set[tuple[str, str]] = set()


def usable_vectors(entries: list[dict], *, model: str, dimensions: int | None) -> list[list]:
    """Return the embeddings of the entries made by ``model`` (and of its dimension)."""
    usable = []
    for entry in entries:
        vector = entry.get("embedding")
        if not vector:
            continue
        made_by = entry.get("model") or ""
        if made_by != model or (dimensions and len(vector) != dimensions):
            key = (made_by, model)
            if key not in _logged_mismatches:
                _logged_mismatches.add(key)
                logger.info(
                    "ignoring interest vectors made by %r (%d dimensions): the active model is "
                    "%r; they are replaced when the liked activities are indexed again",
                    made_by or "(unknown)",
                    len(vector),
                    model,
                )
            continue
        usable.append(vector)
    return usable


def pool_boosts(
    sims: list[float | None],
    *,
    cap: float,
    floor: float = 0.0,
    start: float = BOOST_FROM_Z,
    full: float = BOOST_FULL_Z,
    min_spread: float = MIN_SPREAD,
    reference: list[float | None] | None = None,
) -> list[float]:
    """Return the boost of each candidate from its MaxSim relative to the pool's, in [0, cap].

    ``sims`` are the MaxSims of one candidate pool (None: no comparison, no boost). The median
    and the median absolute deviation (robust: the liked activities themselves, at 1.0, do not
    move them) set the scale; equal MaxSims get equal boosts whatever their order.
    ``reference``: the MaxSims of the pool that sets the scale, when ``sims`` are a part of it
    (None: ``sims`` themselves).
    """
    scale = sims if reference is None else reference
    known = np.asarray([s for s in scale if s is not None], dtype=np.float64)
    if cap <= 0 or not len(known):
        return [0.0] * len(sims)
    centre = float(np.median(known))
    spread = max(MAD_TO_SIGMA * float(np.median(np.abs(known - centre))), min_spread)
    width = max(full - start, 1e-9)
    out = []
    for sim in sims:
        if sim is None or sim <= floor:
            out.append(0.0)
            continue
        z = (sim - centre) / spread
        out.append(cap * min(1.0, max(0.0, (z - start) / width)))
    return out


def positives_of(data: dict) -> int:
    """Return how many +1 participations built this working memory.

    Rows written before the count was stored hold one vector per like (at most 3), so their
    vector count is the best lower bound.
    """
    count = (data or {}).get("positives")
    if isinstance(count, int):
        return count
    return len((data or {}).get("interestVectors") or [])


def stated_cues(preferences) -> tuple[set, set, set]:
    """Return the (types, vibes, times of day) a list of stated preferences asks for."""
    types, vibes, times = set(), set(), set()
    for pref in preferences:
        value = (pref.value or "").strip()
        category = (pref.category or "").strip().lower()
        if (
            not value
            or category in NEGATIVE_CATEGORIES
            or value.lower().startswith(NEGATIVE_STARTS)
        ):
            continue
        # A preference keeps the language it was stated in: English values ("quiet
        # activities") name vibes and types through the English words of the search.
        vibes.update(query_vibes(value))
        vibes.update(cue.label for cue in english_moods(value))
        types.update(t for t in TYPE_VIBES if t in value)
        types.update(cue.label for cue in english_kinds(value))
        times.update(t for t in TIMES_OF_DAY if t in value)
    return types, vibes, times


def rated_cues(user, rated: dict[str, int] | None = None) -> tuple[set, set]:
    """Return the (types, vibes) of the activities the user rated +1 through the feedback API.

    A +1 on a recommendation is a like without joining: it feeds the preference boost (never
    the interest vectors, which need joined activities). ``rated``: the user's activity
    ratings when the caller has read them already (the search reads them once for the
    dislikes it hides and for this); None reads them.
    """
    if rated is None:
        rated = ratings(user, "activity")
    liked = [int(pk) for pk, rating in rated.items() if rating > 0]
    types, vibes = set(), set()
    if not liked:
        return types, vibes  # most users: no query to build (it would select nothing)
    for type_, activity_vibes in Activity.objects.filter(pk__in=liked).values_list("type", "vibes"):
        types.add(type_)
        vibes.update(activity_vibes or [])
    return types, vibes


@dataclass
class Personalizer:
    cap: float = 0.0
    floor: float = 0.0
    vectors: np.ndarray | None = None
    liked_types: set = field(default_factory=set)
    liked_vibes: set = field(default_factory=set)
    liked_times: set = field(default_factory=set)
    # What the user said they cannot eat or drink (activities.avoided), in any kind.
    avoided: set = field(default_factory=set)

    @property
    def kind(self) -> str | None:
        if self.cap <= 0:
            return None
        if self.vectors is not None and len(self.vectors):
            return "interest_vectors"
        if self.liked_types or self.liked_vibes or self.liked_times or self.avoided:
            return "preferences"
        return None

    @property
    def active(self) -> bool:
        return self.kind is not None

    @classmethod
    def for_user(
        cls, user, *, cap: float, floor: float | None, rated: dict[str, int] | None = None
    ) -> Personalizer:
        """Read the user's working memory and stated preferences (nothing for anonymous users).

        Only vectors of the active embedding provider's model and dimension count, and only
        once the user has ``MIN_POSITIVES`` +1 participations. ``rated``: the user's activity
        ratings, when already read (:func:`rated_cues`).
        """
        cap = max(0.0, min(float(cap or 0.0), 0.2))
        me = cls(cap=cap, floor=max(0.0, float(floor or 0.0)))
        if user is None or not getattr(user, "is_authenticated", False):
            return me
        stated = stated_preferences(user)
        types, vibes, times = stated_cues(stated)
        me.avoided = avoided_things(stated)
        rated_types, rated_vibes = rated_cues(user, rated)
        me.liked_types, me.liked_vibes, me.liked_times = (
            types | rated_types,
            vibes | rated_vibes,
            times,
        )
        memory = WorkingMemory.objects.filter(user=user).first()
        if memory is None:
            return me
        if positives_of(memory.data) >= MIN_POSITIVES:
            provider = get_provider()
            vectors = usable_vectors(
                memory.interest_vectors, model=provider.model, dimensions=provider.dimensions
            )
            if vectors:
                matrix = np.asarray(vectors, dtype=np.float32)
                norms = np.linalg.norm(matrix, axis=1, keepdims=True)
                me.vectors = matrix / np.maximum(norms, 1e-12)
        prefs = memory.preferences
        me.liked_types |= set(prefs.get("likedTypes") or [])
        me.liked_vibes |= set(prefs.get("vibes") or [])
        me.liked_times |= set(prefs.get("timesOfDay") or [])
        return me

    def maxsim(self, embedding) -> float | None:
        if self.vectors is None or embedding is None:
            return None
        v = np.asarray(embedding, dtype=np.float32)
        if v.shape != self.vectors.shape[1:]:
            return None  # a row of another model's dimension: no comparison, no crash
        norm = np.linalg.norm(v)
        if norm == 0:
            return None
        return float((self.vectors @ (v / norm)).max())

    def boosts(self, activities, *, pool=None) -> list[float]:
        """Return the boost of each activity of one candidate pool, in [0, cap], or
        ``-AVOID_PENALTY`` for one naming what the user cannot eat or drink.

        With interest vectors the boost of a candidate depends on the pool (:func:`pool_boosts`):
        ``pool`` (default ``activities``) is every candidate the search judged, of which
        ``activities`` are those it kept. With preferences each candidate's stands alone.
        """
        kind = self.kind
        if kind == "interest_vectors":
            sims = [self.maxsim(activity.embedding) for activity in activities]
            reference = None if pool is None else [self.maxsim(a.embedding) for a in pool]
            boosts = pool_boosts(sims, cap=self.cap, floor=self.floor, reference=reference)
        elif kind == "preferences":
            boosts = [self.preference_boost(activity) for activity in activities]
        else:
            return [0.0] * len(activities)
        return [
            -AVOID_PENALTY if names_avoided(activity, self.avoided) else boost
            for activity, boost in zip(activities, boosts, strict=True)
        ]

    def preference_boost(self, activity) -> float:
        """Return the preference boost of one activity, in [0, cap / 2]."""
        when = part_of_day(local_time(activity.start_at, activity.time_zone).hour)
        share = (
            0.5 * (activity.type in self.liked_types)
            + 0.3 * bool(set(activity.vibes or []) & self.liked_vibes)
            + 0.2 * (when in self.liked_times)
        )
        return min(self.cap * PREFERENCE_SHARE, self.cap * PREFERENCE_SHARE * share)
