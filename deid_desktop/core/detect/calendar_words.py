"""Names of months and weekdays that more than one module reads: the date rules find dates
with them, the guard asks whether a span holds a date at all. Kept apart from ``rules`` so
the guard can import them without importing the rules (which import the guard)."""

from __future__ import annotations

import re

# Months and weekdays in te reo Māori, as NZ letters and plans write them ("Rāapa 4 Hune
# 2025", "hui 2 Hōngongoi", "by Mahuru"). The traditional names are dates alone; the
# transliterations ("Hune", "Mei") are names too, so a rule takes them only with a day or a
# year.
_TRADITIONAL_MONTHS = (
    "Kohitātea Huitanguru Poutūterangi Paengawhāwhā Haratua Pipiri Hōngongoi Hereturikōkā Mahuru "
    "Whiringa-ā-nuku Whiringa-ā-rangi Hakihea"
).split()
_LOAN_MONTHS = "Hānuere Pēpuere Māehe Āperira Mei Hune Hūrae Ākuhata Hepetema Oketopa Noema Tīhema".split()
_WEEKDAYS = "Rāhina Rātū Rāapa Rāpare Rāmere Rāhoroi Rātapu".split()


def with_and_without_macrons(words: list[str]) -> list[str]:
    """The words with and without their macrons (notes are typed both ways), longest first."""
    plain = str.maketrans("āēīōūĀĒĪŌŪ", "aeiouAEIOU")
    return sorted({f for w in words for f in (w, w.translate(plain))}, key=lambda f: (-len(f), f))


MAORI_TRADITIONAL_MONTHS = with_and_without_macrons(_TRADITIONAL_MONTHS)
MAORI_MONTHS = with_and_without_macrons(_TRADITIONAL_MONTHS + _LOAN_MONTHS)
MAORI_WEEKDAYS = with_and_without_macrons(_WEEKDAYS)


def _alternation(words: list[str]) -> str:
    return "(?:" + "|".join(re.escape(f) for f in words) + ")"


MAORI_ANY_MONTH = _alternation(MAORI_MONTHS) + r"(?![\w-])"
# any month's name in te reo, for the guard that asks whether a span holds a date at all
MAORI_MONTH_NAME = re.compile(rf"(?<![\w-]){MAORI_ANY_MONTH}")
