"""Record, account, licence and health-plan numbers, found by the label written before them
("MRN:", "Hosp No", "UR number", "Acct #", "Policy", "Member ID", "DEA")."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from .common import RuleDetector, before, unit_follows

_NO = r"(?i:\s*(?:no|num|number|nbr|#|id)\b\.?)?"
# (labels, fine type, score). Labels ignore case except where capitals are what marks them.
_LABELS: list[tuple[str, str, float]] = [
    (r"(?i:mrn|mr\s*#|mr\s*no\b\.?|med(?:ical)?\.?\s*rec(?:ord)?s?" + _NO + r"|medical\s+record" + _NO
     + r"|hosp(?:ital)?\.?\s*(?:no\b\.?|number|#|id)|urn?\s*(?:no\b\.?|number|#)|urn|unit\s+record" + _NO
     + r"|patient\s*(?:id|no\b\.?|number|#)|pt\.?\s*(?:id|no\b\.?)|chart\s*(?:no\b\.?|number|#)|record\s*(?:no\b\.?|number|#)"
     + r"|nhi" + _NO + r"|nhs" + _NO + r"|chi\s*(?:no\b\.?|number)|empi|client\s*(?:id|no\b\.?|number))", "MRN", 0.95),
    (r"(?i:acc(?:oun)?t\.?" + _NO + r"|billing\s*(?:no\b\.?|number|id|#)|invoice" + _NO + r")", "ACCOUNT", 0.9),
    (r"(?i:licen[cs]e" + _NO + r"|lic\.?\s*(?:no\b\.?|#)|provider\s*(?:no\b\.?|number|id)|prescriber\s*(?:no\b\.?|number|id)"
     + r"|(?:medical\s+)?registration\s*(?:no\b\.?|number|#)|gmc" + _NO + r"|mcnz" + _NO + r"|ahpra" + _NO
     + r"|apc\s*(?:no\b\.?|number)|dcnz" + _NO + r"|pcnz" + _NO + r"|ncnz" + _NO + r"|nmc\s*(?:pin|no\b\.?|number)"
     + r"|hcpc" + _NO + r"|gdc" + _NO + r"|gphc" + _NO + r")|DEA" + _NO + r"|NPI" + _NO + r"|NCPDP" + _NO, "LICENSE", 0.9),
    (r"(?i:policy" + _NO + r"|member(?:ship)?\s*(?:id|no\b\.?|number|#)|insurance\s*(?:id|no\b\.?|number|#)"
     + r"|health\s*(?:plan|fund|insurance)" + _NO + r"|medicare" + _NO + r"|medicaid" + _NO
     + r"|subscriber\s*(?:id|no\b\.?|number)|group\s*(?:no\b\.?|number|#)|plan\s*(?:id|no\b\.?|number)"
     + r"|dva\s*(?:no\b\.?|number|file)|acc\s*claim" + _NO + r"|claim\s*(?:no\b\.?|number|#)"
     + r"|pension(?:er)?\s*(?:no\b\.?|number|card|/\s*hcc)|hcc" + _NO + r"|concession\s*(?:card\s*)?(?:no\b\.?|number)|health\s*care\s*card"
     + r"|ndis" + _NO + r"|ihi" + _NO + r"|hpi-?[io]" + _NO + r"|crn" + _NO + r"|mbi" + _NO + r"|hicn" + _NO + r")",
     "HEALTHPLAN", 0.9),
    (r"ID" + _NO + r"|(?i:ref(?:erence)?\.?" + _NO + r"|specimen" + _NO + r"|accession" + _NO
     + r"|lab\s*(?:no\b\.?|number|id)|sample\s*(?:id|no\b\.?)|study\s*(?:id|no\b\.?)|episode\s*(?:id|no\b\.?|number)"
     + r"|encounter\s*(?:id|no\b\.?|number|#)|visit\s*(?:id|no\b\.?|number)|booking\s*(?:no\b\.?|number|ref)"
     + r"|request\s*(?:id|no\b\.?|number)|order\s*(?:id|no\b\.?|number)|case\s*(?:id|no\b\.?|number)"
     + r"|file\s*(?:no\b\.?|number)|passport" + _NO + r"|employee\s*(?:id|no\b\.?)|staff\s*(?:id|no\b\.?)"
     + r"|badge" + _NO + r"|payroll" + _NO + r"|service\s*(?:no\b\.?|number)|pnc" + _NO + r"|cro" + _NO + r")", "OTHER", 0.8),
]
_LABEL = re.compile(
    r"(?<![\w])(?:" + "|".join(f"(?P<g{i}>{p})" for i, (p, _, _) in enumerate(_LABELS)) + r")(?![A-Za-z])"
)
# Digit groups ("943 476 5919", "2123 45670 1", a Centrelink CRN "204 517 339K") or one token with at least one digit.
_VALUE = re.compile(
    r"\s*[:#=.\-]?\s*(?:(?:no|number|#)\b\.?\s*[:#]?\s*)?"
    r"(?P<v>\d{2,5}(?:[ ]\d{1,5}){1,3}[A-Za-z]?(?![\w/-])|(?=[A-Za-z0-9/-]*\d)[A-Za-z0-9][A-Za-z0-9/-]{1,24}[A-Za-z0-9])",
    re.I,
)
_CODE = re.compile(r"[A-Z]{2,4}\d{2,}[A-Z]*")
_SPECIMEN_LABEL = re.compile(r"(?i:lab|specimen|accession|sample)")
_DATE_LIKE = re.compile(r"\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}")
_DIGIT_ALIKE = frozenset("ODQIlSBZG")
_VEHICLE_BEFORE = re.compile(r"\b(?:car|vehicle|motor|van|truck|ute|bike|motorcycle)\s*$")


@register("record_number")
class RecordNumberDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _LABEL.finditer(text):
            index = next(i for i in range(len(_LABELS)) if m.group(f"g{i}") is not None)
            _, fine, score = _LABELS[index]
            if "registration" in m.group().lower() and _VEHICLE_BEFORE.search(before(text, m.start(), 20)):
                continue  # a number plate, the vehicle detector's concern
            v = _VALUE.match(text, m.end())
            if v is None:
                continue
            value = v["v"]
            if _DATE_LIKE.fullmatch(value) or unit_follows(text, v.end("v")):
                continue
            digits = sum(c.isdigit() for c in value)
            if 0 < digits < 3 and index < 4 and " " not in value and len(value) >= 6:
                # a record's own label (MRN, NHI, NHS...): letters a scan's OCR reads for
                # digits count with them ("ZGCO4PL", an NHI read with "O" for "0")
                digits += sum(c in _DIGIT_ALIKE for c in value)
            # capitals and digits of a lab's or a record's own shape count with two digits
            # ("Lab no: AE17"); a plain number needs three ("ID 2 doses" is none)
            if (digits < 3 and not _CODE.fullmatch(value)) or (" " in value and digits < 6):
                continue
            # five digits or more after a record's label: the label says what it is, so the
            # models may not cut it into pieces of other kinds ("Claim no: 5402 118 336" was an
            # ID and a phone number)
            # a lab's or a specimen's code after its label is validated too: the models leave it
            sure = digits >= 5 or (_CODE.fullmatch(value) is not None and _SPECIMEN_LABEL.match(m.group()) is not None)
            out.append(self.span(v.start("v"), v.end("v"), Category.ID, fine, score, validated=sure))
        return out
