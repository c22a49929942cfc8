"""Who said a turn, in ranking: the turns of the speaker a question names come first.

A question about a conversation between people usually names one of them ("What did Caroline
research?"), and its answer is that person's own words. On LoCoMo dev (bench/memory_locomo.py,
split dev), 678 of the 760 questions name one of the two speakers and 96% of their evidence
turns are that speaker's, against 53% of hybrid search's top 10 before this rule.

The rule reads the speakers of the candidate rows hybrid search loads anyway
(memory.ranking.rerank_top), so it costs no query. It changes nothing when the question names no
speaker of those rows, or when no row has a speaker (a chat between a user and an assistant
tells its sides apart by ``role`` alone).
"""

from __future__ import annotations

import re

# The share of its score a turn by another speaker than the one the question names keeps.
# Fitted on LoCoMo, split dev (bench/memory_locomo_tune.py, 760 questions): hybrid recall@5 /
# @10 0.723 / 0.805 at 0.5, 0.723 / 0.803 at 0.3, 0.713 / 0.795 at 0.7, 0.665 / 0.769 at 1 (no
# rule); docs/memory.md.
SPEAKER_WEIGHT = 0.5
HAN = re.compile(r"[\u3400-\u9fff]")
MIN_NAME_CHARS = 2  # a shorter name is also a word or a character of ordinary text


def names(query_text: str, speaker: str) -> bool:
    """Return whether ``query_text`` names ``speaker``: case-insensitive, as a whole word.

    A name with Chinese characters is looked for anywhere in the text (Chinese writes no spaces
    between words: "小雨周末做了什么"); any other name must not touch a letter or digit on either
    side, so "Jon" is not found in "Jonathan". A name too short to tell from an ordinary word
    names no one: one Latin letter ("A", "I": speakers of anonymised transcripts, and words of
    every English question) or one Chinese character ("妈" is in "妈妈").
    """
    name = speaker.strip().casefold()
    if len(name) < MIN_NAME_CHARS:
        return False
    text = query_text.casefold()
    if HAN.search(name):
        return name in text
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def named_speakers(query_text: str, speakers) -> set[str]:
    """Return those of ``speakers`` (as stored) that ``query_text`` names (:func:`names`)."""
    return {s for s in set(speakers) if s and names(query_text, s)}


def unnamed_query(query_text: str, speakers) -> str | None:
    """Return ``query_text`` with each of ``speakers`` it names said as "they" ("their" for
    "Caroline's" or "Caroline’s"), or None when it names none, only names in Chinese
    characters, or the text would stay the same. A capitalised name is replaced only where it
    is written with its own capitals.

    Why: the turns embed their speaker's name ("Caroline: ..." in LoCoMo's transcripts, the
    other speaker's in the previous turn), so the name dominates a short question's vector
    and pulls in the named person's turns on any topic; the speaker rule already decides who.
    The question said without the name is embedded as a second dense list (hybrid search).
    A Chinese name is left alone: no chat set of this project names Chinese speakers, so
    what would stand for it is unmeasured.
    """
    named = [s for s in named_speakers(query_text, speakers) if not HAN.search(s)]
    if not named:
        return None
    text = query_text
    for name in sorted(named, key=len, reverse=True):
        name = name.strip()
        pattern = re.escape(name)
        # A capitalised name is only the name written so: "Will" and "May" are also words
        # ("What will Will do in May?" keeps its verb); a name stored in lower case is
        # replaced in any case.
        flags = 0 if name[:1].isupper() else re.IGNORECASE
        text = re.sub(rf"(?<!\w){pattern}['’]s(?!\w)", "their", text, flags=flags)
        text = re.sub(rf"(?<!\w){pattern}(?!\w)", "they", text, flags=flags)
    text = " ".join(text.split())
    # Nothing replaced (named only in another case, or a casefold match the pattern misses):
    # the same text would be embedded twice.
    return None if text == " ".join(query_text.split()) else text


def speaker_weighed(
    scores: dict[int, float], speaker_of: dict[int, str], query_text: str
) -> dict[int, float]:
    """Return ``scores`` with the turns of other speakers than those the query names weighed
    by ``SPEAKER_WEIGHT``.

    ``speaker_of``: the speaker of each candidate (blank: not given). Only the speakers among
    the candidates can be named; a turn without a speaker (a summary, a turn written without
    one) keeps its score. The same ``scores`` when no speaker is named.
    """
    if not query_text:
        return scores
    named = named_speakers(query_text, speaker_of.values())
    if not named:
        return scores
    return {
        pk: score * SPEAKER_WEIGHT if speaker_of.get(pk) and speaker_of[pk] not in named else score
        for pk, score in scores.items()
    }
