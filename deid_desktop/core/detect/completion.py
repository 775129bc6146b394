"""After the vote, an identifier or a name is never left in pieces.

Word tokens split at hyphens, so a model that marks the digits of "KHC-0441972" or the first
half of "Papadopoulos-Reid" leaves the rest of the value in the export, where it still
identifies the patient. Measured on the development notes, most partial finds were of this
kind: record numbers with a letter prefix (``CR-23-004417``, ``SEH-23-0612``) and
double-barrelled surnames. A span of these categories is widened to the whole hyphen- or
slash-joined token it lies in, and a phone number that has its closing bracket gets the
opening one. A job cut before its last word ("packhouse forklift" of "packhouse forklift
driver") gets that word. An organisation or a place followed at once by the capitalised words
that end an organisation's name gets them ("Pelletier Aquatic" + "Center", "Nelson" +
"Medical Centre"): the name is one organisation, and the word left out was counted as a miss.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..categories import Category
from ..spans import Span, sort_spans
from .guards import DATE_THEN_TIME, job_end

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


# Words that end an organisation's name ("... Center", "... Medical Centre", "... Trust"), and
# words that may stand between the name and that ending ("Medical", "Health", "Community").
_ORG_HEADS = frozenset(
    """
    center centre hospital hospitals clinic clinics practice pharmacy chemist chemists surgery school college
    academy university trust church infirmary hospice institute foundation society group services laboratory
    laboratories imaging radiology pathology board council club library museum network partners associates
    authority ministry agency corporation ltd limited inc llc pty plc
    """.split()
)
_ORG_LINKS = frozenset(
    """
    medical health healthcare community dental eye heart cancer family general district regional memorial
    children's women's maternity mental care specialist surgical private public rehabilitation aquatic
    sports leisure day primary secondary high grammar middle elementary junior senior
    """.split()
)
_NEXT_WORD = re.compile(r"[ \t]([A-Z][\w'’]*)")


def _org_end(text: str, end: int) -> int | None:
    """Where an organisation's name ends when the capitalised words after ``end`` are its
    ending: link words, then a head word ("Medical Centre", "Center"); None if they are not."""
    pos, found = end, None
    for _ in range(4):
        m = _NEXT_WORD.match(text, pos)
        if m is None:
            break
        word = m.group(1).casefold()
        if word in _ORG_HEADS:
            found = pos = m.end()
            continue
        if word not in _ORG_LINKS:
            break
        pos = m.end()
    return found


# Initials between two pieces of one organisation's name ("Cherokee Nation W" + ".W. " +
# "Hastings Hospital", where a model stopped at a letter and the rest was left in the export).
_INITIALS_GAP = re.compile(r"\.?[ \t]?(?:[A-Z]\.[ \t]?){1,3}")
_PLACES = (Category.ORGANIZATION, Category.LOCATION)


def _widen_organisations(text: str, ordered: list[Span]) -> list[Span]:
    """An organisation or a place followed by an organisation's ending is one organisation
    with it; a neighbour of either kind right before it (one space, or initials) joins it.
    Two pieces of one organisation's name with only initials between them are one."""
    out: list[Span] = []
    for i, s in enumerate(ordered):
        if s.category in _PLACES:
            end = _org_end(text, s.end)
            nxt = ordered[i + 1] if i + 1 < len(ordered) else None
            if end is not None and (nxt is None or end <= nxt.start):
                s = _as_organisation(s, end=end)
            prev = out[-1] if out else None
            if prev is not None and prev.category in _PLACES and Category.ORGANIZATION in (prev.category, s.category):
                gap = text[prev.end : s.start]
                if (gap == " " and s.category is Category.ORGANIZATION and end is not None) or _INITIALS_GAP.fullmatch(gap):
                    out[-1] = _as_organisation(prev, end=s.end, score=max(prev.score, s.score))
                    continue
        out.append(s)
    return out


def _as_organisation(s: Span, **changes) -> Span:
    fine = s.fine if s.category is Category.ORGANIZATION else "OTHER"  # a place's CITY is no organisation's kind
    return s.with_(category=Category.ORGANIZATION, fine=fine, **changes)


def _is_identifier_token(value: str) -> bool:
    """A joined token worth taking whole as an identifier: letters and digits together
    ("KHC-0441972"); two numbers joined ("152/88", "35-40") are a pressure or a range."""
    return any(c.isalpha() for c in value) and any(c.isdigit() for c in value)


# A greeting a model took into the name it opens ("Hi Leighton,"): the surrogate would replace it too.
_GREETING = re.compile(r"(?i:hi|hey|hello|dear|thanks|cheers|morning|good[ \t]+morning|kia[ \t]+ora|g'day|attn)[ \t,]+(?=[A-Z])")


def _without_greeting(text: str, s: Span) -> Span:
    m = _GREETING.match(text, s.start, s.end)
    return s.with_(start=m.end()) if m and m.end() < s.end else s


def _without_time(text: str, s: Span) -> Span:
    """A date found with the clock time after it ("12/02/25 1040") keeps the date alone: a
    time identifies no one, and its surrogate would be a second date."""
    m = DATE_THEN_TIME.fullmatch(text, s.start, s.end)
    return s.with_(end=m.end("date")) if m else s


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
        if s.category is Category.DATE:
            s = _without_time(text, s)
        if s.category not in COMPLETED:
            out.append(s)
            continue
        if s.category is Category.NAME:
            s = _without_greeting(text, s)
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
    return _merge_same(_widen_organisations(text, sort_spans(out)))


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
