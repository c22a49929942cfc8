"""Whether a Chinese day's name is the first part of a word for a thing named after the day.

谷雨茶 (a tea picked around 谷雨), 重阳糕 (a cake), 冬至面, 腊八粥: a day's name followed at
once by a one-character noun is a compound word, the name a modifier of the thing, and no time
(「谷雨茶哪里买」 asks where to buy a tea, not what is on in April). A noun of its own word
after the name (冬至饺子, 七夕礼物, 中秋晚会) and a verb (冬至吃饺子, 七夕去哪) leave the name a
day.
The test is grammatical, from jieba's own dictionary: the character's part-of-speech tag is a
noun one (``n``, ``ng``, ...) and jieba's segmentation keeps it a word of one character (so
冬至|饺子 is no such compound, 饺 starting the word 饺子). Not fitted on any query (issue 30,
session 51; docs/RELEVANCE.md, "Named days, rare words and empty input").
"""

from __future__ import annotations

import functools

from rag.text import cut_as_written
from rag.text import tokenizer as _tokenizer


@functools.lru_cache(maxsize=1)
def _one_character_nouns() -> frozenset[str]:
    """Return the one-character words jieba's dictionary tags as nouns (read once; the
    dictionary's single characters only, 11,580 of them in jieba 0.42.1)."""
    nouns = set()
    with _tokenizer.get_dict_file() as handle:
        for raw in handle:
            word, _, rest = raw.decode("utf-8").partition(" ")
            fields = rest.split()
            if len(word) == 1 and len(fields) == 2 and fields[1].startswith("n"):
                nouns.add(word)
    return frozenset(nouns)


def names_a_thing(text: str, end: int) -> bool:
    """Return whether the Chinese day's name ending at ``end`` of ``text`` starts a compound
    word for a thing: a one-character noun follows at once, a word by itself."""
    following = text[end : end + 8]
    if not following or following[0] not in _one_character_nouns():
        return False
    first = next(iter(cut_as_written(following)), "")
    return len(first) == 1
