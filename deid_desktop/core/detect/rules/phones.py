"""Telephone, fax and pager numbers in US, UK, Australian and New Zealand formats, and the
internal bleep, pager and extension numbers a label names."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from ...checkdigits import nhs_valid
from .common import NANP_DASHED, RuleDetector, before, keep_longest

_SEP = r"[\s.-]?"
_EXT = r"(?:\s*(?:ext|extn|x)\.?\s*\d{1,5}(?!\d))?"
_FORMATS = [
    # (pattern, score)
    (r"\+1[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}", 0.95),                     # +1 555 123 4567
    (r"\+44\s?(?:\(0\)\s?)?\d{2,5}[\s-]?\d{3,4}[\s-]?\d{3,4}", 0.95),             # +44 20 7946 0958
    (r"\+61\s?(?:\(0\)\s?)?\d[\s-]?\d{4}[\s-]?\d{4}", 0.95),                      # +61 2 9876 5432
    (r"\+61\s?4\d{2}[\s-]?\d{3}[\s-]?\d{3}", 0.95),                               # +61 412 345 678
    (r"\+64\s?(?:\(0\)\s?)?\d{1,2}[\s-]?\d{3}[\s-]?\d{3,4}", 0.95),               # +64 9 123 4567
    (r"\+(?:[2-9]\d{1,2})(?:[\s.-]?\d{1,4}){3,5}", 0.85),                         # other countries
    (r"\(\d{3}\)\s?\d{3}[\s.-]?\d{4}", 0.95),                                     # (555) 123-4567
    (r"\d{3}([.-])\d{3}\1\d{4}", 0.9),                                             # 555-123-4567
    (r"[2-9]\d{2} \d{3} \d{4}", 0.8),                                              # 555 123 4567
    (r"\(0\d\)\s?\d{4}[\s-]?\d{4}", 0.95),                                        # (02) 9876 5432
    (r"\(0\d{1,4}\)\s?\d{3,4}[\s-]?\d{3,4}", 0.9),                                # (09) 123 4567, (01632) 960001
    (r"0[1-9]\d{1,3}[\s-]?\d{3,4}[\s-]?\d{3,4}", 0.85),                           # 020 7946 0958, 0412 345 678
    (r"0[1-9][\s-]\d{3,4}[\s-]?\d{4}", 0.85),                                     # 09 123 4567, 02 9876 5432
    (r"1[38]00[\s-]?\d{3}[\s-]?\d{3}", 0.9),                                      # 1300 123 456
]
_PHONE = re.compile(
    r"(?<![\w+/.-])(?:" + "|".join(f"(?:{p})" for p, _ in _FORMATS) + r")" + _EXT + r"(?![\w/]|[.-]\d)", re.I
)
_SCORES = [(re.compile(p), s) for p, s in _FORMATS]
_LOCAL = re.compile(r"(?<![\w+/.-])\d{3,4}[\s-]\d{4}(?![\w/]|[.-]\d)")  # 123 4567 after "ph:" only

_CONTEXT = re.compile(r"\b(?:ph|phone|tel|telephone|mob|mobile|cell|cellphone|contact|call|fax|pager|page|bleep|landline|ddi|home|work)\b\W*(?:\w+\W+){0,2}$")
_KEYWORD = re.compile(r"\b(?:ph|phone|tel|telephone|mob|mobile|cell|cellphone|fax|facsimile|pager|bleep|landline|ddi)\b")
# An internal number after its label: "bleep 2217", "pager 238", "ext 8841", "extn. 4412".
# Three to five digits are too few for the formats above, but the label says what they are.
_INTERNAL = re.compile(r"\b(?:bleep|pager|page|ext|extn|extension)\b\.?\s*(?:no\.?|number|#)?\s*[:#]?\s*(\d{3,5})(?![\d/:.,]\d|\w)", re.I)
_ID_LABEL = re.compile(r"\b(?:mrn|nhi|nhs|ur|urn|acct|account|medicare|policy|member|id|ref|no|number|#)\W*$")


def _digit_count(s: str) -> int:
    return sum(c.isdigit() for c in s)


@register("phone")
class PhoneDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        found: list[Span] = []
        for m in _PHONE.finditer(text):
            value = m.group()
            ctx = before(text, m.start(), 30)
            has_context = bool(_CONTEXT.search(ctx))
            digits = re.sub(r"\D", "", re.split(r"(?i)\s*(?:ext|extn|x)", value)[0])
            if not 8 <= len(digits) <= 15:
                continue
            nhs_like = len(digits) == 10 and nhs_valid(digits) and digits[0] != "0" and not NANP_DASHED.fullmatch(value)
            if not has_context and (_ID_LABEL.search(ctx) or nhs_like):
                continue  # an identifier that happens to look like a phone number
            score = next((s for rx, s in _SCORES if rx.match(value)), 0.8)
            # Nine digits or more in a telephone layout, or a phone label before it: a number
            # to call, whatever the other members vote (Span.validated).
            validated = has_context or len(digits) >= 9
            found.append(self._phone(m.start(), m.end(), ctx, min(1.0, score + (0.05 if has_context else 0)), validated))
        for m in _LOCAL.finditer(text):
            ctx = before(text, m.start(), 30)
            if _CONTEXT.search(ctx) and _digit_count(m.group()) in (7, 8):
                found.append(self._phone(m.start(), m.end(), ctx, 0.7, False))
        for m in _INTERNAL.finditer(text):
            found.append(self._phone(m.start(1), m.end(1), before(text, m.start(1), 30), 0.85, True))
        return keep_longest(found)

    def _phone(self, start: int, end: int, ctx: str, score: float, validated: bool) -> Span:
        # The nearest keyword decides: "Tel: ... Fax: ..." gives a phone, then a fax.
        keywords = _KEYWORD.findall(ctx)
        fine = "FAX" if keywords and keywords[-1] in ("fax", "facsimile") else "PHONE"
        return self.span(start, end, Category.CONTACT, fine, score, validated=validated)
