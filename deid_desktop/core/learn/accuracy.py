"""How well the detector does on this site's own documents, measured on what its reviewers
decided: precision and recall per category, per model version, per month (or week) of review.

The figures a model ships with were measured on someone else's documents. Every reviewed
document here says, word by word, what the detector proposed and what the reviewer kept, so
the site sees its own figures.

How a document is scored (the words are ``text.words``, the same tokens the model cards and
the retrain comparison count, so the figures compare with theirs):

* proposed: the spans the detection runs stored, at the offsets and category the detector
  gave them (before any decision); spans a later run replaced unseen are left out;
* kept: the document's final spans, exactly what export replaces (``reviewed.load_reviewed``
  reads the same gold for retraining): accepted, resized, relabelled and added spans, and
  findings left undecided in a document marked reviewed;
* a word proposed with the category it was kept with is a true positive of that category; a
  word proposed as c but not kept as c is a false positive of c (rejected, relabelled away,
  or cut off by a resize); a word kept as c but not proposed as c is a false negative of c
  (added by the reviewer, relabelled to c, or taken in by a resize). Counting words gives a
  resize partial credit: "Dr Li Wei" cut to "Li Wei" keeps two of three words.

Each word counts for the model version of the run that proposed it; a word nobody proposed
counts for the document's latest run, the detector the reviewer last saw. A document with no
detection on record (only the reviewer's own spans) cannot say what any model missed and is
left out. A document's period is when its last decision was made.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePath
from typing import Iterable, Mapping

from ..categories import Category
from ..spans import Span
from ..store import Workspace
from ..text import words
from .reviewed import reviewed_document_rows
from .uncertainty import MIN_DOCUMENTS, wilson_interval

PERIODS = ("month", "week")
# Below this many words behind a ratio its interval spans most of [0, 1]: too few to judge,
# however many documents they came from.
MIN_WORDS = 20
NOT_RECORDED = "detector not recorded"


@dataclass(frozen=True)
class Tally:
    """Word counts behind one precision / recall pair, and how many documents they came from."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    documents: int = 0

    @property
    def precision(self) -> float | None:
        """None when the detector proposed nothing: there is no precision to speak of."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """None when the reviewers kept nothing of this kind."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def precision_interval(self) -> tuple[float, float]:
        return wilson_interval(self.tp, self.tp + self.fp)

    @property
    def recall_interval(self) -> tuple[float, float]:
        return wilson_interval(self.tp, self.tp + self.fn)

    @property
    def too_few(self) -> bool:
        """Too few documents or words to judge: words of one document share its author,
        template and patient, so many words from two documents still say little."""
        return self.documents < MIN_DOCUMENTS or min(self.tp + self.fp, self.tp + self.fn) < MIN_WORDS


@dataclass(frozen=True)
class PeriodAccuracy:
    period: str  # "2024-03" by month, "2024-W11" by ISO week
    overall: Tally
    per_category: dict[Category, Tally]


@dataclass(frozen=True)
class VersionAccuracy:
    """One detector configuration (its members and their model versions)."""

    label: str
    overall: Tally
    per_category: dict[Category, Tally]
    periods: list[PeriodAccuracy]  # oldest first
    active: bool = False

    @property
    def documents(self) -> int:
        return self.overall.documents


@dataclass(frozen=True)
class AccuracyReport:
    versions: list[VersionAccuracy]  # in the order they were first used
    documents: int  # reviewed documents scored
    without_detection: int  # reviewed documents left out: no detection on record
    period: str = "month"

    @property
    def empty(self) -> bool:
        return not self.versions

    def active(self) -> VersionAccuracy | None:
        """The version detection uses now, else the latest one used."""
        return next((v for v in self.versions if v.active), self.versions[-1] if self.versions else None)


def version_label(model_versions: Mapping[str, str]) -> str:
    """The detector in a few words: each member with its model version ("minilm v1, rules");
    folders show by their own name only, so no path (which may name a user) is shown."""
    parts = []
    for member, value in sorted(model_versions.items()):
        value = PurePath(str(value).replace("\\", "/")).name if value else ""
        parts.append(member if value in ("", member) else f"{member} {value}")
    return ", ".join(parts) or NOT_RECORDED


def period_of(when: datetime, period: str = "month") -> str:
    if period == "month":
        return f"{when:%Y-%m}"
    if period == "week":
        year, week, _ = when.isocalendar()
        return f"{year}-W{week:02d}"
    raise ValueError(f"unknown period {period!r}; expected one of {', '.join(PERIODS)}")


