"""Document-level consistency: what was found once is found everywhere in the document.

A note names the patient in full once ("Wszebor Kowalczyk") and then by first name only
("Wszebor settled overnight"); a model that has never seen the name finds it in the full
form, where the layout says "patient name", and misses the bare repeats. After the vote,
every other whole-word occurrence of a found name's parts, and of a found organisation's or
place's whole text, is marked with the same category; so is every other occurrence of a
found identifier, contact detail or date (the same literal, five characters or more) and of
a profession of two words or more.

What a note writes in brackets right after a found name is read too: the person's initials
or a short form of their name ("Salamasina Lemalu-Anderson RN (SLA)", "Jasmeet Bhullar
(Jas)") become names, found again wherever else they stand, and an age given with a relation
or alone ("Androulla (wife, 76)", "Nikolino (2)") becomes an age.

Caution where a name is also an ordinary word: parts that are common English words ("Will",
"Grace", "Brown") or words that open headings and fields are matched only with the same
capitals and not at the start of a sentence or line; guarded clinical terms are never
propagated, and a name found only in lower case ("slough" in a wound chart read as a name) is
repeated only where it is a listed name and no ordinary word ("son padraig" ... "(padraig)"). Spans added here carry the source ``propagation``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Iterable, Iterator

from ..categories import Category
from ..spans import Span, sort_spans
from ..text import LiteralIndex
from .lexicons import encoder_words, first_names, name_words, not_names, surnames

SOURCE = "propagation"
_WORD = re.compile(r"[^\W_]+")  # letters and digits: the words values are looked up by
_NAME_PART = re.compile(r"[^\W\d_][\w'’\-]*[^\W\d_]|[^\W\d_]{2,}")
_MIN_PART = 3  # letters; initials and two-letter parts are too ambiguous to spread
_MIN_WHOLE = 4  # characters of an organisation or place repeated as a whole
# Identifiers, contact details and dates repeated as the same literal (5+ characters, with a
# digit or an @): "8/13" or "2/5" are too short to be sure of.
_LITERAL = (Category.ID, Category.CONTACT, Category.DATE)
_MIN_LITERAL = 5
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]\s*|\n\s*[-*•]\s*)$")
# A lower-case verb ending in -s or -ed right after a word, and not a word that such endings
# make ordinary ("Brown stained fluid", "Grace periods"): as in "Ivy says", "Ivy scored".
_PERSONS_VERB_AFTER = re.compile(
    r"[ \t]+(?!(?:stained|spotted|colored|coloured|tinged|based|shaped|sized|related|linked|was|has|is)\b)"
    r"(?:says|said|reports|reported|states|stated|agreed|agrees|denies|denied|scored|asked|asks|wants|wanted"
    r"|feels|felt|lives|lived|walked|walks|milked|worked|works|told|tells|rang|called|declined|declines|prefers"
    r"|preferred|remains|remained|understands|understood|confirmed|confirms|attended|attends)\b"
)
_TITLES = frozenset(
    "dr doctor mr mrs ms miss mx prof professor nurse sister rn rm the and of de da van von der den la le".split()
)


# After a name: at most one role or post-nominal, then a bracket.
_AFTER_NAME = re.compile(r"(?:[ \t]+[A-Z][A-Za-z]{0,4}\.?)?[ \t]*\([ \t]*([^()\n]{1,40}?)[ \t]*\)")
_RELATIONS = (
    "wife|husband|partner|spouse|son|daughter|mother|father|mum|mom|dad|brother|sister|sibling|"
    "grandson|granddaughter|grandchild|grandmother|grandfather|grandma|grandpa|nan|nana|koro|kuia|"
    "great-grandson|great-granddaughter|niece|nephew|aunt|auntie|uncle|cousin|stepson|stepdaughter|"
    "stepmother|stepfather|child|baby|twin|fiancée|fiance|fiancé|carer|friend|neighbour|neighbor"
)
# The word for a relative right before a name ("dtr kadiatou", "son: tevita"): a lower-case
# name the vote found there is a person's, found again wherever it stands.
_RELATION_BEFORE = re.compile(
    rf"(?<![\w-])(?i:{_RELATIONS}|dtr|dau|bro|sis|nok|whanau|whānau|caregiver|guardian|flatmate)[ \t]*[,:]?[ \t]*$"
)
_AGE_IN_BRACKETS = re.compile(
    rf"(?:(?:{_RELATIONS})[ \t]*,[ \t]*)?(?:aged?[ \t]+)?(\d{{1,3}})(?:[ \t]*(?:y|yo|y/o|yrs?|years?(?:[ \t]+old)?)\.?)?(?:[ \t]*[,;].*)?",
    re.IGNORECASE,
)


class _Occupied:
    """The stretches of text already covered by a span: is [a, b) free? (bisect, so a long
    document with thousands of spans is not checked pair by pair)."""

    def __init__(self, spans: Iterable[Span]) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        for s in sorted(spans, key=lambda s: s.start):
            if self._ends and s.start < self._ends[-1]:
                self._ends[-1] = max(self._ends[-1], s.end)  # overlapping spans: one stretch
            else:
                self._starts.append(s.start)
                self._ends.append(s.end)

    def free(self, a: int, b: int) -> bool:
        i = bisect_right(self._starts, a)
        if i and self._ends[i - 1] > a:
            return False
        return i == len(self._starts) or self._starts[i] >= b

    def add(self, a: int, b: int) -> None:
        i = bisect_right(self._starts, a)
        self._starts.insert(i, a)
        self._ends.insert(i, b)


def _initials(name: str) -> str:
    return "".join(w[0] for w in re.split(r"[\s\-]+", name) if w and w[0].isalpha()).upper()


def _parts(name: str) -> list[str]:
    out = []
    for m in _NAME_PART.finditer(name):
        part = m.group().strip("'’-")
        if len(part) >= _MIN_PART and part.casefold() not in _TITLES:
            out.append(part)
    return out


class Propagator:
    def __init__(self, guard=None) -> None:
        self.guard = guard
        self._common = name_words() | not_names()

    def _exact_only(self, part: str) -> bool:
        """Whether a part is found in its own case only (a common word: "Will", "Rose")."""
        return part.casefold() in self._common

    def _beside_names(self, text: str, spans: list[Span]) -> tuple[list[Span], dict[str, Span]]:
        """Initials, short forms and ages in brackets right after found names: (new spans,
        alias text -> the name span it belongs to)."""
        taken = _Occupied(spans)
        added: list[Span] = []
        aliases: dict[str, Span] = {}
        for s in spans:
            if s.category != Category.NAME:
                continue
            m = _AFTER_NAME.match(text, s.end)
            if m is None:
                continue
            a, b = m.span(1)
            if not taken.free(a, b):
                continue
            inner, name = m.group(1), text[s.start : s.end]
            age = _AGE_IN_BRACKETS.fullmatch(inner)
            if age is not None and int(age.group(1)) <= 120:
                added.append(Span(a + age.start(1), a + age.end(1), Category.AGE, score=s.score, source=SOURCE, members=(SOURCE,)))
                # two name spans in a row ("jaehyun Kwon (27)") both reach this bracket:
                # the first claims it, or the age came out twice and the export refused
                # the overlapping spans
                taken.add(a, b)
                continue
            is_initials = inner.isalpha() and inner.isupper() and len(inner) >= 2 and inner == _initials(name)
            is_short = inner.isalpha() and len(inner) >= 3 and any(
                p.casefold().startswith(inner.casefold()) and len(p) > len(inner) for p in _parts(name)
            )
            if is_initials or is_short:
                added.append(Span(a, b, Category.NAME, s.fine, score=s.score, source=SOURCE, members=(SOURCE,)))
                aliases.setdefault(inner, s)
                taken.add(a, b)
        return added, aliases

    def _no_word(self, part: str) -> bool:
        """Neither an ordinary word of ours nor a word of the encoder's vocabulary ("kadiatou";
        not "bed", "park")."""
        key = part.casefold()
        vocab = encoder_words()
        return bool(vocab) and key not in self._common and key not in vocab

    def _listed_name(self, part: str) -> bool:
        """A listed first name or surname that is no word of the encoder's vocabulary nor an
        ordinary word of ours ("padraig", "tamati"; not "rice", "grace")."""
        key = part.casefold()
        vocab = encoder_words()
        return bool(vocab) and (key in first_names() or key in surnames()) and key not in self._common and key not in vocab

    def propagate(self, text: str, spans: Iterable[Span]) -> list[Span]:
        spans = list(spans)
        found: dict[tuple[str, bool], Span] = {}  # (text, whole) -> the span it came from
        literals: dict[str, Span] = {}  # exact text -> the span it came from
        for s in spans:
            value = text[s.start : s.end]
            if s.category == Category.NAME:
                if value.islower():
                    # a lower-case "name" is the vote's weakest kind; repeated only where it is
                    # a listed name and no ordinary word ("son padraig" ... "informed (padraig)"),
                    # or no ordinary word found right after the word for a relative ("d/w dtr
                    # kadiatou" ... "dtr kadiatou visited": the second went out as written)
                    relative = _RELATION_BEFORE.search(text, max(0, s.start - 24), s.start) is not None
                    for part in _parts(value):
                        if len(part) >= 4 and (self._listed_name(part) or (relative and self._no_word(part))):
                            found.setdefault((part, False), s)
                    continue
                for part in _parts(value):
                    found.setdefault((part, False), s)
            elif s.category in (Category.ORGANIZATION, Category.LOCATION) and len(value.strip()) >= _MIN_WHOLE:
                if not any(c.isdigit() for c in value):  # street numbers and postcodes stay where they are
                    found.setdefault((value.strip(), True), s)
                    # and in capitals, as a log or a heading shouts it ("Harold" ... "HAROLD VERY
                    # ANXIOUS"), unless it is an ordinary word ("North" and "NORTH")
                    caps = value.strip().upper()
                    if caps != value.strip() and not self._exact_only(value.strip()):
                        found.setdefault((caps, True), s)
            elif s.category in _LITERAL and len(value.strip()) >= _MIN_LITERAL and any(c.isdigit() or c == "@" for c in value):
                # the same record number, phone, e-mail or date written again (a page
                # header repeated on every page, without the label that found it first)
                literals.setdefault(value.strip(), s)
            elif s.category == Category.PROFESSION and _spreads_as_job(value):
                literals.setdefault(value.strip(), s)  # "civil engineer", "glazier"; not "nurse"
        spans = self._spread(text, spans, found)
        spans = self._spread_literals(text, spans, literals)
        # then what stands in brackets beside every name, found or spread, and the aliases'
        # other occurrences (exact case: "SLA" but not "sla")
        beside, aliases = self._beside_names(text, spans)
        if beside:
            spans = self._spread(text, sort_spans(spans + beside), {(a, True): origin for a, origin in aliases.items()})
        return spans

    def _spread(self, text: str, spans: list[Span], found: dict[tuple[str, bool], Span]) -> list[Span]:
        if not found:
            return spans
        taken = _Occupied(spans)
        added: list[Span] = []
        words = _WordStarts(text)
        for (value, whole), origin in found.items():
            exact_only = True if whole else self._exact_only(value)
            for a, b in words.matches(value, exact_only, whole):
                if exact_only and not whole and _SENTENCE_START.search(text[max(0, a - 4) : a]):
                    # "Will you …" at a sentence start is not the patient Will; but a name the
                    # note gave in full, opening a sentence with a verb in the past or the third
                    # person after it, is the person ("Ivy says her ankles ...", "Ivy agreed")
                    if origin.category != Category.NAME or not _PERSONS_VERB_AFTER.match(text, b):
                        continue
                self._add(text, origin, a, b, taken, added)
        return sort_spans(spans + added) if added else spans

    def _spread_literals(self, text: str, spans: list[Span], literals: dict[str, Span]) -> list[Span]:
        """Every other whole occurrence of each literal (``text.LiteralIndex``: a text holds
        thousands of numbers and dates, and a search of the whole text per value took the
        product of the two)."""
        index = LiteralIndex(literals)
        if not index:
            return spans
        taken = _Occupied(spans)
        added: list[Span] = []
        for value, a in index.occurrences(text):
            if _bounded(text, a, a + len(value), True, False):
                self._add(text, literals[value], a, a + len(value), taken, added)
        return sort_spans(spans + added) if added else spans

    def _add(self, text: str, origin: Span, a: int, b: int, taken: "_Occupied", added: list[Span]) -> None:
        """``origin``'s category at [a, b), where nothing is yet and the guard allows it."""
        if not taken.free(a, b):
            return
        new = Span(a, b, origin.category, origin.fine, score=origin.score, source=SOURCE, members=(SOURCE,))
        if self.guard is not None and not self.guard.filter(text, [new]):
            return
        added.append(new)
        taken.add(a, b)


