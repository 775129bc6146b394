"""Text segmentation shared by detectors, the ensemble, chunking and the inclusion list."""

from __future__ import annotations

import re
from typing import Iterable, Iterator

# Words for token-level voting: runs of letters/digits, keeping internal apostrophes and
# hyphens out (they separate tokens so "O'Neil-Smith" votes as 3 tokens).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

# A sentence ends at a line break, or at . ! ? followed by whitespace and an upper-case letter
# or digit. Abbreviations common in clinical text do not end a sentence.
_ABBREV = {
    "dr", "mr", "mrs", "ms", "mx", "prof", "st", "rd", "ave", "no", "vs", "e.g", "i.e", "approx",
    "dept", "jr", "sr", "mt", "ft", "pt", "pts", "hx", "dx", "tx", "rx", "fx", "sx", "etc",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
    "s", "t", "u", "v", "w", "x", "y", "z", "mg", "ml", "bd", "tds", "qds", "prn", "ref",
}
_END = re.compile(r"[.!?]+(?=\s+[\"'(\[]?[A-Z0-9])")


def words(text: str) -> list[tuple[int, int]]:
    """(start, end) of each word token."""
    return [m.span() for m in _WORD.finditer(text)]


def iter_lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line without its line terminator; handles \\n, \\r\\n and \\r."""
    pos = 0
    for m in re.finditer(r"\r\n|\r|\n", text):
        yield pos, m.start()
        pos = m.end()
    yield pos, len(text)


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, stripped of surrounding whitespace; empty ones dropped."""
    out: list[tuple[int, int]] = []
    for ls, le in iter_lines(text):
        line = text[ls:le]
        cut = 0
        for m in _END.finditer(line):
            before = line[cut : m.start()].rsplit(None, 1)
            last = before[-1].lower().rstrip(".") if before else ""
            if last in _ABBREV:
                continue
            out.append((ls + cut, ls + m.end()))
            cut = m.end()
        out.append((ls + cut, le))
    stripped = []
    for s, e in out:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            stripped.append((s, e))
    return stripped


def normalise_sentence(sentence: str) -> str:
    """The key used by the inclusion list and de-duplication: whitespace collapsed, case folded."""
    return " ".join(sentence.split()).casefold()


class LiteralIndex:
    """Where any of many literal strings stands in a text, found by reading the text's
    words once: each value is looked up where its first word stands (by that word, then by
    where the word starts in the value and the value's length: thousands of phone numbers
    share their first word "021", and few lengths). A search of the whole text per value
    takes the product of the two counts. Values without a word are never found."""

    def __init__(self, values: Iterable[str]) -> None:
        self._by_word: dict[str, dict[tuple[int, int], set[str]]] = {}
        for value in values:
            first = _WORD.search(value)
            if first is not None:
                self._by_word.setdefault(first.group(), {}).setdefault((first.start(), len(value)), set()).add(value)

    def __bool__(self) -> bool:
        return bool(self._by_word)

    def occurrences(self, text: str) -> Iterator[tuple[str, int]]:
        """(value, start) for each place a value stands in ``text`` with its first word on
        one of the text's words, left to right; what stands either side is the caller's."""
        for m in _WORD.finditer(text):
            for (offset, length), values in self._by_word.get(m.group(), {}).items():
                start = m.start() - offset
                if start >= 0 and (value := text[start : start + length]) in values:
                    yield value, start

