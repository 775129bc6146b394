"""Cities, towns, states and countries from the dictionaries, taken where the sentence says
it is a place: "lives in Hamilton", "from Samoa", "Boston, MA", "Town: Gore"."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from ..lexicons import first_names, name_words, not_names, places, surnames
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
        return keep_longest(found)


def _personal(key: str) -> bool:
    """Places that are also people's names (Hamilton, Victoria, Jordan) need more care."""
    return key in first_names() or key in surnames()
