"""Cities, towns, states and countries from the dictionaries, taken where the sentence says
it is a place: "lives in Hamilton", "from Samoa", "Boston, MA", "Town: Gore".

Where the sentence says where a person lives or comes from ("lives in", "born in", "grew up
in", "moved to") the capitalised words after it are a place whether or not a list has it:
most towns are in none. Such a span is validated, since the wording proves it and the models
often miss a town they never saw."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from ..lexicons import encoder_words, first_names, name_words, not_names, places, surnames
from .common import LO, UP, RuleDetector, before, keep_longest
from .postcodes import STATE_ABBR

_PLACE_WORD = rf"[{UP}][{LO}'’]*(?:-[{UP}]?[{LO}'’]+)*(?![{UP}{LO}\d])"
_CAP_RUN = re.compile(rf"(?<![\w'’-]){_PLACE_WORD}(?:[ \t]+(?:of[ \t]+)?{_PLACE_WORD}){{0,3}}")
_PREPOSITION = re.compile(
    r"\b(?:in|from|to|at|near|of|via|lives|living|resides|residing|born|moved|moving|visiting|visited|returned"
    r"|travelled|traveled|travelling|traveling|based|emigrated|immigrated|relocated|holiday|holidaying|arrived)"
    r"(?:[ \t]+(?:in|to|from|at|near))?[ \t]+$"
)
_LABEL = re.compile(
    r"\b(?:city|town|suburb|state|region|province|county|country|place of birth|birthplace|country of birth"
    r"|location|residence|address|nationality)[ \t]*[:\-][ \t]*$"
)
# Words that say where a person lives or comes from ("staying in papatoetoe", "a flat in
# Felling"); what follows is a place. Not "lives at":
# what follows that is as often a rest home or a farm as a town.
_RESIDENCE_WORDS = (
    r"\b(?:lives|living|live|resides|residing|reside|born|grew[ \t]+up|raised|brought[ \t]+up|originally"
    r"|emigrated|immigrated|relocated|moved(?:[ \t]+(?:back|here|over|up|down|out))?"
    r"|staying|stays|flat|house|apartment)"
    r"(?:[ \t]+(?:in|to|from|near))?[ \t]+(?:in|to|from|near)[ \t\n]+"
)
_RESIDENCE = re.compile(_RESIDENCE_WORDS + "$", re.I)
_RESIDENCE_THEN = re.compile(_RESIDENCE_WORDS, re.I)
# Words in the capitalised run after "moved to" that make it a ward or a service, not a town.
_FACILITY = frozenset(
    """
    ward unit rehab rehabilitation hospital clinic centre center home house village care respite hospice
    icu hdu ccu theatre theatres recovery room bed level floor department dept service services housing
    facility residence accommodation lodge court school university college prison gaol jail shelter hostel
    emergency ed medical surgical general private public the a an his her their
    dr mr mrs ms miss mx prof sr nurse manor villa villas retirement rest nursing
    """.split()
)
_MONTHS_DAYS = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday christmas easter".split()
)
# One to three lower-case words (te reo Māori vowels too) after a word of residence.
_LOWER_RUN = re.compile(r"(?<![\w'’-])[a-zā-ū][a-zā-ū'’-]*(?:[ \t]+[a-zā-ū][a-zā-ū'’-]*){0,2}")
_STATE_AFTER = re.compile(rf",[ \t]*(?P<abbr>{STATE_ABBR})\b")
_FINE = {"city": "CITY", "state": "STATE", "country": "COUNTRY", "state_abbr": "STATE"}


@register("place")
class PlaceDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        known, stop, common = places(), not_names(), name_words()
        found: list[Span] = []
        for m in _CAP_RUN.finditer(text):
            if m.group().isupper():
                continue
            words = list(re.finditer(_PLACE_WORD, m.group()))
            # Longest known place inside the run, leftmost first.
            for size in range(len(words), 0, -1):
                hit = None
                for i in range(len(words) - size + 1):
                    start = m.start() + words[i].start()
                    end = m.start() + words[i + size - 1].end()
                    kind = known.get(text[start:end].casefold())
                    if kind and kind != "state_abbr":
                        hit = (start, end, kind)
                        break
                if hit:
                    break
            if not hit:
                continue
            start, end, kind = hit
            key = text[start:end].casefold()
            if " " not in key and key in stop:
                continue
            ctx = before(text, start, 40)
            state = _STATE_AFTER.match(text, end)
            if _LABEL.search(ctx) or (state and kind == "city"):
                score = 0.9
            elif _PREPOSITION.search(ctx):
                score = 0.8
            elif kind == "country" and key not in common and not _personal(key):
                score = 0.7  # "Samoa" needs no context; "Jordan", "Chad", "Ireland" (also names) do
            else:
                continue
            if _personal(key) or key in common:
                score -= 0.2
            found.append(self.span(start, end, Category.LOCATION, _FINE[kind], score))
            if state and kind == "city":
                found.append(self.span(state.start("abbr"), state.end("abbr"), Category.LOCATION, "STATE", 0.9))
        found.extend(self._residence(text))
        found.extend(self._residence_in_lower_case(text))
        return keep_longest(found)

    def _residence_in_lower_case(self, text: str) -> list[Span]:
        """A town in lower case after "lives in", as quick notes and messages write one ("lives
        in otara with aunty"): each word a listed place, or no word of the encoder's vocabulary
        nor of the name lists' common words ("lives in a flat", "lives in supported housing"
        are none). Without the vocabulary (a rules-only install) none is taken."""
        vocab = encoder_words()
        if not vocab:
            return []
        known, stop = places(), not_names() | name_words()
        out: list[Span] = []
        for r in _RESIDENCE_THEN.finditer(text):
            m = _LOWER_RUN.match(text, r.end())
            if m is None:
                continue
            end = m.start()
            for w in re.finditer(r"[a-zā-ū'’-]+", m.group()):
                key = w.group().casefold()
                if len(key) < 3 or key in _FACILITY or key in _MONTHS_DAYS:
                    break
                if known.get(key) in ("city", "state", "country") or (key not in vocab and key not in stop):
                    end = m.start() + w.end()
                    continue
                break
            if end > m.start():
                out.append(self.span(m.start(), end, Category.LOCATION, "CITY", 0.8, validated=True))
        return out

    def _residence(self, text: str) -> list[Span]:
        """Capitalised words after "lives in", "born in", "moved to": a place, listed or not,
        and the one after it following a comma ("born in Tarn, Occitanie")."""
        out: list[Span] = []
        stop = not_names() | name_words()
        for m in _CAP_RUN.finditer(text):
            ctx = text[max(0, m.start() - 40) : m.start()]
            if not _RESIDENCE.search(ctx) or not _plausible_place(m.group(), stop):
                continue
            fine = _FINE.get(places().get(m.group().casefold(), "city"), "CITY")
            out.append(self.span(m.start(), m.end(), Category.LOCATION, fine, 0.85, validated=True))
            tail = re.compile(rf",[ \t]*({_CAP_RUN.pattern})").match(text, m.end())
            if tail and _plausible_place(tail[1], stop):
                kind = places().get(tail[1].casefold(), "state")
                fine = _FINE.get(kind, "STATE")
                out.append(self.span(tail.start(1), tail.end(1), Category.LOCATION, fine, 0.8, validated=True))
        return out


def _plausible_place(run: str, stop: frozenset[str]) -> bool:
    """A run of capitalised words that could be a town: not in capitals (a heading or an
    abbreviation), not a month or a feast, no word that makes it a ward or a service, and
    not a single everyday word ("moved to Rehab"), no title ("moved to Dr Ngata's list")."""
    if run.isupper():
        return False
    words = [w.casefold() for w in run.split() if w != "of"]
    if words[-1].endswith(("'s", "’s")):
        return False  # "moved to Anna's": a person's home, found as a name
    if any(w in _FACILITY or w in _MONTHS_DAYS for w in words):
        return False
    return not (len(words) == 1 and words[0] in stop)


def _personal(key: str) -> bool:
    """Places that are also people's names (Hamilton, Victoria, Jordan) need more care."""
    return key in first_names() or key in surnames()
