"""Which country a document comes from, guessed from what it holds.

Surrogate towns, postcodes and phone numbers should belong to the same country as the
document: a Wellington discharge letter whose unknown suburb became "Peoria" reads wrong,
and tells a reader where to look for the original. The caller may say the country (the
engine's ``country`` argument, or the ``locale`` option); otherwise it is read from the
document's identifiers, phone numbers and postcodes, strongest evidence first:

- New Zealand: a valid NHI, +64 numbers and 02x mobiles, towns only NZ has;
- United Kingdom: a valid NHS number, UK postcodes, +44 numbers and 07 mobiles;
- Australia: a valid Medicare number, +61 numbers and 04 mobiles, a state code before a
  four-digit postcode (VIC 3000);
- United States: an SSN, a state code before a ZIP code, (xxx) xxx-xxxx numbers.

When nothing points anywhere, or two countries score the same, the country stays unknown
and the options decide as before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..categories import Category
from ..checkdigits import medicare_valid, nhi_valid, nhs_valid
from ..spans import Span
from .digit_strings import digit_key, is_digit_string
from .places import countries_with_town

_UK_POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b", re.I)
_AU_STATE_POSTCODE = re.compile(r"\b(?:NSW|VIC|QLD|TAS|ACT|NT|WA|SA)\.?,?\s+\d{4}\b")
_US_STATE_ZIP = re.compile(r"\b[A-Z]{2}\.?,?\s+\d{5}(?:-\d{4})?\b")
_US_PHONE = re.compile(r"^\(?[2-9]\d{2}\)?[\s.-]*[2-9]\d{2}[\s.-]\d{4}$")
_SSN = re.compile(r"^\d{3}-\d{2}-\d{4}$")
_NHI = re.compile(r"^[A-HJ-NP-Z]{3}\d{2}[A-HJ-NP-Z\d]{2}$", re.I)
# Labels in the text around the values; they are not PHI and say which scheme is in use.
_LABELS = {
    "UK": re.compile(r"\bNHS\s*(?:no|number|#)", re.I),
    "NZ": re.compile(r"\bNHI\b"),
    "US": re.compile(r"\bSSN\b|\bsocial security\b", re.I),
}


def guess_country(text: str, spans: Iterable[Span]) -> str | None:
    """US, UK, AU or NZ when the document's evidence points to one country, else None."""
    score: Counter[str] = Counter()
    for country, label in _LABELS.items():
        if label.search(text):
            score[country] += 2
    for span in spans:
        value = span.text(text).strip()
        if span.category in (Category.ID, Category.CONTACT):
            _score_number(value, score)
        elif span.category is Category.LOCATION:
            _score_place(value, score)
    ranked = score.most_common(2)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def _score_number(value: str, score: Counter[str]) -> None:
    compact = re.sub(r"[\s-]", "", value)
    if _NHI.fullmatch(compact) and nhi_valid(compact.upper()):
        score["NZ"] += 3
        return
    if _SSN.fullmatch(value):
        score["US"] += 3
        return
    if not is_digit_string(value):
        return
    key = digit_key(value)
    digits = key.lstrip("+")
    if key.startswith("+"):
        for code, country in (("64", "NZ"), ("44", "UK"), ("61", "AU"), ("1", "US")):
            if digits.startswith(code):
                score[country] += 3
                return
        return
    if digits.startswith("0"):
        if digits.startswith("07") and len(digits) == 11:
            score["UK"] += 2
        elif digits.startswith("04") and len(digits) == 10:
            score["AU"] += 2
        elif digits.startswith("02") and len(digits) in (9, 10, 11) and digits[2] in "012789":
            score["NZ"] += 2  # 021, 022, 027, 028, 029 mobiles
        elif len(digits) == 11:
            score["UK"] += 1
        elif len(digits) == 9:
            score["NZ"] += 1  # (09) 555 1234: NZ landlines have seven local digits
        elif len(digits) == 10:
            score["AU"] += 1
        return
    if len(digits) == 10 and nhs_valid(digits):
        score["UK"] += 3
    elif medicare_valid(digits):
        score["AU"] += 2
    elif _US_PHONE.fullmatch(value):
        score["US"] += 2


def _score_place(value: str, score: Counter[str]) -> None:
    if _UK_POSTCODE.search(value):
        score["UK"] += 3
    if _AU_STATE_POSTCODE.search(value):
        score["AU"] += 3
    elif _US_STATE_ZIP.search(value):
        score["US"] += 3
    for part in re.split(r"\s*[,;\n]\s*", value):
        owners = countries_with_town(part)
        if len(owners) == 1:  # "Newport" is in two countries and says nothing
            score[owners[0]] += 1
