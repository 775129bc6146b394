"""The rule-based half of the ensemble: one small detector per concern, and ``RuleSet``
which runs a chosen list of them as one ensemble member.

Importing this package registers every rule detector with ``deid_desktop.core.detect.base``.
"""

from __future__ import annotations

import bisect

from ...categories import Category
from ...spans import Span, merge_overlapping, snap_to_words, sort_spans
from ..base import DETECTORS, Detector, register
from ..guards import ClinicalTermGuard
from ..inclusion import InclusionList
from .common import RuleDetector
from . import (  # noqa: F401  (imported to register the detectors)
    addresses,
    ages,
    dates,
    devices,
    names,
    national_ids,
    organisations,
    phones,
    places,
    postcodes,
    professions,
    record_numbers,
    ssn,
    vehicles,
    web,
)

# Registry names in the default order. Order matters only for ties: where two rules report
# the same stretch with the same score, the earlier rule's fine type is kept.
RULE_DETECTORS: list[str] = [
    "email",
    "url",
    "ip_address",
    "ssn",
    "nhs_number",
    "nhi",
    "medicare",
    "record_number",
    "vehicle",
    "device_serial",
    "phone",
    "date",
    "age",
    "street_address",
    "postcode",
    "organisation",
    "place",
    "labelled_name",
    "titled_name",
    "signature_name",
    "relative_name",
    "dictionary_name",
    "profession",
]


@register("rules")
class RuleSet(Detector):
    """Runs rule detectors, drops clinical terms and inclusion-listed sentences, then merges
    overlaps and snaps boundaries to whole words.

    ``guard`` and ``inclusion`` default to the shipped lists; pass ``ClinicalTermGuard([])``
    or ``InclusionList()`` to switch either off.
    """

    def __init__(
        self,
        names: list[str] | None = None,
        inclusion: InclusionList | None = None,
        guard: ClinicalTermGuard | None = None,
    ) -> None:
        self.names = list(RULE_DETECTORS if names is None else names)
        unknown = [n for n in self.names if not issubclass(DETECTORS.get(n, Detector), RuleDetector)]
        if unknown:
            raise ValueError(f"unknown rule detector(s) {unknown}; expected some of {RULE_DETECTORS}")
        self.members = [DETECTORS[n]() for n in self.names]
        self.inclusion = InclusionList.default() if inclusion is None else inclusion
        self.guard = ClinicalTermGuard.default() if guard is None else guard

    def detect(self, text: str) -> list[Span]:
        spans = [s for member in self.members for s in member.detect(text)]
        spans = self.guard.filter(text, spans)
        skipped = self.inclusion.skipped_ranges(text)
        if skipped:
            spans = [s for s in spans if not _inside_any(s, skipped)]
        # Contact patterns already end where the value ends, "(09) 123 4567" keeps its bracket.
        snapped = [s if s.category is Category.CONTACT else snap_to_words(text, s) for s in spans]
        # Stable sort: among spans over the same text the surest one's fine type survives merging.
        snapped.sort(key=lambda s: -s.score)
        merged = merge_overlapping(snapped, text)
        return sort_spans(s.with_(source=self.name) for s in merged)


def _inside_any(span: Span, ranges: list[tuple[int, int]]) -> bool:
    """Whether the span overlaps one of the sorted, non-overlapping ranges."""
    i = bisect.bisect_right(ranges, (span.start, float("inf"))) - 1
    return any(a < span.end and span.start < b for a, b in ranges[max(i, 0) : i + 2])