# One-word jobs a note names for its staff as often as for the patient: found once as the
# patient's job, they are not marked wherever else they stand.
_CARE_ROLES = frozenset(
    """nurse nurses doctor doctors gp physician surgeon registrar consultant specialist practitioner therapist midwife
    pharmacist physio physiotherapist paramedic carer carers caregiver receptionist clinician dietitian dietician
    radiographer psychologist psychiatrist counsellor counselor student students staff worker workers officer
    manager volunteer""".split()
)
_SPECIALIST = re.compile(r"[a-z]+(?:ologist|ician|iatrist|ographer|apist|ometrist)s?")


def _spreads_as_job(value: str) -> bool:
    """A profession found once is marked wherever else it stands when it has two words or
    more, or is one word (4+ letters) that is no care role."""
    words = value.split()
    if len(words) >= 2:
        return True
    w = value.strip().casefold()
    return len(w) >= 4 and w not in _CARE_ROLES and not _SPECIALIST.fullmatch(w)


# Each letter as a case-insensitive regular expression compares it: its lower case (the
# simple mapping, so "İ" is "i"), then one letter for each group that re's IGNORECASE holds
# equal beyond that ("ſ" and "s", "ı" and "i", "ς" and "σ"...).
def _extra_case_table() -> dict[int, str]:
    from re import _casefix  # the table re itself compiles IGNORECASE patterns with

    table: dict[int, str] = {}
    for c, others in _casefix._EXTRA_CASES.items():
        table[c] = chr(min(c, *others))
    return table


