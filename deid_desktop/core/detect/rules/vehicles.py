"""Vehicle identifiers: VINs anywhere, number plates after "plate", "rego", "registration"."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from .common import RuleDetector, before

_VIN = re.compile(r"(?<![\w-])[A-HJ-NPR-Z0-9]{17}(?![\w-])")
_VIN_VALUES = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9))),
               **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9, **dict(zip("STUVWXYZ", range(2, 10)))}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
_PLATE = re.compile(
    r"\b(?i:(?:licen[cs]e|number|reg(?:istration)?)\s+plate|plate|rego|(?:car|vehicle|motor|van|truck|ute)\s+"
    r"(?:reg(?:istration)?|plate)|vehicle(?=[ \t]*(?:no\b\.?|number|id|#)?[ \t]*:))(?i:\s*(?:no\b\.?|number|#))?\s*[:#-]?\s*"
    r"(?P<v>(?=[A-Z0-9 -]*\d)(?=[A-Z0-9 -]*[A-Z])[A-Z0-9]{1,4}[ -]?[A-Z0-9]{1,4}(?:[ -]?[A-Z0-9]{1,4})?)(?![\w-])"
)
# A current British plate ("KX19 BHT") after a word about a car or its registration within
# a few words: "blue Corsa reg. KX19 BHT", "car is a KX19BHT".
_UK_PLATE = re.compile(r"(?<![\w-])[A-Z]{2}\d{2}[ ]?[A-Z]{3}(?![\w-])")
_CAR_BEFORE = re.compile(r"\b(?i:reg|rego|registration|plate|car|vehicle|van|ute|motorbike|vrm|drives|drove|driving|truck|lorry|taxi|ambulance)\b")
_VIN_CONTEXT = re.compile(r"\b(?:vin|vehicle identification|chassis)\b")


def vin_check_ok(vin: str) -> bool:
    """North-American VINs carry a check character in position 9 (0-9 or X)."""
    total = sum(_VIN_VALUES[c] * w for c, w in zip(vin, _VIN_WEIGHTS))
    check = total % 11
    return vin[8] == ("X" if check == 10 else str(check))


@register("vehicle")
class VehicleDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _VIN.finditer(text):
            vin = m.group()
            if sum(c.isdigit() for c in vin) < 3 or sum(c.isalpha() for c in vin) < 2:
                continue
            labelled = bool(_VIN_CONTEXT.search(before(text, m.start(), 30)))
            if vin_check_ok(vin) or labelled:
                out.append(self.span(m.start(), m.end(), Category.ID, "VEHICLE", 0.95))
            else:
                out.append(self.span(m.start(), m.end(), Category.ID, "VEHICLE", 0.6))
        for m in _PLATE.finditer(text):
            # a vehicle's label ("Rego:", "Vehicle:", "licence plate") proves the value; a bare
            # "plate" may be an orthopaedic one ("plate LCP 3.5"), so the vote decides there
            label = text[m.start() : m.start("v")].casefold()
            sure = "plate" not in label or any(w in label for w in ("licen", "number", "reg", "car", "vehicle"))
            out.append(self.span(m.start("v"), m.end("v"), Category.ID, "VEHICLE", 0.85, validated=sure))
        for m in _UK_PLATE.finditer(text):
            if _CAR_BEFORE.search(text, max(0, m.start() - 30), m.start()) and not any(s.start <= m.start() < s.end for s in out):
                out.append(self.span(m.start(), m.end(), Category.ID, "VEHICLE", 0.9, validated=True))
        return sorted(out, key=lambda s: s.start)
