"""Decide "relevant or not" from the score distribution, for any embedding model.

One absolute similarity floor cannot work across models: multilingual-e5-small puts almost every
pair of short texts between 0.80 and 0.92, OpenAI's text-embedding-3 between 0.1 and 0.7, and an
off-topic query's best hit scores as high as an on-topic query's tenth. What does carry over is
how far a hit stands above the query's *background*: its similarity to a fixed, topic-diverse
reference sample of everyday text (``rag/fixtures/background.txt``, embedded once per model and
cached). Measured on the demo activities with e5 (docs/RELEVANCE.md), the best hit of an off-topic
query barely clears the background's 90th percentile, while on-topic queries clear it clearly; a
background drawn from the corpus itself separated them worse (the corpus is the one place an
on-topic query is *expected* to be close to many rows).

Two rules, both relative, with parameters per model (key: provider, model name, dimensions) and
per surface in the live settings (``RagSettings.relevance_cuts``):

- the gate: the query is off-topic, and nothing is returned, when the best hit's margin
  ``(top - p90) / (1 - p90)`` is below ``gate`` (``p90``: the background's 90th percentile);
- the per-hit cut: a hit is dropped when its margin is below ``ratio`` x the best hit's margin
  (``ratio`` null: no per-hit cut); a hit with no evidence of its own (none of the query's
  words or cues in it: the caller says which) is dropped below ``bare_ratio`` x the best
  margin instead, so a list stops where what it can show for itself stops ("similar" alone
  must be close to the best);
- the pool rule (``poolZ``, ``poolZEvidence``): a hit is dropped when its margin stands less
  than ``poolZ`` standard deviations above the mean of the query's best :data:`STAT_POOL`
  candidates (``poolZEvidence`` for a hit naming a word or cue of the query): relevance
  relative to the query's own candidate distribution, which is as spread or as compressed as
  the model and the query make it, rather than a share of the best hit. It needs a crowd to
  stand out of: with fewer than :data:`POOL_MIN` candidates (a narrow filter left them, and
  they may all be what was asked for) the ratio and depth rules apply instead;
- the intent gate: a query closer to requests for something else than to requests for the
  surface's things (``rag.intent``) by more than ``intentGate`` is off-topic unless its best
  hit's margin reaches ``intentClose`` + ``intentSlope`` x (intent margin - ``intentGate``):
  the further it reads as a request for something else, the closer a hit must be;
- the bare gate: a query with no *lexical evidence* (the caller says whether any of its words or
  cues appears in the candidates) must clear ``bare_gate`` instead of ``gate`` when that is
  higher: a query sharing nothing with the corpus needs a clearer dense margin to be believed.

Keyboard noise ("zzzz qwerty": ``rag.understand.keyboard_noise``) is off-topic whatever its
scores: such a query has no meaning for a margin to measure.

The foreign gate: the reference sample of everyday text is Chinese, so an English query's
margin over it says less (short English mood requests sit close to every listing and to
everyday text alike). With ``foreignGate`` set, a query the caller marks as foreign must clear
it instead of the gate and the bare gate.

A model without fitted parameters uses :data:`UNCALIBRATED` (the best hit must at least clear the
background's 90th percentile; no per-hit cut). ``manage.py rag_calibrate`` fits both on a
labelled file (:func:`rag.calibration.fit`) and stores them. Everything here is
business-agnostic: callers pass scores and vectors; surfaces register how to read their corpus
for calibration (rag/calibration.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rag.background import Background, background_of, model_key
from rag.models import RagSettings
from rag.pool_stats import POOL_MIN, pool_scores, standout
from rag.selectors import rag_settings_get

# Surfaces the cut decides; they need no absolute similarity floor (rag.W002 skips them).
CUT_SURFACES = ("activities", "memory")
# Used when the live settings hold no fitted cut for (model, surface): relative rules only.
UNCALIBRATED = {"gate": 0.0, "ratio": None}
OFF_TOPIC_REASON = (
    "Nothing fits: the query is no closer to any candidate than to unrelated everyday text."
)
BARE_REASON = (
    "Nothing fits: no word of the query appears in any candidate, and the query is hardly "
    "closer to them than to unrelated everyday text."
)
NOISE_REASON = "Nothing fits: the query has no words, only repeated or neighbouring keys."
QUESTION_REASON = (
    "Nothing fits: the query asks for an answer or a piece of work, not for something to find here."
)
INTENT_REASON = (
    "Nothing fits: the query reads like a request for something else (weather, money, health, "
    "paperwork...), not for something to find here."
)
# Candidates (best dense hits first) in which lexical evidence is looked for.
EVIDENCE_POOL = 30
# A best hit standing this many standard deviations above the query's other candidates, and
# naming a word of the query few listings hold (``named_rare``), answers a query the example
# margin alone read as a request for something else: a request in words the intent examples do
# not know (Scots, slang, a rare hobby: fresh20 "hairy coos", "ceilidh wi a caller"). Chosen
# leaving one of the twenty-one development sets out (bench replay of session 50, the middle of
# the run 3.0-3.5 over all of them; docs/RELEVANCE.md, "Requests in words the gate does not
# know").
STANDOUT_Z = 3.25
# The margin of a hit in the other language than the query (``crossing``; issue 30, session 42;
# docs/RELEVANCE.md, "Across two languages") reads CROSS_LIFT higher: multilingual-e5-small
# scores a query against text in the other language lower than against its own. The median best
# margin of the labelled on-topic queries over listings in the other language stands 0.036 under
# that of the queries over their own (the twelve development sets of bench/activities_heldout.py,
# 1331 queries; 0.031 to 0.040 leaving any one set out; zh 0.033, en 0.050). A measured
# property of the model, not chosen on a metric. It moves no list of the thirteen development
# sets (each corpus is of one language, so it shifts every margin alike); in a pool whose
# titles are not all of one language it does (the demo set, 79 Chinese and 4 mixed titles:
# "hiking in the mountains" 0.787 without it, 0.918 with it; session 43, docs/RELEVANCE.md,
# "Across two languages, simpler").
CROSS_LIFT = 0.035


@dataclass(frozen=True)
class Cut:
    """The parameters of one (model, surface): the gate, the per-hit ratio, the bare gate."""

    gate: float
    ratio: float | None
    calibrated: bool = False
    bare_gate: float | None = None
    bare_ratio: float | None = None
    depth: float | None = None
    bare_depth: float | None = None
    foreign_gate: float | None = None
    intent_gate: float | None = None
    intent_close: float | None = None
    intent_slope: float | None = None
    pool_z: float | None = None
    pool_z_evidence: float | None = None

    def gate_for(self, evidence: bool, foreign: bool = False) -> float:
        """Return the gate a query must clear: the bare gate (when higher) without evidence;
        the foreign gate, when set, for a query not in the reference sample's language."""
        if foreign and self.foreign_gate is not None:
            return self.foreign_gate
        if evidence or self.bare_gate is None:
            return self.gate
        return max(self.gate, self.bare_gate)

    def as_meta(self) -> dict:
        return {
            "gate": self.gate,
            "ratio": self.ratio,
            "bareGate": self.bare_gate,
            "bareRatio": self.bare_ratio,
            "depth": self.depth,
            "bareDepth": self.bare_depth,
            "foreignGate": self.foreign_gate,
            "intentGate": self.intent_gate,
            "intentClose": self.intent_close,
            "intentSlope": self.intent_slope,
            "poolZ": self.pool_z,
            "poolZEvidence": self.pool_z_evidence,
            "calibrated": self.calibrated,
        }


@dataclass
class Decision:
    """What the cut decided for one query: keep flags, the best margin, and why (if empty)."""

    keep: list[bool]
    top_margin: float | None
    off_topic: bool
    cut: Cut
    dropped: int = 0
    reason: str | None = None
    evidence: bool = True
    noise: bool = False
    intent: float | None = None
    learned: float | None = None
    named_rare: bool = False

    def meta(self) -> dict:
        """Return the plain-data summary a search puts in its ``meta``."""
        return {
            **self.cut.as_meta(),
            "topMargin": None if self.top_margin is None else round(self.top_margin, 4),
            "offTopic": self.off_topic,
            "dropped": self.dropped,
            "evidence": self.evidence,
            "noise": self.noise,
            "intentMargin": None if self.intent is None else round(self.intent, 4),
            "intentLearned": None if self.learned is None else round(self.learned, 4),
            "namedRare": self.named_rare,
        }


# --- the parameters -----------------------------------------------------------------------


def cut_for(surface: str, settings_row=None) -> Cut:
    """Return the live cut of a surface for the active model (the uncalibrated one if none)."""

    row = settings_row or rag_settings_get()
    stored = ((row.relevance_cuts or {}).get(model_key()) or {}).get(surface)
    if not stored:
        return Cut(gate=UNCALIBRATED["gate"], ratio=UNCALIBRATED["ratio"], calibrated=False)
    ratio, bare = stored.get("ratio"), stored.get("bareGate")
    bare_ratio = stored.get("bareRatio")
    depth, bare_depth = stored.get("depth"), stored.get("bareDepth")
    foreign, intent = stored.get("foreignGate"), stored.get("intentGate")
    close, slope = stored.get("intentClose"), stored.get("intentSlope")
    pool_z, pool_z_evidence = stored.get("poolZ"), stored.get("poolZEvidence")
    return Cut(
        gate=float(stored["gate"]),
        ratio=None if ratio is None else float(ratio),
        calibrated=True,
        bare_gate=None if bare is None else float(bare),
        bare_ratio=None if bare_ratio is None else float(bare_ratio),
        depth=None if depth is None else float(depth),
        bare_depth=None if bare_depth is None else float(bare_depth),
        foreign_gate=None if foreign is None else float(foreign),
        intent_gate=None if intent is None else float(intent),
        intent_close=None if close is None else float(close),
        intent_slope=None if slope is None else float(slope),
        pool_z=None if pool_z is None else float(pool_z),
        pool_z_evidence=None if pool_z_evidence is None else float(pool_z_evidence),
    )


def store_cut(
    surface: str,
    *,
    gate: float,
    ratio: float | None,
    bare_gate: float | None = None,
    fit: dict | None = None,
) -> dict:
    """Store fitted parameters for the active model and a surface; return the stored entry."""

    row = RagSettings.objects.order_by("pk").first() or RagSettings()
    cuts = dict(row.relevance_cuts or {})
    key = model_key()
    # Keep what this fit does not produce (depth, bareRatio, foreignGate, intentGate: fitted
    # apart, or set by an admin); replace what it does.
    kept = {
        name: value
        for name, value in ((cuts.get(key) or {}).get(surface) or {}).items()
        if name not in ("gate", "ratio", "bareGate", "fit")
    }
    entry = {
        **kept,
        "gate": round(float(gate), 4),
        "ratio": None if ratio is None else round(ratio, 4),
    }
    if bare_gate is not None:
        entry["bareGate"] = round(float(bare_gate), 4)
    if fit:
        entry["fit"] = fit
    cuts[key] = {**(cuts.get(key) or {}), surface: entry}
    row.relevance_cuts = cuts
    row.full_clean()
    row.save()  # drops this process's cached copy (config.live)
    return entry


# --- applying the cut ---------------------------------------------------------------------


def decide(
    scores: Sequence[float],
    background: Background,
    cut: Cut,
    *,
    evidence: bool = True,
    noise: bool = False,
    question: bool = False,
    hit_evidence: Sequence[bool] | None = None,
    crossing: Sequence[bool] | None = None,
    foreign: bool = False,
    intent: float | None = None,
    keep_best: int = 0,
    vouched: bool = False,
    window: bool = False,
    asked: bool = False,
    learned: float | None = None,
    named_rare: bool = False,
) -> Decision:
    """Return which of ``scores`` (best first or not) are relevant under ``cut``.

    ``evidence``: whether a word or cue of the query appears in the candidates (without it the
    bare gate applies); ``noise``: the query is keyboard noise; ``question``: the surface found
    the query to be a question asking for an answer (both off-topic, whatever the scores);
    ``hit_evidence``: per score, whether that hit has a word or cue of the query (None: all
    have, so ``bare_ratio`` and ``bare_depth`` never apply); ``crossing``: per score, whether
    that hit is in the other language than the query (its margin reads :data:`CROSS_LIFT`
    higher; None: none is); ``foreign``: the query is not in the reference sample's language
    (its margin over that sample means less: the foreign gate, when set, replaces the gate and
    the bare gate); ``intent``: the query's intent margin
    (``rag.intent``: closer to requests for something else by this much), off-topic above the
    cut's intent gate, even with no candidate, unless the best hit's margin reaches the cut's
    ``intent_close`` (a candidate is close: None, no such exception; None intent: not measured),
    raised by ``intent_slope`` per unit of intent margin past the gate (:func:`close_enough`);
    ``keep_best``: an on-topic query keeps at least its this many best hits, whatever the
    per-hit cut (the cut says where a list stops, not that it holds one or two rows); with the
    cut's pool rule, only those of them standing above the pool's mean (:func:`pool_scores`).
    ``vouched``: the surface read from the query's own words that it asks for what a best hit
    holds; the margin gates do not apply (noise, question and intent still do), nor do they to
    a query whose measured intent margin is at or under the cut's intent gate unless
    ``window``: the scores are those of a time window's few rows, where the margin gates say
    nothing there fits (the caller then judges every row). ``asked``: the query's own words ask
    for something to do; the intent gate does not apply, but its measured ``intent`` still says
    whether the margin gates do, as for any query. ``learned``: the query's learned gate score
    (``rag.intent.learned_score``; None: not read): above 0 a measured query reads as one past
    the intent gate, answered only when a hit reaches ``intent_close`` (the slope adds nothing
    for it); the margin gates still follow ``intent`` alone. ``named_rare``: the best hit holds
    a word of the query few listings hold; a query past the intent gate by its example margin
    alone (``learned`` read, and not above 0) is then answered when that hit stands out of the
    scores (:func:`standout` at least :data:`STANDOUT_Z`).
    """
    flags = {
        "evidence": evidence,
        "noise": noise,
        "intent": intent,
        "learned": learned,
        "named_rare": named_rare,
    }
    measured = cut.intent_gate is not None and intent is not None
    # The learned gate (issue 30, session 49) reads a query as a request for something else
    # where the example margin does not: fitted on the twenty development sets' queries, left
    # out one set at a time it emptied one more of fresh19's Chinese off-topic queries (and six
    # zh, three en more of the 301 the intent gate alone reads) and no labelled query
    # (docs/RELEVANCE.md, "A learned gate for requests that belong elsewhere").
    past = measured and (intent > cut.intent_gate or (learned is not None and learned > 0))
    elsewhere = not asked and past
    if not len(scores):
        return Decision(
            keep=[],
            top_margin=None,
            off_topic=elsewhere,
            cut=cut,
            reason=INTENT_REASON if elsewhere else None,
            **flags,
        )
    own = [True] * len(scores) if hit_evidence is None else list(hit_evidence)
    raw = [background.margin(s) for s in scores]
    lifts = [CROSS_LIFT if other else 0.0 for other in crossing or [False] * len(scores)]
    margins = [margin + lift for margin, lift in zip(raw, lifts, strict=True)]
    top = max(margins)
    if elsewhere and cut.intent_close is not None and top >= close_enough(cut, intent):
        # Off-topic means nothing here is close: a request that reads like one for something
        # else ("money", "health") is still answered when a hit stands this far above the
        # background (a budgeting class for a money question).
        elsewhere = False
    if (
        elsewhere
        and named_rare
        and learned is not None
        and learned <= 0
        and standout(scores) >= STANDOUT_Z
    ):
        # Evidence from the listings themselves outweighs the examples' reading of the words:
        # the closest listing names a rare word of the query and stands apart from the rest
        # (issue 30, session 50: "hairy coos" and the Highland coos walk). Not when the learned
        # gate, fitted on the development queries, reads it elsewhere too ("python how to sort
        # a dict by value" and the Python class), nor without it (another model: no weights):
        # without that veto the rule answered fresh2's Python questions held out.
        elsewhere = False
    gate = cut.gate_for(evidence, foreign)
    # The foreign gate was fitted on English queries' margins over the Chinese sample as they
    # are, so it reads them without CROSS_LIFT: an English query over Chinese listings is
    # already compared like with like (session 42 audit: "Monday after work, help me unwind"
    # over four Chinese evening rows, none restful, passed the gate by the lift alone).
    gated = max(raw) if foreign and cut.foreign_gate is not None else top
    # A measured intent margin at or under the intent gate reads as a request for something
    # here: the margin gates do not empty it (as a vouch). On the sixteen development sets they
    # emptied no off-topic query the intent gate had not, and two labelled fresh15 ones; left
    # out one set at a time, every rotation chose this bound (docs/RELEVANCE.md, "Labelled
    # queries answered empty, as a decision"). So for a measured query the margin gates act
    # only on one the close-enough rule saves past the intent gate: the intent gate is the
    # query-level off-topic decision. A query whose own words ask (``asked``) is measured and read
    # by the same bound: on the seventeen development sets the margin gates emptied none of them,
    # so no rotation left out one set at a time told bounds apart and the one bound is kept
    # (docs/RELEVANCE.md, "Answer or empty: one rule", session 46). None: not measured, gates on.
    requested = not window and measured and intent <= cut.intent_gate
    if noise or question or elsewhere or (gated < gate and not (vouched or requested)):
        if noise:
            reason = NOISE_REASON
        elif question:
            reason = QUESTION_REASON
        elif elsewhere:
            reason = INTENT_REASON
        elif gated < cut.gate or (foreign and cut.foreign_gate is not None):
            reason = OFF_TOPIC_REASON
        else:
            reason = BARE_REASON
        return Decision(
            keep=[False] * len(scores),
            top_margin=top,
            off_topic=True,
            cut=cut,
            dropped=len(scores),
            reason=reason,
            **flags,
        )
    crowd = cut.pool_z is not None and len(margins) >= POOL_MIN
    pooled = pool_scores(margins) if crowd else [0.0] * len(margins)
    keep = []
    for margin, has, z in zip(margins, own, pooled, strict=True):
        if crowd:
            # The pool rule replaces the ratio and depth rules where it applies.
            least = cut.pool_z if not has or cut.pool_z_evidence is None else cut.pool_z_evidence
            keep.append(z >= least)
            continue
        ratio = cut.ratio if has or cut.bare_ratio is None else cut.bare_ratio
        depth = cut.depth if has or cut.bare_depth is None else cut.bare_depth
        # A best hit below the background (possible under a negative gate) keeps only itself.
        floor = None if ratio is None else (ratio * top if top > 0 else top)
        keep.append((floor is None or margin >= floor) and (depth is None or top - margin <= depth))
    # The per-hit cut decides where a list stops, never that it stops before ``keep_best``
    # (with the pool rule: never before the best hits standing above the average candidate).
    # The best by margin, as the rules read them: with CROSS_LIFT on some hits only (a pool of
    # both languages), a raw score would put the other language's hits after their due.
    for index in sorted(range(len(scores)), key=lambda i: -margins[i])[:keep_best]:
        keep[index] = keep[index] or pooled[index] >= 0.0
    return Decision(
        keep=keep, top_margin=top, off_topic=False, cut=cut, dropped=keep.count(False), **flags
    )


