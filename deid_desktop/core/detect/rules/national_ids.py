"""Identifiers with check digits: UK NHS number, NZ NHI, Australian Medicare; and, by its
label, the Australian Business Number a practice prints on its letterhead.

A number whose check digit is right is found without any label, and is ``validated`` (no
ensemble vote drops it) (a random number passes only
one time in ten or so, and the formats are distinctive); a wrong check digit is reported
only after the identifier's own label, with a lower score.
"""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from ...checkdigits import medicare_valid, nhi_valid, nhs_valid
from .common import NANP_DASHED, RuleDetector, before

_NHS = re.compile(r"(?<![\w-])(\d{3})([ -]?)(\d{3})\2(\d{4})(?![\w-])")
_NHI = re.compile(r"(?<![\w-])([A-HJ-NP-Z]{3}\d{4}|[A-HJ-NP-Z]{3}\d{2}[A-HJ-NP-Z]{2})(?![\w-])", re.I)
_MEDICARE = re.compile(r"(?<![\w-])([2-6]\d{3})([ -]?)(\d{5})\2(\d)(?:(?:[ /-]|\2)(\d))?(?![\w-])")
# A UK National Insurance number: two letters, six digits (often in pairs), a letter A-D. HMRC
# never issues D, F, I, Q, U or V in either letter, O second, nor the prefixes below.
_NINO = re.compile(r"(?<![\w-])([A-Z]{2})[ ]?(\d{2})[ ]?(\d{2})[ ]?(\d{2})[ ]?([A-D])(?![\w-])")
_NINO_NEVER = frozenset("BG GB NK KN TN NT ZZ".split())
_NINO_LABEL = re.compile(r"\b(?:NI|NINO|national[ \t]+insurance)\b[^\n]{0,20}$", re.I)
_ABN = re.compile(r"(?<![\w-])\d{2}[ ]?\d{3}[ ]?\d{3}[ ]?\d{3}(?![\w-])")
_PHONE_BEFORE = re.compile(r"\b(?:ph|phone|tel|mob|mobile|cell|fax|pager|call)\b\W*$")


def _label_before(text: str, pos: int, label: str) -> bool:
    return re.search(rf"\b{label}\b[^\n]{{0,20}}$", before(text, pos, 30)) is not None


@register("nhs_number")
class NhsNumberDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _NHS.finditer(text):
            labelled = _label_before(text, m.start(), "nhs")
            if nhs_valid(m.group()):
                # Unlabelled, a phone's word before it or a North American phone's shape says
                # phone: one ten-digit number in eleven passes the check ("call our office at
                # 210-555-0193"); the phone rule finds it.
                phone = _PHONE_BEFORE.search(before(text, m.start(), 20)) or NANP_DASHED.fullmatch(m.group())
                if labelled or (m[1][0] != "0" and not phone):
                    out.append(self.span(m.start(), m.end(), Category.ID, "MRN", 1.0 if labelled else 0.9, validated=True))
            elif labelled:
                out.append(self.span(m.start(), m.end(), Category.ID, "MRN", 0.7))
        return out


@register("nhi")
class NhiDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _NHI.finditer(text):
            labelled = _label_before(text, m.start(), "nhi")
            if not (labelled or m.group().isupper()):
                continue  # lower-case letters-and-digits codes are only NHIs when labelled
            if nhi_valid(m.group()):
                out.append(self.span(m.start(), m.end(), Category.ID, "MRN", 0.99 if labelled else 0.9, validated=True))
            elif labelled:
                out.append(self.span(m.start(), m.end(), Category.ID, "MRN", 0.7))
        return out


@register("medicare")
class MedicareDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _MEDICARE.finditer(text):
            labelled = _label_before(text, m.start(), "medicare")
            if medicare_valid(m.group()):
                # An ungrouped ten-digit run is as likely a phone or account number.
                score = 0.99 if labelled else (0.9 if m[2] else 0.6)
                out.append(self.span(m.start(), m.end(), Category.ID, "HEALTHPLAN", score, validated=True))
            elif labelled:
                out.append(self.span(m.start(), m.end(), Category.ID, "HEALTHPLAN", 0.7))
        return out


@register("abn")
class AbnDetector(RuleDetector):
    """An ABN after its label ("ABN 41 623 887 519"), validated: the models read its digit
    groups as a phone number. The label is required (eleven digits in these groups are
    also phone and account numbers); the check digit is not, as practices' letterheads
    and invoices are typed by hand."""

    def detect(self, text: str) -> list[Span]:
        return [
            self.span(m.start(), m.end(), Category.ID, "OTHER", 0.95, validated=True)
            for m in _ABN.finditer(text)
            if _label_before(text, m.start(), "abn")
        ]


def _nino_issued(prefix: str) -> bool:
    first, second = prefix
    return first not in "DFIQUV" and second not in "DFIQUVO" and prefix not in _NINO_NEVER


@register("ni_number")
class NiNumberDetector(RuleDetector):
    """A UK National Insurance number: validated where its prefix is one HMRC issues or its
    label stands before it ("NI number QQ 12 34 56 C", the format's published example)."""

    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _NINO.finditer(text):
            labelled = _NINO_LABEL.search(before(text, m.start(), 40)) is not None
            if labelled or _nino_issued(m[1]):
                out.append(self.span(m.start(), m.end(), Category.ID, "OTHER", 0.95 if labelled else 0.85, validated=True))
        return out
