"""Keep the look of the original: its letter case and whether it uses accents."""

from __future__ import annotations

from .keys import ascii_fold


def case_pattern(text: str) -> str:
    """"upper", "lower", "title" or "mixed". One capital letter alone reads as "title"."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "mixed"
    if all(c.islower() for c in letters):
        return "lower"
    if all(c.isupper() for c in letters):
        return "upper" if len(letters) > 1 else "title"
    words = [w for w in text.split() if any(c.isalpha() for c in w)]
    if all(_title_word(w) for w in words):
        return "title"
    return "mixed"


def _title_word(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return letters[0].isupper() and all(c.islower() for c in letters[1:])


def apply_case(pattern: str, value: str) -> str:
    """Upper and lower case are copied; title and mixed case keep the value's own spelling,
    which is already right for names such as "McDonald" or "O'Brien"."""
    if pattern == "upper":
        return value.upper()
    if pattern == "lower":
        return value.lower()
    return value


def match_style(original: str, value: str) -> str:
    """Case pattern of ``original``, and no accents if the original has none."""
    if original.isascii():
        value = ascii_fold(value)
    return apply_case(case_pattern(original), value)
