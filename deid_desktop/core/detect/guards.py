"""The clinical-term guard: eponyms and drug names are not PHI.

"Parkinson's disease", "Glasgow Coma Scale", "Foley catheter" and "Hodgkin lymphoma" contain
words that the name and place detectors rightly find elsewhere. A NAME, LOCATION or
ORGANIZATION span that lies inside an occurrence of a guarded term is dropped.

Quantities are not ages or dates either: a bare number labelled AGE or DATE is dropped when
a unit follows it ("15 pack-years", "82 kg", "20 units"), and a bare number labelled DATE
when a duration follows it ("diabetic for 12 years" is no date).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from ..categories import Category
from ..spans import Span
from .lexicons import guard_terms

GUARDED_CATEGORIES = frozenset({Category.NAME, Category.LOCATION, Category.ORGANIZATION})

# A lone eponym ("Foley", "Whipple") stays a name when a title stands before it: Dr Foley.
_TITLE_BEFORE = re.compile(r"\b(?:Dr|Doctor|Mr|Mrs|Ms|Miss|Mx|Prof|Professor|Nurse|Sister)\.?\s+$", re.I)
_WORD = re.compile(r"[^\W\d_][\w'’]*")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’]|['’])$")

# A measurement: a number and its unit, possibly compound and broken by a PDF line wrap
# ("2150 ng/L", "4.1 mmol/L", "90 mL/min/1.73m2", "12 x10^9/L"). Models trained on prose
# sometimes read a lone "ng" or "L" as an initial or a name.
_UNIT = r"(?:[munpµμ]?g|[muµμnp]?mol|[dmuµμ]?L|U|IU|mIU|mEq|units?|x10\^?\d+|10\^\d+|min|h|hr|d|kg|m2|1\.73m2|mmHg|%)"
_MEASURE = re.compile(rf"\d[\d.,]*\s*{_UNIT}(?:\s*/\s*{_UNIT})*(?![A-Za-z])")


# What may follow a bare number that is neither an age nor a date.
_PACK_YEARS = r"pack[\s\-]*(?:years?|yrs?)\b|py\b"
_AFTER_QUANTITY = re.compile(rf"\s*(?:{_PACK_YEARS}|(?:[munpµμ]?g|[muµμnp]?mol|[dmuµμ]?L|IU|mIU|mEq|units?|kg|cm|mm|mmHg|bpm|%)(?![A-Za-z]))", re.I)
_AFTER_DURATION = re.compile(r"\s*(?:years?|yrs?|months?|mths?|weeks?|wks?|days?|hours?|hrs?)\b(?![\s\-]*old)", re.I)
_BARE_NUMBER = re.compile(r"\d{1,3}(?:\.\d+)?")


def _is_quantity(text: str, span: Span) -> bool:
    """A bare number labelled AGE or DATE that is really an amount or a duration."""
    if span.category not in (Category.AGE, Category.DATE) or not _BARE_NUMBER.fullmatch(text[span.start : span.end]):
        return False
    if _AFTER_QUANTITY.match(text, span.end):
        return True
    return span.category == Category.DATE and _AFTER_DURATION.match(text, span.end) is not None


def _token_pattern(token: str, alone: bool) -> str:
    """Regex for one word of a term. Possessives and plurals are optional inside a phrase;
    a one-word term written with a possessive needs one ("Parkinson's", not "Parkinson")."""
    possessive = bool(_POSSESSIVE.search(token))
    base = _POSSESSIVE.sub("", token) if possessive else token
    base_re = re.escape(base)
    if alone and possessive:
        return base_re + (r"['’]s?" if base.lower().endswith("s") else r"(?:['’]s|s['’]?)")
    return base_re + r"(?:['’]s|s['’]|['’]|e?s)?"


def _strip_suffix(word: str) -> str:
    return _POSSESSIVE.sub("", word.casefold())


@lru_cache(maxsize=8)
def _compile(terms: tuple[str, ...]) -> tuple[dict[str, re.Pattern[str]], frozenset[str]]:
    """Phrase patterns grouped by their first word, so a check only tries the few terms that
    can start at each nearby word instead of one alternation of a thousand."""
    by_first: dict[str, list[str]] = {}
    bare: set[str] = set()
    for term in sorted(set(terms), key=len, reverse=True):
        tokens = [t for t in re.split(r"[\s\-]+", term.strip()) if t]
        if not tokens:
            continue
        if len(tokens) == 1 and not _POSSESSIVE.search(tokens[0]):
            bare.add(tokens[0].casefold())
            continue
        pattern = r"[\s\-]+".join(_token_pattern(t, len(tokens) == 1) for t in tokens)
        by_first.setdefault(_strip_suffix(tokens[0]), []).append(pattern)
    phrases = {k: re.compile(r"(?:" + "|".join(v) + r")(?!\w)", re.I) for k, v in by_first.items()}
    return phrases, frozenset(bare)


class ClinicalTermGuard:
    """Drops name / place / organisation spans that are part of a clinical term."""

    def __init__(self, terms: Iterable[str] | None = None) -> None:
        self.terms = tuple(guard_terms() if terms is None else terms)
        self._phrases, self._bare = _compile(self.terms)

    @classmethod
    def default(cls) -> "ClinicalTermGuard":
        return cls()

    def _is_bare_term(self, word: str) -> bool:
        w = _strip_suffix(word)
        return w in self._bare or (w.endswith("s") and w[:-1] in self._bare)

    @staticmethod
    @lru_cache(maxsize=4096)
    def _phrase_keys(word: str) -> tuple[str, ...]:
        w = _strip_suffix(word)
        return (w, w[:-1]) if w.endswith("s") else (w,)

    def covers(self, text: str, start: int, end: int) -> bool:
        """True when text[start:end] lies inside an occurrence of a guarded term, or inside
        the unit of a measurement."""
        for m in _MEASURE.finditer(text, max(0, start - 24), min(len(text), end + 24)):
            if m.start() <= start and end <= m.end() and not any(c.isdigit() for c in text[start:end]):
                return True
        for w in _WORD.finditer(text, max(0, start - 48)):
            if w.start() > start:
                break
            for key in self._phrase_keys(w.group()):
                rx = self._phrases.get(key)
                if rx is not None and (m := rx.match(text, w.start())) is not None and m.end() >= end:
                    return True
        words = _WORD.findall(text, start, end)
        if words and all(self._is_bare_term(w) for w in words):
            return not _TITLE_BEFORE.search(text[max(0, start - 20) : start])
        return False

    def filter(self, text: str, spans: Iterable[Span]) -> list[Span]:
        return [
            s for s in spans
            if not _is_quantity(text, s)
            and (s.category not in GUARDED_CATEGORIES or not self.covers(text, s.start, s.end))
        ]