def accuracy_on_reviewed(ws: Workspace, *, period: str = "month") -> AccuracyReport:
    """Precision and recall of every detector version on the workspace's reviewed (or
    exported) documents, overall, per category and per period."""
    period_of(datetime(2000, 1, 1), period)  # an unknown period fails before any reading
    rows = reviewed_document_rows(ws)
    runs, reviewed_at = _runs_and_review_times(ws, [r.id for r in rows])
    active = ws.active_model_version()
    acc = _Accumulator()
    scored = skipped = 0
    for row in rows:
        text, proposed = _proposals(ws, row.id)
        if not proposed:
            skipped += 1
            continue
        gold = ws.final_spans(row.id, unreviewed_policy="accept")
        when = period_of(reviewed_at.get(row.id) or row.updated_at, period)
        latest = max(run for _, run in proposed)
        for version, category, outcome in score_words(text, proposed, gold, latest):
            acc.add(runs[version], category, when, outcome, row.id)
        acc.touch(runs[latest], when, row.id)
        scored += 1
    in_order = dict.fromkeys(runs[run_id] for run_id in sorted(runs))  # first used first
    active_name = active.name if active is not None else None
    versions = [acc.version(label, active_name) for label in in_order if acc.has(label)]
    return AccuracyReport(versions, scored, skipped, period)


def score_words(
    text: str, proposed: list[tuple[Span, int]], gold: list[Span], latest_run: int
) -> Iterable[tuple[int, Category, str]]:
    """(run id, category, "tp" | "fp" | "fn") for every word where the proposal and the
    reviewer's final spans say anything, as the module docstring explains."""
    toks = words(text)
    starts, ends = [s for s, _ in toks], [e for _, e in toks]
    said: dict[int, tuple[float, Category, int]] = {}
    for span, run in proposed:
        for t in _covered(starts, ends, span):
            if t not in said or span.score > said[t][0]:
                said[t] = (span.score, span.category, run)
    kept: dict[int, Category] = {}
    for span in gold:
        for t in _covered(starts, ends, span):
            kept.setdefault(t, span.category)
    for t in sorted(set(said) | set(kept)):
        g = kept.get(t)
        if t not in said:
            yield latest_run, g, "fn"  # type: ignore[misc]  # g is set: t came from kept
            continue
        _, p, run = said[t]
        if p == g:
            yield run, p, "tp"
            continue
        yield run, p, "fp"
        if g is not None:
            yield run, g, "fn"


def _covered(starts: list[int], ends: list[int], span: Span) -> range:
    lo = bisect_right(ends, span.start)
    return range(lo, max(lo, bisect_left(starts, span.end)))


def _proposals(ws: Workspace, document_id: int) -> tuple[str, list[tuple[Span, int]]]:
    """The document's text and its detected spans as the detector gave them, each with the
    run that found it."""
    return ws.detected_spans(document_id)


def _runs_and_review_times(ws: Workspace, document_ids: list[int]) -> tuple[dict[int, str], dict[int, datetime]]:
    """Every detection run's version label, and each document's last decision time."""
    runs = {run.id: version_label(run.model_versions) for run in ws.detection_run_rows()}
    return runs, ws.last_decision_times(document_ids)


@dataclass
class _Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    documents: set[int] = field(default_factory=set)

    def add(self, outcome: str, document_id: int) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)
        self.documents.add(document_id)

    def frozen(self) -> Tally:
        return Tally(self.tp, self.fp, self.fn, len(self.documents))


class _Accumulator:
    """Counts keyed by (version label, period or None for all time, category or None for all)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str | None, Category | None], _Counts] = defaultdict(_Counts)
        self.versions: dict[str, dict[str, str]] = {}

    def add(self, version: str, category: Category, period: str, outcome: str, document_id: int) -> None:
        for when in (None, period):
            for cat in (None, category):
                self.counts[(version, when, cat)].add(outcome, document_id)

    def touch(self, version: str, period: str, document_id: int) -> None:
        """The document counts for the version that last detected in it, even if every
        word of it was proposed by an earlier one or nothing was found at all."""
        for when in (None, period):
            self.counts[(version, when, None)].documents.add(document_id)

    def has(self, version: str) -> bool:
        return (version, None, None) in self.counts

    def version(self, label: str, active_name: str | None) -> VersionAccuracy:
        periods = sorted({p for v, p, _ in self.counts if v == label and p is not None})
        return VersionAccuracy(
            label=label,
            overall=self.counts[(label, None, None)].frozen(),
            per_category=self._per_category(label, None),
            periods=[PeriodAccuracy(p, self.counts[(label, p, None)].frozen(), self._per_category(label, p)) for p in periods],
            active=active_name is not None and _names_model(label, active_name),
        )

    def _per_category(self, label: str, period: str | None) -> dict[Category, Tally]:
        return {c: self.counts[(label, period, c)].frozen() for c in Category if (label, period, c) in self.counts}


def _names_model(label: str, model_name: str) -> bool:
    """The label lists the workspace's active model version as one member's version."""
    return any(part.split(" ", 1)[-1] == model_name for part in label.split(", "))
