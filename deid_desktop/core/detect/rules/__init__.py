"""The rule-based half of the ensemble: one small detector per concern, and ``RuleSet``
which runs a chosen list of them as one ensemble member.

Importing this package registers every rule detector with ``deid_desktop.core.detect.base``;
the default list the "rules" member runs is data (``resources/rules/default.toml``).
"""

from __future__ import annotations

import bisect
import importlib
import pkgutil
from functools import cache

from ...categories import Category
from ...config_files import check_choice, check_table, check_value, read_toml
from ...errors import ConfigError
from ...paths import resource
from ...spans import Span, merge_overlapping, snap_to_words, sort_spans
from ..base import DETECTORS, Detector, register
from ..guards import ClinicalTermGuard
from ..inclusion import InclusionList
from .common import RuleDetector, misread_regions, ocr_misreads

# Every module of this package holds rule classes that register themselves on import; all
# are imported, so a new rule needs no import list (only its name in the default list).
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

DEFAULT_RULES_FILE = ("rules", "default.toml")  # under resources/


def rule_detector_names() -> list[str]:
    """Every registered rule detector, by registry name."""
    return sorted(n for n, cls in DETECTORS.items() if issubclass(cls, RuleDetector))


@cache
def default_rule_names() -> tuple[str, ...]:
    """The rules a "rules" member runs by default, in order: ``resources/rules/default.toml``."""
    path = resource(*DEFAULT_RULES_FILE)
    data = read_toml(path, "rule list")
    check_table(data, {"detectors": (list,)}, path.name, "the file")
    names = data.get("detectors", [])
    known = rule_detector_names()
    for name in names:
        check_value(name, (str,), path.name, "each entry of detectors")
        check_choice(name, known, path.name, "rule detector")
    if len(set(names)) != len(names):
        raise ConfigError(f"{path.name}: a rule is listed twice in detectors")
    return tuple(names)


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
        self.names = list(default_rule_names() if names is None else names)
        unknown = [n for n in self.names if not issubclass(DETECTORS.get(n, Detector), RuleDetector)]
        if unknown:
            raise ValueError(f"unknown rule detector(s) {unknown}; expected some of {rule_detector_names()}")
        self.members = [DETECTORS[n]() for n in self.names]
        self.inclusion = InclusionList.default() if inclusion is None else inclusion
        self.guard = ClinicalTermGuard.default() if guard is None else guard

    def detect(self, text: str) -> list[Span]:
        spans = [s for member in self.members for s in member.detect(text)]
        misreads = ocr_misreads(text)
        if misreads:
            # A scan's letters read for digits ("D0B O3/11/2O14"): the rules read the lines
            # around them again with them as digits, and what they find over such a letter
            # is kept.
            changed = sorted(at + k for at, word in misreads for k, ch in enumerate(word) if ch != text[at + k])
            for lo, hi in misread_regions(text, misreads):
                window = _with_reads(text, lo, hi, misreads)
                for member in self.members:
                    for s in member.detect(window):
                        s = s.with_(start=s.start + lo, end=s.end + lo)
                        k = bisect.bisect_left(changed, s.start)
                        if k < len(changed) and changed[k] < s.end:
                            spans.append(s)
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


def _with_reads(text: str, lo: int, hi: int, misreads: list[tuple[int, str]]) -> str:
    """``text[lo:hi]`` with the misread words in it read as digits (same length)."""
    parts, pos = [], lo
    for at, word in misreads:
        if lo <= at and at + len(word) <= hi:
            parts += [text[pos:at], word]
            pos = at + len(word)
    parts.append(text[pos:hi])
    return "".join(parts)


def _inside_any(span: Span, ranges: list[tuple[int, int]]) -> bool:
    """Whether the span overlaps one of the sorted, non-overlapping ranges."""
    i = bisect.bisect_right(ranges, (span.start, float("inf"))) - 1
    return any(a < span.end and span.start < b for a, b in ranges[max(i, 0) : i + 2])
