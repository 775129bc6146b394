"""How far two reviewers agree on the same documents: Cohen's kappa per word token and
span-level precision / recall of one reviewer against the other.

Pure functions over text and spans, so they are tested on hand-computed examples and serve the
CLI, the Model menu and the release certificate alike.

Kappa is counted word by word (``core.text.words``, the unit the ensemble and the accuracy
figures use): each word gets the category of the span covering it, or "O". Overall kappa is
the multi-class kappa over those labels; per category it is the two-class kappa "this
category or not", so a category both reviewers never use has no figure rather than a perfect
one. Spans match when start, end and category are all equal; precision is the share of the
second reviewer's spans the first also marked, recall the share of the first's the second
found (the first reviewer plays the reference: the figures are symmetric under swapping the
roles, precision and recall trading places).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from .categories import Category
from .spans import Span
from .text import words

OUTSIDE = "O"


@dataclass(frozen=True, slots=True)
class Kappa:
    """Cohen's kappa with the counts it came from; ``value`` is None when chance agreement is
    total (both reviewers gave every token one and the same label), where kappa is undefined."""

    tokens: int
    observed: float
    expected: float

    @property
    def value(self) -> float | None:
        if self.tokens == 0 or self.expected >= 1.0:
            return None
        return (self.observed - self.expected) / (1.0 - self.expected)


@dataclass(frozen=True, slots=True)
class SpanAgreement:
    """Exact span matches of the second reviewer against the first."""

    matched: int
    first: int  # spans the first reviewer marked
    second: int  # spans the second reviewer marked

    @property
    def precision(self) -> float | None:
        return self.matched / self.second if self.second else None

    @property
    def recall(self) -> float | None:
        return self.matched / self.first if self.first else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None or p + r == 0:
            return None
        return 2 * p * r / (p + r)

    def __add__(self, other: "SpanAgreement") -> "SpanAgreement":
        return SpanAgreement(self.matched + other.matched, self.first + other.first, self.second + other.second)


@dataclass(frozen=True, slots=True)
class DocumentPair:
    """One document as both reviewers left it."""

    text: str
    first: Sequence[Span]
    second: Sequence[Span]


@dataclass
class AgreementReport:
    documents: int = 0
    kappa: Kappa = field(default_factory=lambda: Kappa(0, 0.0, 0.0))
    spans: SpanAgreement = field(default_factory=lambda: SpanAgreement(0, 0, 0))
    kappa_by_category: dict[Category, Kappa] = field(default_factory=dict)
    spans_by_category: dict[Category, SpanAgreement] = field(default_factory=dict)

    def to_json(self) -> dict:
        """Counts and figures only: no text, no names of patients or files."""
        return {
            "documents": self.documents,
            "overall": {"tokens": self.kappa.tokens, "kappa": _round(self.kappa.value), **_span_json(self.spans)},
            "categories": {
                c.value: {
                    "kappa": _round(self.kappa_by_category[c].value),
                    **_span_json(self.spans_by_category.get(c, SpanAgreement(0, 0, 0))),
                }
                for c in self.kappa_by_category
            },
        }


def token_labels(text: str, spans: Iterable[Span]) -> list[str]:
    """The label of each word of ``text``: the category of a span covering it, else "O"
    (the first span wins where spans overlap, as a final span set never does)."""
    toks = words(text)
    starts, ends = [s for s, _ in toks], [e for _, e in toks]
    labels = [OUTSIDE] * len(toks)
    for span in spans:
        lo = bisect_right(ends, span.start)
        for i in range(lo, max(lo, bisect_left(starts, span.end))):
            if labels[i] == OUTSIDE:
                labels[i] = span.category.value
    return labels


def cohen_kappa(first: Sequence[str], second: Sequence[str]) -> Kappa:
    """Kappa of two label sequences of equal length: (po − pe) / (1 − pe), with po the share
    of positions where they agree and pe the agreement expected from each one's label
    frequencies alone (Σ_k p1(k)·p2(k))."""
    if len(first) != len(second):
        raise ValueError("both reviewers must label the same tokens")
    n = len(first)
    if n == 0:
        return Kappa(0, 0.0, 0.0)
    observed = sum(a == b for a, b in zip(first, second)) / n
    c1, c2 = Counter(first), Counter(second)
    expected = sum(c1[k] * c2[k] for k in c1) / (n * n)
    return Kappa(n, observed, expected)


def span_agreement(first: Iterable[Span], second: Iterable[Span]) -> SpanAgreement:
    a = {_key(s) for s in first}
    b = {_key(s) for s in second}
    return SpanAgreement(len(a & b), len(a), len(b))


def agreement(pairs: Iterable[DocumentPair]) -> AgreementReport:
    """Pool every word and every span of the documents both reviewers finished."""
    labels1: list[str] = []
    labels2: list[str] = []
    report = AgreementReport()
    by_category: dict[Category, SpanAgreement] = {}
    for pair in pairs:
        report.documents += 1
        labels1 += token_labels(pair.text, pair.first)
        labels2 += token_labels(pair.text, pair.second)
        report.spans = report.spans + span_agreement(pair.first, pair.second)
        for cat in {s.category for s in (*pair.first, *pair.second)}:
            one = span_agreement([s for s in pair.first if s.category is cat], [s for s in pair.second if s.category is cat])
            by_category[cat] = by_category.get(cat, SpanAgreement(0, 0, 0)) + one
    report.kappa = cohen_kappa(labels1, labels2)
    used = {Category(x) for x in (*labels1, *labels2) if x != OUTSIDE} | set(by_category)
    for cat in sorted(used, key=lambda c: list(Category).index(c)):
        report.kappa_by_category[cat] = cohen_kappa(_only(labels1, cat), _only(labels2, cat))
        report.spans_by_category[cat] = by_category.get(cat, SpanAgreement(0, 0, 0))
    return report


def _only(labels: list[str], cat: Category) -> list[str]:
    return [x if x == cat.value else OUTSIDE for x in labels]


def _key(span: Span) -> tuple[int, int, str]:
    return (span.start, span.end, span.category.value)


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _span_json(s: SpanAgreement) -> dict:
    return {
        "spans_first": s.first,
        "spans_second": s.second,
        "spans_matched": s.matched,
        "precision": _round(s.precision),
        "recall": _round(s.recall),
        "f1": _round(s.f1),
    }


def format_report(report: AgreementReport, reviewers: Sequence[str] = ()) -> str:
    """The figures as a plain-text table (the CLI's output)."""
    if report.documents == 0:
        return "No document has been reviewed twice yet (both reviews finished)."
    lines = []
    if reviewers:
        lines.append("Reviewers: " + ", ".join(reviewers))
    lines.append(f"Documents reviewed by both: {report.documents}; words compared: {report.kappa.tokens}")
    lines.append(f"{'Category':<14}{'kappa':>8}{'precision':>11}{'recall':>8}{'F1':>8}{'spans 1st/2nd/both':>21}")
    rows = [("Overall", report.kappa, report.spans)]
    rows += [(c.value, report.kappa_by_category[c], report.spans_by_category[c]) for c in report.kappa_by_category]
    for name, k, s in rows:
        lines.append(
            f"{name:<14}{_fmt(k.value):>8}{_fmt(s.precision):>11}{_fmt(s.recall):>8}{_fmt(s.f1):>8}"
            f"{f'{s.first}/{s.second}/{s.matched}':>21}"
        )
    return "\n".join(lines)


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"
