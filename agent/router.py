"""Route a message to one of five intents: CHAT, EXPLORE, CREATE, PARTNER, MANAGE.

Offline (no LLM) two signals are fused:

1. Similarity to labelled example utterances (``agent/data/intent_examples.json``): the
   examples are embedded once per process (role "query", the same as the message, because
   both sides are short utterances), and each intent scores the mean of its ``KNN`` most
   similar examples. The scores are turned into a distribution with a softmax whose
   temperature suits e5's compressed similarity range.
2. Keyword rules with priorities (``RULES``, agent/intent_rules.py): a match adds its weight to
   that intent, so a clear cue ("取消报名", "发起") wins even when the embedding hesitates.

A follow-up that only refines a draft ("人数改成八个") stays in CREATE when the previous turn
of the chat was CREATE. With an LLM configured the model is asked for one label; any error or
an answer that is not a label falls back to the offline result.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agent import draft_fields, extract, follow_up, preferences_said
from agent.intent_rules import (
    CHAT,
    CREATE,
    DRAFT_QUESTION_RE,
    EXPLICIT_CANCEL_RE,
    EXPLORE,
    INTENTS,
    MANAGE,
    PARTNER,
    REFINE_RE,
    RULES,
)
from rag.embeddings import embed_query, search_budget
from rag.intent import embedded_examples, provider_answering
from rag.intent import reset as reset_embedded_examples
from rag.llm import get_llm

logger = logging.getLogger(__name__)

DATA_DIR = Path(__file__).resolve().parent / "data"
EXAMPLES_PATH = DATA_DIR / "intent_examples.json"
# The key of the router's examples among every embedded example set (rag.intent).
EXAMPLES_NAME = "agent.router"
# The labelled sets (agent/data/intents*.jsonl): rows of the "dev" split are reference examples
# too; rows of the "test" split never are (bench/intent_routing.py reports on them).
LABELLED_GLOB = "intents*.jsonl"
KNN = 3
# e5 similarities of short texts differ by hundredths. Chosen by `bench/intent_routing.py --grid`
# on the dev split of agent/data/intents*.jsonl (0.985 at 0.02, the middle of a flat plateau
# from 0.02 to 0.05; 0.966 at the former 0.01, where one example's certainty outweighed a rule).
TEMPERATURE = 0.02
RULE_CONFIDENT = 0.8


@dataclass
class IntentResult:
    """The chosen intent, how sure the router is, and which signal decided."""

    intent: str
    confidence: float
    source: str  # "rules", "embedding", "fused", "context", "llm", "default"
    scores: dict[str, float] = field(default_factory=dict)


class _ExampleIndex:
    """The example utterances and their unit vectors (``rag.intent.embedded_examples``: once
    per embedding model and process)."""

    def __init__(self):
        self.labels: list[str] = []
        self.texts: list[str] = []

    def get(self, *, budget: float | None = -1.0) -> tuple[list[str], np.ndarray]:
        """Return the labels and vectors; build them first when missing or of another model.

        ``budget``: seconds the build may wait for the provider (default: a search's budget);
        None waits as long as it takes (the warm-up, :func:`warm_up`).
        """
        if budget == -1.0:
            budget = search_budget()
        if not self.texts:
            examples = json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))
            labels, texts = [], []
            for intent in INTENTS:
                for text in examples.get(intent, []):
                    labels.append(intent)
                    texts.append(text)
            for row in dev_examples():
                if row["text"] not in texts:
                    labels.append(row["intent"])
                    texts.append(row["text"])
            self.labels, self.texts = labels, texts
        # Budgeted: with the provider down the router falls back to its rules at once.
        return self.labels, embedded_examples(EXAMPLES_NAME, self.texts, budget=budget)

    def reset(self) -> None:
        self.labels, self.texts = [], []
        reset_embedded_examples()


_index = _ExampleIndex()


def warm_up() -> None:
    """Build the example index now, without a budget (a web process's warm-up, rag.warmup).

    Built on a chat turn instead, its few hundred examples are embedded on the process's one
    engine thread (rag/providers/local.py, first come first served) while the turn waits: every
    search's query waited behind them past its 3 s budget and degraded, and a build cut by the
    budget started again on the next turn (issue 33, docs/SERVING.md "Streams beside searches").
    """
    if provider_answering():
        _index.get(budget=None)


def dev_examples() -> list[dict]:
    """Return the ``{"text", "intent"}`` rows of the dev split of every labelled intent set."""
    rows = []
    for path in sorted(DATA_DIR.glob(LABELLED_GLOB)):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("split") == "dev" and row.get("intent") in INTENTS:
                rows.append(row)
    return rows


def reset_examples() -> None:
    """Forget the embedded examples (the example file or the embedding model changed)."""
    _index.reset()


def rule_scores(message: str) -> dict[str, float]:
    """Return the weight of the strongest rule that matches, per intent."""
    scores = dict.fromkeys(INTENTS, 0.0)
    # English cues are written in lower case with a plain apostrophe (phones type ’); Chinese
    # has no case.
    text = message.lower().replace("’", "'")
    for intent, pattern, weight in RULES:
        if pattern.search(text):
            scores[intent] = max(scores[intent], weight)
    return scores


def embedding_scores(
    message: str, vector=None, *, leave_out: bool = False
) -> dict[str, float] | None:
    """Return a probability per intent from similarity to the examples (None if unavailable).

    ``vector``: the message's query-role embedding when the caller already has it (a chat turn
    embeds its message once for all its passes). ``leave_out``: ignore an example that is the
    message itself (bench/intent_routing.py scores the dev split leave-one-out).
    """
    try:
        labels, matrix = _index.get()
        if vector is None:
            vector = embed_query(message)
        vector = np.asarray(vector, dtype=np.float32)
    except Exception as exc:  # noqa: BLE001 - ProviderError or a missing file: rules only
        logger.warning("intent embedding unavailable, routing by rules: %s", exc)
        return None
    vector /= np.linalg.norm(vector) + 1e-12
    similarities = matrix @ vector
    if leave_out:
        similarities = np.where(np.asarray(_index.texts) == message, -1.0, similarities)
    raw = {}
    for intent in INTENTS:
        own = np.sort(similarities[[i for i, label in enumerate(labels) if label == intent]])
        raw[intent] = float(own[-KNN:].mean()) if own.size else -1.0
    values = np.array([raw[i] for i in INTENTS]) / TEMPERATURE
    probabilities = np.exp(values - values.max())
    probabilities /= probabilities.sum()
    return {intent: float(p) for intent, p in zip(INTENTS, probabilities, strict=True)}


def classify_offline(message: str, context: dict | None = None) -> IntentResult:
    """Return the intent from example similarity plus keyword rules (no LLM)."""
    text = (message or "").strip()
    context = context or {}
    if not text:
        return IntentResult(CHAT, 1.0, "default", {})
    rules = rule_scores(text)
    refining = REFINE_RE.search(text) or (
        context.get("editing_draft") and DRAFT_QUESTION_RE.search(text)
    )
    if context.get("last_intent") == CREATE and refining and rules[MANAGE] == 0:
        return IntentResult(CREATE, 0.9, "context", rules)
    # While a draft is edited, a change to it wins over backing out of something ("I can't make
    # the saturday slot, move it to sunday"): only an explicit cancel is MANAGE's.
    if context.get("editing_draft") and rules[CREATE] and not EXPLICIT_CANCEL_RE.search(text):
        return IntentResult(CREATE, 0.9, "context", rules)
    # A place or a head count said while a draft is edited is a change to it ("地点在武定路的陶艺
    # 工作室", "at the Clay Studio on Wuding Road"), not a search for the place (a make-run look,
    # session 46).
    if (
        context.get("editing_draft")
        and not (extract.REMEMBER_RE.search(text) or extract.NOTE_CUE_RE.search(text))
        and draft_fields.sets_draft_field(text)
        and not EXPLICIT_CANCEL_RE.search(text)
    ):
        return IntentResult(CREATE, 0.9, "context", rules)
    # The answer to the partner search's lively-or-quiet question ("我更喜欢安静的", "quiet
    # please") is a preference to keep, not a search for quiet places (a make-run look, session
    # 47).
    if context.get("last_intent") == PARTNER and preferences_said.answered_vibe(text):
        return IntentResult(CHAT, 0.9, "context", rules)
    # 不找了，帮我停掉 right after a turn about the search for company stops that search, not an
    # activity (a make-run look, session 50).
    if context.get("last_intent") == PARTNER and extract.stops_bare(text):
        return IntentResult(PARTNER, 0.9, "context", rules)
    # 那明天的呢, "what about food?", 有没有室内的 right after a search change that search; read by
    # their own words they went to the user's activities, small talk or the search for company
    # (a make-run look, session 51).
    if (
        context.get("last_intent") == EXPLORE
        and not (rules[MANAGE] or rules[CREATE] or rules[PARTNER])
        and follow_up.follows_search(text)
    ):
        return IntentResult(EXPLORE, 0.9, "context", rules)
    # "what about tomorrow?" right after a listing of one's own activities asks for those then
    # (it was small talk: an audit, session 51).
    if (
        context.get("last_intent") == MANAGE
        and not (rules[CREATE] or rules[PARTNER] or rules[EXPLORE])
        and follow_up.names_only_another_time(text)
    ):
        return IntentResult(MANAGE, 0.9, "context", rules)
    embedded = embedding_scores(
        text, context.get("query_vector"), leave_out=bool(context.get("leave_out"))
    )
    if embedded is None:
        best = max(INTENTS, key=lambda i: (rules[i], i == CHAT))
        if rules[best] == 0:
            return IntentResult(CHAT, 0.5, "default", rules)
        return IntentResult(best, rules[best], "rules", rules)
    fused = {intent: embedded[intent] + rules[intent] for intent in INTENTS}
    best = max(INTENTS, key=lambda i: fused[i])
    total = sum(fused.values()) or 1.0
    confidence = fused[best] / total
    if rules[best] == 0:
        source = "embedding"
    elif rules[best] >= RULE_CONFIDENT and embedded[best] < 0.5:
        source = "rules"
    else:
        source = "fused"
    return IntentResult(
        best, round(confidence, 4), source, {k: round(v, 4) for k, v in fused.items()}
    )


LLM_PROMPT = (
    "你是一个意图分类器。把用户消息归入以下之一，只回答标签本身：\n"
    "CHAT（闲聊、情绪、与活动无关的问题）\n"
    "EXPLORE（找活动、找地方、推荐去处）\n"
    "CREATE（发起、创建、修改或发布自己要组织的活动）\n"
    "PARTNER（找人一起、找搭子、找伙伴）\n"
    "MANAGE（查看、取消或管理自己已报名或发起的活动，往共享上下文或笔记里记东西）"
)


def classify_intent(message: str, context: dict | None = None) -> IntentResult:
    """Return the message's intent: the LLM's label when configured, else the offline router."""
    offline = classify_offline(message, context)
    llm = get_llm()
    if not llm.enabled or offline.source == "context":
        return offline
    prompt = message
    if context and context.get("last_intent"):
        prompt = f"（上一轮意图：{context['last_intent']}）\n{message}"
    try:
        answer = llm.complete(prompt, system=LLM_PROMPT, max_tokens=5)
    except Exception as exc:  # noqa: BLE001 - any provider failure: keep the offline answer
        logger.warning("LLM intent classification failed, using the offline router: %s", exc)
        return offline
    label = re.search(r"CHAT|EXPLORE|CREATE|PARTNER|MANAGE", (answer or "").upper())
    if not label:
        return offline
    return IntentResult(label.group(0), 0.9, "llm", offline.scores)
