"""Street addresses ("12 Rosewood Avenue", "Flat 3, 45 King St", "Unit 5/22 Smith Rd",
"PO Box 123") and the suburb, town and state that follow them on the same line."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from ..lexicons import places
from .common import LO, UP, RuleDetector, keep_longest
from .postcodes import STATE_ABBR

_SUFFIXES = (
    "Street St Road Rd Avenue Ave Av Lane Ln Drive Dr Place Pl Crescent Cres Court Ct Terrace Tce Terr "
    "Way Boulevard Blvd Close Cl Parade Pde Highway Hwy Grove Gr Gv Square Sq Circuit Cct Esplanade Esp "
    "Quay Row Mews Gardens Gdns Rise Heights Hts Track Walk Loop Parkway Pkwy Trail Trl Circle Cir "
    "Glade Promenade Strand Mall Alley Wynd Crossing Grange Vale Common Chase Green"
).split()
# A full stop only after an abbreviation ("St.", "Rd."): after "Street" it ends the sentence.
_ABBREVIATED = "St Rd Av Ave Ln Dr Pl Cres Ct Tce Terr Blvd Cl Pde Hwy Gr Gv Sq Cct Esp Pkwy Trl Cir Hts Gdns".split()
_SUFFIX = (
    r"(?:" + "|".join(sorted(_SUFFIXES, key=len, reverse=True)) + r")\b"
    + r"(?:(?:" + "|".join(rf"(?<=\b{a})" for a in _ABBREVIATED) + r")\.)?"
)
_UNIT = r"(?P<unit>(?:Flat|Unit|Apt|Apartment|Suite|Ste|Level|Lvl|Villa|Shop)\.?[ \t]*\d{1,4}[A-Za-z]?[ \t]*(?:,[ \t]*|/[ \t]*|[ \t]+))"
_ADDRESS_LABEL = re.compile(r"(?i:\b(?:address|addr|residence|resides at|lives at|home address)[ \t]*[:.-]?[ \t]*)$")
_NUMBER = r"\d{1,5}[A-Za-z]?(?:[ \t]*[-–/][ \t]*\d{1,5}[A-Za-z]?)?"
_NAME_WORD = rf"(?:[{UP}][{LO}'’]*\.?|[{UP}]{{2,}})"
STREET = re.compile(
    rf"(?<![\w/.-])(?:{_UNIT})?(?P<number>{_NUMBER})[ \t]+(?:{_NAME_WORD}[ \t]+){{1,4}}{_SUFFIX}"
    rf"(?:[ \t]+(?:North|South|East|West|N|S|E|W|NE|NW|SE|SW)\b)?"
)
# "Herries Road, Sheffield S5 7AU": no number, so a known town must follow.
_STREET_NAME = re.compile(
    rf"(?<![\w/.-])(?:{_NAME_WORD}[ \t]+){{1,3}}{_SUFFIX}(?=,[ \t]*(?P<town>[{UP}][{LO}]+(?:[ \t][{UP}][{LO}]+)?))"
)
_PO_BOX = re.compile(
    r"\b(?i:p\.?\s?o\.?\s*box|post\s+office\s+box|private\s+bag|locked\s+bag|gpo\s+box)\s+\d{1,6}\b"
)
# A street address in lower case, as patients' messages write one ("apt 3B at 1200 n lamar
# blvd"): a number, one to three words and a street word, after a word that says where
# ("at", "on", "lives", "address") or a flat number. Street words that are as often something
# else ("dr", "ct", "ln", "way", "pl") are left to the capitalised pattern.
_LOWER_STREET = re.compile(
    r"(?:(?<=\bat )|(?<=\bon )|(?<=\bin )|(?<=\bto )|(?<=\bfrom )|(?<=\blives )|(?<=\baddress )|(?<=\baddress: )|(?<=\baddr: ))"
    r"(?P<a>(?:(?:apt|unit|flat|suite)\.?[ \t]*\d{1,4}[A-Za-z]?[ \t]*,?[ \t]*(?:at[ \t]+)?)?\d{1,5}[a-z]?[ \t]+(?:[nsew]\.?[ \t]+)?"
    r"(?:[a-z][a-z'’-]+[ \t]+){1,3}(?:street|st|road|rd|avenue|ave|blvd|boulevard|lane|drive|crescent|cres|terrace|tce"
    r"|parkway|pkwy|highway|hwy)\b\.?)"
)
_RURAL_DELIVERY = re.compile(r"(?<=,[ \t])RD[ \t]?\d{1,2}\b")
# ", Ponsonby, Auckland" after a street; stops at anything that is not a capitalised place.
_TAIL_PART = re.compile(
    rf",[ \t]*(?P<place>[{UP}][{LO}][{LO}'’-]*(?:[ \t][{UP}][{LO}][{LO}'’-]*){{0,2}})"
    rf"|[ \t,]+(?P<state>{STATE_ABBR})\b"
)


@register("street_address")
class StreetAddressDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        found: list[Span] = []
        for m in STREET.finditer(text):
            # validated where the shape is an address's and nothing else's: a flat or unit
            # number before the street number ("Unit 4/19 Quandong Cl", "3/18 Wattlebird
            # Close"), or an address label before it; the models cut "4" out as a date
            sure = bool(m["unit"] or "/" in m["number"]) or _ADDRESS_LABEL.search(text, max(0, m.start() - 24), m.start()) is not None
            found.append(self.span(m.start(), m.end(), Category.LOCATION, "STREET", 0.9, validated=sure))
            found.extend(self._tail(text, m.end()))
        known = places()
        for m in _STREET_NAME.finditer(text):
            if known.get(m["town"].casefold()) == "city" and not m.group().split()[0].casefold() in ("the", "and"):
                found.append(self.span(m.start(), m.end(), Category.LOCATION, "STREET", 0.75))
                found.extend(self._tail(text, m.end()))
        for m in _LOWER_STREET.finditer(text):
            # validated: the models rarely mark an address written in lower case
            found.append(self.span(m.start("a"), m.end("a"), Category.LOCATION, "STREET", 0.8, validated=True))
        for rx, score in ((_PO_BOX, 0.95), (_RURAL_DELIVERY, 0.7)):
            for m in rx.finditer(text):
                found.append(self.span(m.start(), m.end(), Category.LOCATION, "STREET", score))
                found.extend(self._tail(text, m.end()))
        return keep_longest(found)

    def _tail(self, text: str, pos: int) -> list[Span]:
        out: list[Span] = []
        known = places()
        while (t := _TAIL_PART.match(text, pos)) is not None:
            if t["state"]:
                out.append(self.span(t.start("state"), t.end("state"), Category.LOCATION, "STATE", 0.9))
            else:
                kind = known.get(t["place"].casefold(), "city")
                fine = {"state": "STATE", "country": "COUNTRY"}.get(kind, "CITY")
                out.append(self.span(t.start("place"), t.end("place"), Category.LOCATION, fine, 0.8))
            pos = t.end()
        return out
