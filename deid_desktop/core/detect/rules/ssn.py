"""US Social Security numbers."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from .common import RuleDetector, before

_DASHED = re.compile(r"(?<![\w-])(\d{3})-(\d{2})-(\d{4})(?![\w-])")
_PLAIN = re.compile(r"(?<![\w-])(\d{3})[ ]?(\d{2})[ ]?(\d{4})(?![\w-])")
_CONTEXT = re.compile(r"\b(?:ssn|ss#|ss no|soc(?:ial)? sec(?:urity)?(?: no| number| #)?)\W*$")


# The last four digits, which VA and US insurance notes give for identity checks: "Last 4:
# 5512", "SSN (last 4) 5512", "last four of SSN 5512", or the number masked but for them
# with x's, stars or hashes ("***-**-5512"). Validated: the label or the mask says what the
# digits are.
_LAST_FOUR = re.compile(
    r"(?i:\b(?:(?:ssn|ss\#|social[ \t]+security(?:[ \t]+(?:number|no\.?))?)[ \t]*\(?[ \t]*last[ \t]+(?:4|four)[ \t]*\)?"
    r"|last[ \t]+(?:4|four)(?:[ \t]+(?:(?:of[ \t]+)?(?:ssn|ss\#|social[ \t]+security(?:[ \t]+(?:number|no\.?))?)|digits)(?![\w]))?))"
    r"[ \t]*[:#=-]?[ \t]*(?P<d>\d{4})(?![\w-])"
    r"|(?<![\w*#-])(?:[xX]{3}|\*{3}|\#{3})-?(?:[xX]{2}|\*{2}|\#{2})-?(?P<m>\d{4})(?![\w-])"
)


def _plausible(area: str, group: str, serial: str) -> bool:
    """Never issued: area 000, 666 or 900-999; group 00; serial 0000."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


@register("ssn")
class SsnDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out: dict[tuple[int, int], Span] = {}
        for m in _DASHED.finditer(text):
            if _plausible(*m.groups()):
                score = 0.99 if _CONTEXT.search(before(text, m.start(), 30)) else 0.9
                out[m.span()] = self.span(m.start(), m.end(), Category.ID, "SSN", score, validated=True)
        for m in _PLAIN.finditer(text):
            if m.span() not in out and _plausible(*m.groups()) and _CONTEXT.search(before(text, m.start(), 30)):
                out[m.span()] = self.span(m.start(), m.end(), Category.ID, "SSN", 0.9)
        for m in _LAST_FOUR.finditer(text):
            g = "d" if m["d"] else "m"
            if m[g] != "0000" and not any(a <= m.start(g) < b for a, b in out):
                out[m.span(g)] = self.span(m.start(g), m.end(g), Category.ID, "SSN", 0.95, validated=True)
        return sorted(out.values(), key=lambda s: s.start)
