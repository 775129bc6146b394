"""The ensemble's cascade: its last model reads only the sentences where its vote can count.

Under a majority of three members or more, one member's vote alone never makes a word PHI;
under the soft vote it does not where its weight for every category is below the threshold.
So where no other member marked a word of a sentence, whatever the last model says there is
outvoted, and none of the rules after the vote (validated spans, members' spans taken whole,
span edges, the members named on a span) can take it up: each of them starts from a word the
vote accepted, and the last model's spans lie inside the sentence it read. That model is
therefore run only on the sentences that hold, or touch through a word, something another
member marked, and the ensemble's spans are the same as when it reads everything
(tests/core/detect/test_cascade.py compares them on letters and hand-written notes; the
benchmarks on every set, docs/benchmarks.md). Measured on the throughput corpus: the
sentences with a mark of the rules or the first model are about half the sentences and two
thirds of the characters.

Member spans from a cascade are for this ensemble's own vote: scoring members one by one,
fitting weights or combining with another strategy needs every member's full reading
(``Ensemble.member_spans`` without ``cascade``)."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ...categories import Category
from ...spans import Span
from ...text import words
from .config import Strategy


def outvoted_alone(
    strategy: Strategy,
    names: Sequence[str],
    member: str,
    tie_breaker: str | None,
    weight: Callable[[str, Category], float],
    threshold: float,
) -> bool:
    """Whether ``member`` saying a category for a word no other member marked can never
    make that word PHI, under ``strategy`` with the members ``names`` (as ``Ensemble._decide``
    counts them)."""
    if member not in names or len(names) < 2:
        return False
    if strategy is Strategy.MAJORITY:
        tb = tie_breaker if tie_breaker in names else names[0]
        # one vote of len(names): rejected when under half, or half without the tie-breaker
        return 2 < len(names) or (2 == len(names) and tb != member)
    if strategy is Strategy.SOFT_VOTE:
        # a member's score is at most 1, so its weight bounds what it adds
        return all(weight(member, c) < threshold for c in Category)
    return False  # union: every member's word is PHI


def wanted_ranges(text: str, others: Sequence[Span]) -> list[tuple[int, int]]:
    """The sorted, disjoint character ranges of ``text`` covered by the words that the other
    members' spans touch (a span is widened to whole words, as the vote reads it)."""
    if not others:
        return []
    toks = words(text)
    if not toks:
        return []
    starts = np.array([s for s, _ in toks])
    ends = np.array([e for _, e in toks])
    ranges: list[tuple[int, int]] = []
    for sp in others:
        lo = int(np.searchsorted(ends, sp.start, side="right"))
        hi = int(np.searchsorted(starts, sp.end, side="left"))
        if hi > lo:
            ranges.append((min(sp.start, int(starts[lo])), max(sp.end, int(ends[hi - 1]))))
        elif sp.end > sp.start:
            ranges.append((sp.start, sp.end))
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for s, e in ranges:
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged
