"""Fit the relevance cut of rag/relevance.py on labelled queries (``manage.py rag_calibrate``).

A surface registers how to read its corpus (``loader()``: (key, vector) pairs) and, optionally,
its lexical-evidence rule; each labelled query is scored against the whole corpus
(:func:`score_labelled`) and :func:`fit` chooses the gate and ratio (then a bare gate) that
answer the most off-topic queries empty while losing at most ``max_lost`` of the relevant hits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from rag.background import Background, background_of, reference_vectors
from rag.cut_rules import GATE_RANGE
from rag.embeddings import embed_texts
from rag.relevance import EVIDENCE_POOL, UNCALIBRATED, Cut, decide
from rag.understand import keyboard_noise

_corpora: dict[str, Callable[[], list[tuple[str, list[float]]]]] = {}
_evidence: dict[str, Callable[[str, list[str]], bool]] = {}


def register_corpus(
    surface: str,
    loader: Callable[[], list[tuple[str, list[float]]]],
    evidence: Callable[[str, list[str]], bool] | None = None,
) -> None:
    """Let ``rag_calibrate`` read a surface's corpus: ``loader()`` gives (key, vector) pairs;
    ``evidence(query, keys)`` says whether the query has lexical evidence in those documents
    (the surface's own rule, the one its search uses; without it every query has evidence)."""
    _corpora[surface] = loader
    if evidence is not None:
        _evidence[surface] = evidence


def evidence_rule(surface: str) -> Callable[[str, list[str]], bool] | None:
    """Return the registered lexical-evidence rule of a surface, if any."""
    return _evidence.get(surface)


def corpus_loader(surface: str) -> Callable[[], list[tuple[str, list[float]]]] | None:
    """Return the registered corpus loader of a surface, if any."""
    return _corpora.get(surface)


@dataclass
class Labelled:
    """One labelled query scored against the whole corpus."""

    query: str
    scores: dict[str, float]  # corpus key -> similarity
    relevant: set[str]
    background: Background
    evidence: bool = True
    noise: bool = False

    @property
    def off_topic(self) -> bool:
        return not self.relevant


@dataclass
class FitResult:
    """The fitted parameters and how the cut does on the labelled file."""

    gate: float
    ratio: float | None
    bare_gate: float | None
    k: int
    queries: int
    off_topic_queries: int
    off_topic_empty: float
    relevant_lost: float
    precision_before: float
    precision: float
    recall: float
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def evaluate(items: Sequence[Labelled], cut: Cut, k: int) -> dict:
    """Return the cut's figures on labelled queries, over each query's top k hits.

    ``recall``: relevant hits of the top k that the cut keeps; ``relevant_lost`` is 1 - recall;
    ``precision``: relevant share of the kept hits (``precision_before``: without the cut);
    ``off_topic_empty``: share of queries labelled with nothing relevant that answer empty.
    """
    kept = kept_relevant = top_relevant = shown = 0
    empty_off = off = 0
    for item in items:
        ranked = sorted(item.scores.items(), key=lambda kv: -kv[1])[:k]
        decision = decide(
            [s for _, s in ranked], item.background, cut, evidence=item.evidence, noise=item.noise
        )
        if item.off_topic:
            off += 1
            empty_off += not any(decision.keep)
        for (key, _), keep in zip(ranked, decision.keep, strict=True):
            relevant = key in item.relevant
            shown += 1
            top_relevant += relevant
            kept += keep
            kept_relevant += keep and relevant
    recall = kept_relevant / top_relevant if top_relevant else 1.0
    return {
        "off_topic_empty": empty_off / off if off else 1.0,
        "relevant_lost": 1.0 - recall,
        "recall": recall,
        "precision": kept_relevant / kept if kept else 0.0,
        "precision_before": top_relevant / shown if shown else 0.0,
    }


def fit(items: Sequence[Labelled], *, k: int = 10, max_lost: float = 0.02) -> FitResult:
    """Fit (gate, ratio) on labelled queries: most off-topic queries answered empty, then the
    best precision, while losing at most ``max_lost`` of the relevant hits in each top k.
    """
    margins_top = sorted(
        max(item.background.margin(s) for s in item.scores.values())
        for item in items
        if item.scores
    )
    # Candidate gates: midpoints between observed best margins (and the uncalibrated 0).
    gates = sorted(
        {UNCALIBRATED["gate"]}
        | {round((a + b) / 2, 4) for a, b in zip(margins_top, margins_top[1:], strict=False)}
    )
    gates = [g for g in gates if GATE_RANGE[0] <= g <= GATE_RANGE[1]]
    ratios: list[float | None] = [None, *np.round(np.arange(-1.0, 1.0001, 0.05), 2).tolist()]
    best, best_key = None, None
    for gate in gates:
        for ratio in ratios:
            figures = evaluate(items, Cut(gate=gate, ratio=ratio), k)
            if figures["relevant_lost"] > max_lost + 1e-9:
                continue
            # Prefer: more off-topic emptied, then precision, then the gentler cut.
            key = (
                round(figures["off_topic_empty"], 6),
                round(figures["precision"], 6),
                -gate,
                -(ratio if ratio is not None else -9.0),
            )
            if best_key is None or key > best_key:
                best, best_key = (gate, ratio, figures), key
    notes = []
    bare = None
    if best is None:
        gate, ratio = UNCALIBRATED["gate"], UNCALIBRATED["ratio"]
        figures = evaluate(items, Cut(gate=gate, ratio=ratio), k)
        notes.append("no cut met the loss limit; the uncalibrated rule is reported instead")
    else:
        gate, ratio, figures = best
        bare, figures = _fit_bare(items, gate, ratio, figures, k=k, max_lost=max_lost)
    return FitResult(
        gate=gate,
        ratio=ratio,
        bare_gate=bare,
        k=k,
        queries=len(items),
        off_topic_queries=sum(item.off_topic for item in items),
        notes=notes,
        **figures,
    )


def _fit_bare(items, gate, ratio, figures, *, k, max_lost) -> tuple[float | None, dict]:
    """Return the bare gate (and the figures with it) for the fitted (gate, ratio).

    Candidates are midpoints between the best margins of queries without lexical evidence
    above ``gate``; the one emptying most off-topic queries within the loss limit wins, then
    the best precision, then the lowest. None when no candidate empties more than ``gate``.
    """
    tops = sorted(
        max(item.background.margin(s) for s in item.scores.values())
        for item in items
        if item.scores and not item.evidence and not item.noise
    )
    candidates = sorted(
        {round((a + b) / 2, 4) for a, b in zip(tops, tops[1:], strict=False)}
        | {round(t + 1e-4, 4) for t in tops[-1:]}
    )
    best, best_key = (None, figures), (round(figures["off_topic_empty"], 6), -1.0, 0.0)
    for bare in candidates:
        if bare <= gate or bare > GATE_RANGE[1]:
            continue
        trial = evaluate(items, Cut(gate=gate, ratio=ratio, bare_gate=bare), k)
        if trial["relevant_lost"] > max_lost + 1e-9:
            continue
        key = (round(trial["off_topic_empty"], 6), round(trial["precision"], 6), -bare)
        if trial["off_topic_empty"] > figures["off_topic_empty"] + 1e-9 and key > best_key:
            best, best_key = (bare, trial), key
    return best


MIN_GRADE = 2  # graded labels: 1 is "loosely related", not a result the cut must keep


def relevant_keys(relevant) -> set[str]:
    """Return the keys a labelled query counts as relevant (a list, or grades >= MIN_GRADE)."""
    if isinstance(relevant, dict):
        return {str(key) for key, grade in relevant.items() if grade >= MIN_GRADE}
    return {str(key) for key in relevant or []}


def score_labelled(
    rows: Sequence[dict],
    corpus: Sequence[tuple[str, Sequence[float]]],
    evidence: Callable[[str, list[str]], bool] | None = None,
) -> list[Labelled]:
    """Embed labelled queries and score them against a corpus of (key, vector) pairs.

    ``rows`` are ``{"query": str, "relevant": [key, ...] or {key: grade}}``; an empty
    ``relevant`` marks an off-topic query (expected answer: nothing). ``evidence(query, keys)``
    (the surface's rule) is asked about the query's best :data:`EVIDENCE_POOL` documents.
    """
    keys = [key for key, _ in corpus]
    matrix = np.asarray([vector for _, vector in corpus], dtype=np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    reference = reference_vectors()
    vectors = embed_texts([row["query"] for row in rows], role="query")
    items = []
    for row, vector in zip(rows, vectors, strict=True):
        q = np.asarray(vector, dtype=np.float32)
        q /= max(float(np.linalg.norm(q)), 1e-12)
        sims = matrix @ q
        best = [keys[i] for i in np.argsort(-sims)[:EVIDENCE_POOL]]
        items.append(
            Labelled(
                query=row["query"],
                scores={key: float(s) for key, s in zip(keys, sims, strict=True)},
                relevant=relevant_keys(row.get("relevant")),
                background=background_of(q, reference),
                evidence=True if evidence is None else bool(evidence(row["query"], best)),
                noise=keyboard_noise(row["query"]),
            )
        )
    return items
