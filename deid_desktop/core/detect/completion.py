"""After the vote, an identifier or a name is never left in pieces.

Word tokens split at hyphens, so a model that marks the digits of "KHC-0441972" or the first
half of "Papadopoulos-Reid" leaves the rest of the value in the export, where it still
identifies the patient. Measured on the development notes, most partial finds were of this
kind: record numbers with a letter prefix (``CR-23-004417``, ``SEH-23-0612``) and
double-barrelled surnames. A span of these categories is widened to the whole hyphen- or
slash-joined token it lies in, and a phone number that has its closing bracket gets the
opening one. A job cut before its last word ("packhouse forklift" of "packhouse forklift
driver") gets that word.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..categories import Category
from ..spans import Span, sort_spans
from .guards import job_end

# What may join the parts of one value without a space.
_JOINER = "-/"
_PART = re.compile(r"[^\W_]+", re.UNICODE)

# The categories whose values are single tokens or names that must leave whole.
COMPLETED = frozenset({Category.ID, Category.NAME, Category.CONTACT})


def _widen_end(text: str, end: int, category: Category) -> int:
    while end + 1 < len(text) and text[end] in _JOINER:
        m = _PART.match(text, end + 1)
        if m is None or not _continues(m.group(), category):
            break
        end = m.end()
    return end


def _widen_start(text: str, start: int, category: Category) -> int:
    while start >= 2 and text[start - 1] in _JOINER:
        j = start - 1
        i = j
        while i > 0 and (text[i - 1].isalnum()):
            i -= 1
        if i == j or not _continues(text[i:j], category):
            break
        start = i
    return start


def _continues(part: str, category: Category) -> bool:
    """Whether a joined part belongs to the value: for a name, another capitalised name part
    ("-Reid", not "-year-old" or "-based"); for an identifier or a contact, letters or digits
    of an identifier's shape (upper case or digits, not a lower-case word like "-related")."""
    if category is Category.NAME:
        return part[:1].isupper() and (len(part) == 1 or not part.isupper() or len(part) <= 4)
    return any(c.isdigit() for c in part) or part.isupper()


def _is_identifier_token(value: str) -> bool:
    """A joined token worth taking whole as an identifier: letters and digits together
    ("KHC-0441972"); two numbers joined ("152/88", "35-40") are a pressure or a range."""
    return any(c.isalpha() for c in value) and any(c.isdigit() for c in value)


def complete(text: str, spans: Iterable[Span]) -> list[Span]:
    """``spans`` with every ID, NAME and CONTACT span widened to its whole joined token, unless
    the widening would reach into a span of another category."""
    ordered = sort_spans(spans)
    out: list[Span] = []
    for i, s in enumerate(ordered):
        if s.category is Category.PROFESSION:
            end = job_end(text, s)
            nxt = ordered[i + 1] if i + 1 < len(ordered) else None
            if end is not None and end > s.end and (nxt is None or end <= nxt.start or nxt.category is s.category):
                s = s.with_(end=end)
            out.append(s)
            continue
        if s.category not in COMPLETED:
            out.append(s)
            continue
        start = _widen_start(text, s.start, s.category)
        end = _widen_end(text, s.end, s.category)
        if s.category is Category.ID and (start, end) != (s.start, s.end) and not _is_identifier_token(text[start:end]):
            start, end = s.start, s.end
        if s.category is Category.CONTACT and start > 0 and text[start - 1] == "(" and ")" in text[start:end] and "(" not in text[start:end]:
            start -= 1
        prev = ordered[i - 1] if i > 0 else None
        nxt = ordered[i + 1] if i + 1 < len(ordered) else None
        if prev is not None and prev.category is not s.category and start < prev.end:
            start = s.start
        if nxt is not None and nxt.category is not s.category and end > nxt.start:
            end = s.end
        out.append(s if (start, end) == (s.start, s.end) else s.with_(start=start, end=end))
    return _merge_same(sort_spans(out))


def _merge_same(spans: list[Span]) -> list[Span]:
    """Widening may make two spans of one category touch or overlap: keep them as one."""
    merged: list[Span] = []
    for s in spans:
        if merged and merged[-1].category is s.category and s.start <= merged[-1].end:
            last = merged[-1]
            if s.end > last.end:
                merged[-1] = last.with_(end=s.end, score=max(last.score, s.score))
            continue
        merged.append(s)
    return merged
