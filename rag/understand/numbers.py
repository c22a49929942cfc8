"""Small numbers written in digits, Chinese numerals or English words, as times and counts say
them. Split from ``rag.understand.words`` (session 56).
"""

from __future__ import annotations

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
CN_DIGITS.update({"七": 7, "八": 8, "九": 9, "十": 10})
EN_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
EN_NUMBERS.update({"seven": 7, "few": 3, "couple of": 2, "a few": 3, "a couple of": 2})


def cn_number(text: str) -> int | None:
    """Return the value of a small number written in digits or Chinese (up to 99), else None."""
    if not text:
        return None
    if text.isascii() and text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        if (tens and tens not in CN_DIGITS) or (ones and ones not in CN_DIGITS) or "十" in ones:
            return None
        return (CN_DIGITS[tens] if tens else 1) * 10 + (CN_DIGITS[ones] if ones else 0)
    value = 0
    for char in text:
        if char not in CN_DIGITS:
            return None
        value = value * 10 + CN_DIGITS[char]
    return value
