"""ZIP codes and postcodes, taken only where an address makes them one: after a state, a
known town, or a "Postcode:" label; UK postcodes are distinctive enough on their own."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from ..lexicons import places
from .common import RuleDetector, keep_longest

US_STATES = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY "
    "NC ND OH OK OR PA PR RI SC SD TN TX UT VT VA WA WV WI WY"
).split()
AU_STATES = ["NSW", "VIC", "QLD", "SA", "WA", "TAS", "NT", "ACT", "Vic", "Qld", "Tas"]
STATE_ABBR = r"(?:" + "|".join(sorted(set(US_STATES + AU_STATES), key=len, reverse=True)) + r")"

_US_ZIP = re.compile(rf"\b(?:{'|'.join(US_STATES)})\.?,?[ \t]+(\d{{5}}(?:-\d{{4}})?)(?![\w-])")
# The state of an address line, between the town's comma and the ZIP or postcode:
# "Okemah, OK 74859", "Karratha WA 6714". Taken with its number, so "OK" alone is never read.
_STATE_BEFORE_CODE = re.compile(
    rf"(?:,[ \t]*|(?P<town>\b[A-Z][\w'’-]+)[ \t]+)"
    rf"(?:(?P<state>{'|'.join(US_STATES)})\.?,?[ \t]+\d{{5}}(?:-\d{{4}})?|(?P<au>{'|'.join(AU_STATES)})\.?,?[ \t]+\d{{4}})(?![\w-])"
)
# Capitalised words that start a sentence rather than name a town: "The ACT 2000 rule".
_NOT_A_TOWN = frozenset({"The", "In", "At", "To", "On", "From", "For", "And", "Or", "Of", "By", "With", "Per", "See", "Go"})
_AU_POSTCODE = re.compile(rf"\b(?:{'|'.join(AU_STATES)})\.?,?[ \t]+(\d{{4}})(?![\w-])")
_UK_POSTCODE = re.compile(r"(?<![\w-])([A-Z]{1,2}\d[A-Z\d]?)( ?)(\d[ABD-HJLNP-UW-Z]{2})(?![\w-])")
_LABELLED = re.compile(
    r"\b(?i:post\s*code|postal\s*code|zip(?:\s*code)?|p/code)(?:\s+district)?\s*[:#]?\s*"
    # (or, after "postcode district", a UK postcode's first half alone: "Postcode district PO4")
    r"([A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|\d{4,5}(?:-\d{4})?|(?<=[Dd]istrict )[A-Z]{1,2}\d[A-Z\d]?)(?![\w-])"
)
_TOWN_POSTCODE = re.compile(
    r"([A-Z][a-zA-Zāēīōū'’-]+(?:[ \t][A-Z][a-zA-Zāēīōū'’-]+){0,2}),?[ \t]+(\d{4})(?![\w/-]|[.:]\d)"
)
_ADDRESS_END = re.compile(r"[ \t]*(?:[,.;)]|$|New Zealand|NZ|Australia)", re.M)
_POSTCODE_BEFORE = re.compile(r"(?:^|,|\n|[A-Z][a-z]+)[ \t]*$|\b(?i:post[ \t]*code|postal[ \t]+code)[ \t]*:?[ \t]*$")
_FULL_STATE = re.compile(r"([A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?),?[ \t]+(\d{5}(?:-\d{4})?)(?![\w-])")


@register("postcode")
class PostcodeDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        found: list[Span] = []

        def add(m: re.Match, group: int, score: float, validated: bool = False) -> None:
            found.append(self.span(m.start(group), m.end(group), Category.LOCATION, "ZIP", score, validated=validated))

        # After a state code that itself follows a town, the number is a postcode for certain
        # (models sometimes call it a phone number): validated, so the vote keeps it a place.
        in_address = {m.end() for m in _STATE_BEFORE_CODE.finditer(text) if m["town"] not in _NOT_A_TOWN}
        for m in _US_ZIP.finditer(text):
            add(m, 1, 0.95, validated=m.end() in in_address)
        for m in _AU_POSTCODE.finditer(text):
            add(m, 1, 0.95, validated=m.end() in in_address)
        for m in _STATE_BEFORE_CODE.finditer(text):
            if m["town"] in _NOT_A_TOWN:
                continue
            group = "state" if m["state"] else "au"
            found.append(self.span(m.start(group), m.end(group), Category.LOCATION, "STATE", 0.95, validated=True))
        for m in _LABELLED.finditer(text):
            add(m, 1, 0.95, validated=True)  # the label says what it is
        for m in _UK_POSTCODE.finditer(text):
            # written in full where an address line has it ("Wymondham\nNR18 0QP.", ", SG1 4PQ"),
            # the shape is a postcode's for certain: validated, so the models cannot out-vote it
            placed = bool(m[2]) and _POSTCODE_BEFORE.search(text, max(0, m.start() - 40), m.start()) is not None and _ADDRESS_END.match(text, m.end()) is not None
            found.append(self.span(m.start(), m.end(), Category.LOCATION, "ZIP", 0.9 if m[2] else 0.75, validated=placed))
        known = places()
        for m in _TOWN_POSTCODE.finditer(text):
            words = m[1].split()
            if not any(known.get(" ".join(words[i:]).casefold()) == "city" for i in range(len(words))):
                continue
            # In an address line a comma comes before the town; otherwise the number must end the
            # address, and "moved to Auckland 2019." is a year.
            after_comma = text[max(0, m.start() - 3) : m.start()].rstrip(" \t").endswith(",")
            if not after_comma and (1900 <= int(m[2]) <= 2035 or not _ADDRESS_END.match(text, m.end())):
                continue
            add(m, 2, 0.85)
        for m in _FULL_STATE.finditer(text):
            if known.get(m[1].casefold()) == "state":
                add(m, 2, 0.9)
        return keep_longest(found)