def close_enough(cut: Cut, intent: float) -> float:
    """Return the best-hit margin that answers a query read as a request for something else:
    ``intent_close``, raised by ``intent_slope`` per unit of intent margin past the intent gate.

    The further a request reads as belonging elsewhere, the closer a listing must be to answer
    it anyway: a weather question naming the rain (intent margin 0.035) beside a rainy-day
    listing at 0.2 is a weather question, a money question just past the gate beside a
    budgeting class is not (docs/RELEVANCE.md, "Information requests").
    """
    slope = cut.intent_slope or 0.0
    return cut.intent_close + slope * max(intent - (cut.intent_gate or 0.0), 0.0)


def judge(
    vector: Sequence[float],
    scores: Sequence[float],
    surface: str,
    *,
    evidence: bool = True,
    noise: bool = False,
    question: bool = False,
    hit_evidence: Sequence[bool] | None = None,
    crossing: Sequence[bool] | None = None,
    foreign: bool = False,
    intent: Callable[[], float] | None = None,
    keep_best: int = 0,
    vouched: bool = False,
    window: bool = False,
    asked: bool = False,
    learned: Callable[[], float | None] | None = None,
    named_rare: bool = False,
) -> Decision:
    """Return the live decision for a query vector and its hits' similarities on a surface.

    ``intent``: how to read the query's intent margin (``rag.intent``), asked only when the
    live cut has an intent gate; ``learned``: how to read its learned gate score, asked then
    too; ``keep_best``, ``vouched``, ``window``, ``asked`` and ``named_rare`` as :func:`decide`.
    """
    cut = cut_for(surface)
    return decide(
        scores,
        background_of(vector),
        cut,
        evidence=evidence,
        noise=noise,
        question=question,
        hit_evidence=hit_evidence,
        crossing=crossing,
        foreign=foreign,
        intent=intent() if intent is not None and cut.intent_gate is not None else None,
        keep_best=keep_best,
        vouched=vouched,
        window=window,
        asked=asked,
        learned=learned() if learned is not None and cut.intent_gate is not None else None,
        named_rare=named_rare,
    )
