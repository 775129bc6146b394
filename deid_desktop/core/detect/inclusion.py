"""The inclusion list: sentences known to carry no PHI ("No known drug allergies.").

Rule detectors skip a sentence found here, which removes the false positives that boilerplate
with eponyms or capitalised headings would otherwise raise again in every document. Matching
is on the normalised sentence (whitespace collapsed, case folded, closing punctuation ignored).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator

from ..text import normalise_sentence, sentences
from .lexicons import default_inclusion_path, read_list


def _key(sentence: str) -> str:
    # "NKDA" and "NKDA." are the same sentence to a reader.
    return normalise_sentence(sentence).rstrip(" .!?;:")


class InclusionList:
    def __init__(self, sentences: Iterable[str] = ()) -> None:
        self._items: dict[str, str] = {}  # key -> the sentence as first written
        for s in sentences:
            self.add(s)

    @classmethod
    def load(cls, path: str | Path) -> "InclusionList":
        return cls(read_list(Path(path)))

    @classmethod
    def default(cls) -> "InclusionList":
        return cls.load(default_inclusion_path())

    def save(self, path: str | Path) -> None:
        """One sentence per line, written atomically so a crash never leaves half a list."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("".join(s + "\n" for s in sorted(self._items.values(), key=_key)), encoding="utf-8")
        os.replace(tmp, path)

    def add(self, sentence: str) -> bool:
        """Adds the sentence; False when it is empty or already listed."""
        key = _key(sentence)
        if not key or key in self._items:
            return False
        self._items[key] = " ".join(sentence.split())
        return True

    def contains(self, sentence: str) -> bool:
        return _key(sentence) in self._items

    __contains__ = contains

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[str]:
        return iter(self._items.values())

    def skipped_ranges(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each sentence of ``text`` that is on the list."""
        if not self._items:
            return []
        return [(s, e) for s, e in sentences(text) if _key(text[s:e]) in self._items]
