"""Where two reviewers of one document disagree, and the truth an adjudicator makes of it.

Pure functions over spans: the store keeps the adjudicator's choices, this module says what
they mean. A *disagreement* is a region of text where the two final span sets differ: spans of
both reviewers are grouped into clusters of overlapping spans, and a cluster whose spans are
not the same on both sides (offsets and category) is one disagreement, shown whole so the
adjudicator judges "Ann Lee" once rather than "Ann" and "Lee" apart. A cluster marked the same
by both is agreed and passes through untouched.

A choice is keyed by its region (start, end). If a reviewer changes a decision after
adjudication, the regions change and the affected disagreement is open again, so an
adjudication never silently applies to spans the adjudicator did not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Mapping, Sequence

from .spans import Span, sort_spans

CONTEXT_CHARS = 80


class Choice(str, Enum):
    FIRST = "first"  # the first reviewer's spans in the region
    SECOND = "second"  # the second reviewer's
    NEITHER = "neither"  # no PHI in the region
    EDIT = "edit"  # spans the adjudicator set by hand


@dataclass(frozen=True, slots=True)
class Disagreement:
    start: int
    end: int
    first: tuple[Span, ...]
    second: tuple[Span, ...]

    @property
    def key(self) -> tuple[int, int]:
        return (self.start, self.end)

    def context(self, text: str, chars: int = CONTEXT_CHARS) -> tuple[str, str, str]:
        """(before, region, after) for showing the disagreement in its sentence. PHI: for the
        screen only, never for logs or reports."""
        lo = max(0, self.start - chars)
        hi = min(len(text), self.end + chars)
        return text[lo : self.start], text[self.start : self.end], text[self.end : hi]


@dataclass(frozen=True, slots=True)
class Resolution:
    start: int
    end: int
    choice: Choice
    spans: tuple[Span, ...]  # what the region holds after adjudication

    @property
    def key(self) -> tuple[int, int]:
        return (self.start, self.end)


@dataclass(frozen=True, slots=True)
class Adjudication:
    """A document's disagreements, the choices made so far, and its truth once all are made."""

    disagreements: tuple[Disagreement, ...]
    agreed: tuple[Span, ...]
    resolutions: Mapping[tuple[int, int], Resolution]

    @property
    def open(self) -> list[Disagreement]:
        return [d for d in self.disagreements if d.key not in self.resolutions]

    @property
    def complete(self) -> bool:
        return not self.open

    def spans(self) -> list[Span]:
        """The adjudicated spans: agreed ones plus each disagreement's choice. Only defined
        when every disagreement is resolved."""
        if not self.complete:
            raise ValueError(f"{len(self.open)} disagreement(s) are not adjudicated yet")
        chosen = [s for d in self.disagreements for s in self.resolutions[d.key].spans]
        return sort_spans([*self.agreed, *chosen])


def disagreements(first: Iterable[Span], second: Iterable[Span]) -> tuple[list[Disagreement], list[Span]]:
    """(disagreements, agreed spans) of two final span sets of one document."""
    tagged = sorted([(s, 0) for s in first] + [(s, 1) for s in second], key=lambda x: (x[0].start, x[0].end))
    out: list[Disagreement] = []
    agreed: list[Span] = []
    cluster: list[tuple[Span, int]] = []
    end = -1
    for item in tagged:
        if cluster and item[0].start >= end:
            _close(cluster, out, agreed)
            cluster = []
        cluster.append(item)
        end = max(end, item[0].end) if len(cluster) > 1 else item[0].end
    if cluster:
        _close(cluster, out, agreed)
    return out, agreed


def _close(cluster: list[tuple[Span, int]], out: list[Disagreement], agreed: list[Span]) -> None:
    a = tuple(s for s, side in cluster if side == 0)
    b = tuple(s for s, side in cluster if side == 1)
    if sorted(map(_key, a)) == sorted(map(_key, b)):
        agreed.extend(a)
        return
    out.append(Disagreement(min(s.start for s, _ in cluster), max(s.end for s, _ in cluster), a, b))


def _key(span: Span) -> tuple[int, int, str]:
    return (span.start, span.end, span.category.value)


def resolve(d: Disagreement, choice: Choice, edited: Sequence[Span] = ()) -> Resolution:
    """The resolution of ``d`` by ``choice``; an edit must keep its spans inside the region,
    since outside it the reviewers agreed."""
    if choice is Choice.FIRST:
        spans = d.first
    elif choice is Choice.SECOND:
        spans = d.second
    elif choice is Choice.NEITHER:
        spans = ()
    else:
        spans = tuple(sort_spans(edited))
        if any(s.start < d.start or s.end > d.end for s in spans):
            raise ValueError("an edited span must lie inside the disagreement it resolves")
        if any(a.overlaps(b) for i, a in enumerate(spans) for b in spans[i + 1 :]):
            raise ValueError("edited spans must not overlap")
    return Resolution(d.start, d.end, choice, tuple(spans))


def adjudicate(
    first: Iterable[Span], second: Iterable[Span], resolutions: Iterable[Resolution]
) -> Adjudication:
    """Match stored choices (latest first wins is the caller's ordering: later ones replace
    earlier ones of the same region) to the document's current disagreements."""
    found, agreed = disagreements(first, second)
    keys = {d.key for d in found}
    latest: dict[tuple[int, int], Resolution] = {}
    for r in resolutions:
        if r.key in keys:
            latest[r.key] = r
    return Adjudication(tuple(found), tuple(agreed), latest)