_EXTRA_CASES = _extra_case_table()


def _fold(word: str) -> str:
    """A key equal for any two words that ``re.IGNORECASE`` finds equal (it may also be
    equal for a few that are not: every candidate is checked with the expression itself)."""
    if word.isascii():
        return word.lower()
    out = []
    for ch in word:
        low = ch.lower()
        low = low[0] if len(low) > 1 else low
        out.append(_EXTRA_CASES.get(ord(low), low))
    return "".join(out)


class _WordStarts:
    """Where a found value stands alone in a text, from one reading of the text's words:
    a value is looked for only where its first word stands as a whole word of the text
    (exactly, or by ``_fold`` for a value found in any case), and checked there. A bounded
    occurrence always starts its first word on a whole word of the text, so nothing is
    missed; a search of the whole text per value took the product of names and length (a
    1 MB note of one line with a degree sign in it: minutes)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._exact: dict[str, list[int]] | None = None
        self._folded: dict[str, list[int]] | None = None

    def _exact_starts(self) -> dict[str, list[int]]:
        """Each word of the text and where it starts, read on first use."""
        if self._exact is None:
            self._exact = {}
            for m in _WORD.finditer(self.text):
                self._exact.setdefault(m.group(), []).append(m.start())
        return self._exact

    def _folded_starts(self) -> dict[str, list[int]]:
        """The same by ``_fold`` key (words that differ only in case together), in order."""
        if self._folded is None:
            self._folded = {}
            for word, starts in self._exact_starts().items():
                self._folded.setdefault(_fold(word), []).extend(starts)
            for starts in self._folded.values():
                starts.sort()
        return self._folded

    def matches(self, value: str, exact_case: bool, whole: bool) -> Iterator[tuple[int, int]]:
        """Where ``value`` stands alone ((start, end) pairs, left to right, none
        overlapping); the same as ``_matches``, which reads the whole text per value."""
        first = _WORD.search(value)
        if first is None:
            yield from _matches(value, exact_case, whole, self.text)
            return
        text, offset = self.text, first.start()
        if exact_case:
            starts = self._exact_starts().get(first.group(), ())
            literal = None
        else:
            starts = self._folded_starts().get(_fold(first.group()), ())
            literal = re.compile(re.escape(value), re.IGNORECASE) if starts else None
        pos = 0
        for w in starts:
            i = w - offset
            if i < pos:
                continue
            if literal is None:
                if not text.startswith(value, i):
                    continue
                j = i + len(value)
            else:
                m = literal.match(text, i)
                if m is None:
                    continue
                j = m.end()
            if _bounded(text, i, j, whole, not exact_case):
                yield i, j
                pos = j


def _word(ch: str) -> bool:
    """What ``\\w`` matches in a ``str`` pattern."""
    return ch.isalnum() or ch == "_"


def _bounded(text: str, a: int, b: int, whole: bool, ignore_case: bool) -> bool:
    """Whether the occurrence at [a, b) stands alone. A whole value: no word character on
    either side. A part of a name: no word character, apostrophe or hyphen before it, and
    after it no word character or hyphen, nor an apostrophe followed by a letter other than
    the possessive s ("O'Brien" is not "O", "Ngata's" is "Ngata")."""
    before = text[a - 1] if a > 0 else ""
    after = text[b] if b < len(text) else ""
    if whole:
        return not (before and _word(before)) and not (after and _word(after))
    if before and (_word(before) or before in "'’-"):
        return False
    if after and (_word(after) or after == "-"):
        return False
    if after in ("'", "’") and b + 1 < len(text):
        nxt = text[b + 1]
        possessive = nxt in ("s", "S") if ignore_case else nxt == "s"
        if _word(nxt) and nxt != "_" and not possessive:
            return False
    return True


def _matches(value: str, exact_case: bool, whole: bool, text: str) -> Iterator[tuple[int, int]]:
    """Where ``value`` stands alone in ``text`` ((start, end) pairs, left to right, none
    overlapping), by searching the whole text: the reference for ``_WordStarts.matches``,
    and what a value without a letter or digit is looked for with."""
    ignore_case = not exact_case
    if exact_case:
        find = lambda pos: text.find(value, pos)  # noqa: E731
        size = lambda i: len(value)  # noqa: E731
    else:  # case folding may change lengths outside ASCII: let the regular expression say
        literal = re.compile(re.escape(value), re.IGNORECASE)
        found: dict[int, int] = {}

        def find(pos: int) -> int:
            m = literal.search(text, pos)
            if m is None:
                return -1
            found[m.start()] = m.end() - m.start()
            return m.start()

        size = lambda i: found[i]  # noqa: E731

    pos = 0
    while True:
        i = find(pos)
        if i < 0:
            return
        j = i + size(i)
        if not _bounded(text, i, j, whole, ignore_case):
            pos = i + 1
            continue
        yield i, j
        pos = j