"""From members' spans to the ensemble's: votes per word token, the rules that keep what the
precise members know (validated spans, members' spans taken whole) and spans rebuilt from
the decided words."""

from __future__ import annotations

from dataclasses import dataclass
import re
from bisect import bisect_left, bisect_right
from typing import Sequence

import numpy as np

from ...categories import Category
from ...spans import Span, sort_spans


@dataclass(frozen=True, slots=True)
class Decision:
    """What the ensemble decided for one word: its category, score, and the member span that
    carried the decision (its fine type and extent guide how words join into spans)."""

    category: Category
    score: float
    member: str
    span: Span


def _token_range(starts: np.ndarray, ends: np.ndarray, span: Span) -> range:
    """Indices of the word tokens ``span`` touches."""
    lo = int(np.searchsorted(ends, span.start, side="right"))
    hi = int(np.searchsorted(starts, span.end, side="left"))
    return range(lo, hi)


def _bounds(toks: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    return np.array([s for s, _ in toks]), np.array([e for _, e in toks])


def accept_validated(
    toks: list[tuple[int, int]], decided: list[Decision | None], by_member: dict[str, list[Span]]
) -> list[Decision | None]:
    """Every word of a validated member span is PHI of that span's category, whatever the
    vote said: a value that checks itself is not a matter of opinion. Where two validated
    spans cover one word the surer one decides."""
    out = list(decided)
    starts, ends = _bounds(toks)
    validated = sorted(
        ((n, sp) for n, spans in by_member.items() for sp in spans if sp.validated), key=lambda x: x[1].score
    )
    for n, sp in validated:  # ascending score: the surest is written last
        for t in _token_range(starts, ends, sp):
            d = out[t]
            if d is None or d.category != sp.category or not d.span.validated:
                out[t] = Decision(sp.category, max(sp.score, d.score if d else 0.0), n, sp)
    return out


def accept_whole(
    text: str,
    toks: list[tuple[int, int]],
    decided: list[Decision | None],
    by_member: dict[str, list[Span]],
    categories: Sequence[Category],
) -> list[Decision | None]:
    """A member span of one of ``categories`` that the vote accepted in part (one word or
    more decided PHI of the span's category) is accepted whole, up to any layout gap, so no
    piece of a URL, an identifier or a name is left in the export. Judged on the vote as it
    stood, so one expansion never triggers another."""
    wanted = set(categories)
    if not wanted:
        return decided
    out = list(decided)
    starts, ends = _bounds(toks)
    for n, spans in by_member.items():
        for sp in spans:
            if sp.category not in wanted:
                continue
            for idx in _segments(text, toks, _token_range(starts, ends, sp)):
                hits = [decided[t] for t in idx if decided[t] is not None and decided[t].category == sp.category]
                if not hits or len(hits) == len(idx):
                    continue
                score = max(d.score for d in hits)
                for t in idx:
                    if out[t] is None:
                        out[t] = Decision(sp.category, score, n, sp)
    return out


# A line break, a tab or a run of spaces: the gap between two cells of a table or two fields
# of a form, which a model's span sometimes runs across ("49  152/88   106i" in a vitals row).
_LAYOUT_GAP = re.compile(r"\n|\r|\t| {2,}")
# A tab or a run of three spaces or more: two cells of a row ("MMR (1)            02/2024").
# A member span across one joins no words (two spaces follow many a full stop).
_COLUMN_GAP = re.compile(r"\t| {3,}")
# Values made of words, which a bracket between two of them parts; a phone keeps "(09) 555".
_WORD_CATEGORIES = frozenset({Category.NAME, Category.LOCATION, Category.ORGANIZATION, Category.PROFESSION})


def _segments(text: str, toks: list[tuple[int, int]], idx: range) -> list[list[int]]:
    """The word indices of one member span, cut at layout gaps: each piece is taken whole
    on its own, so a span joining two cells does not carry the second in with the first
    (measured on the development notes: those joins were most of what whole-span acceptance
    added wrongly)."""
    pieces: list[list[int]] = []
    for t in idx:
        if pieces and not _LAYOUT_GAP.search(text, toks[t - 1][1], toks[t][0]):
            pieces[-1].append(t)
        else:
            pieces.append([t])
    return pieces


def token_votes(toks: list[tuple[int, int]], by_member: dict[str, list[Span]]) -> dict[str, list[Span | None]]:
    """For each member, the span (if any) that covers each word token. When a member has two
    spans over one word, the higher-scoring one counts."""
    out: dict[str, list[Span | None]] = {}
    starts = np.array([s for s, _ in toks])
    ends = np.array([e for _, e in toks])
    for n, spans in by_member.items():
        col: list[Span | None] = [None] * len(toks)
        for sp in spans:
            lo = int(np.searchsorted(ends, sp.start, side="right"))
            hi = int(np.searchsorted(starts, sp.end, side="left"))
            for t in range(lo, hi):
                cur = col[t]
                if cur is None or sp.score > cur.score:
                    col[t] = sp
        out[n] = col
    return out


def rebuild_spans(
    text: str,
    toks: list[tuple[int, int]],
    decided: list[Decision | None],
    by_member: dict[str, list[Span]],
) -> list[Span]:
    """Group consecutive PHI words of one category into spans. Two words join when one member
    span of that category covers both, or when only spaces (no line break) separate them and
    the deciding spans agree on the fine type ("Leeds" CITY and "LS6 2PQ" ZIP stay apart, so
    each gets a surrogate of its own kind); never across a column gap, whatever covers it,
    nor across a bracket or a quote between a name's, place's or organisation's words. Span
    edges then widen over non-word characters that a member of the same category included
    (the "(" of "(09) 555 1234"), never over other words."""
    index = _SpanIndex(by_member)
    groups: list[list[int]] = []
    for t, d in enumerate(decided):
        if d is None:
            continue
        if groups:
            last = groups[-1][-1]
            pd = decided[last]
            if last == t - 1 and pd is not None and pd.category == d.category:
                gap = text[toks[last][1] : toks[t][0]]
                covered = index.covers(d.category, toks[last][0], toks[t][1]) and not _COLUMN_GAP.search(gap)
                spaces_only = gap.strip(" \t") == "" and "\n" not in gap and "\r" not in gap and not _COLUMN_GAP.search(gap)
                if d.category in _WORD_CATEGORIES and any(c in "()[]\"“”" for c in gap):
                    covered = False  # "Elspeth (Betty) Gruar": a bracket parts a name's words (completion joins them whole)
                if covered or (spaces_only and pd.span.fine == d.span.fine):
                    groups[-1].append(t)
                    continue
        groups.append([t])
    out: list[Span] = []
    for g in groups:
        cat = decided[g[0]].category
        s, e = toks[g[0]][0], toks[g[-1]][1]
        lo_lim = toks[g[0] - 1][1] if g[0] > 0 else 0
        hi_lim = toks[g[-1] + 1][0] if g[-1] + 1 < len(toks) else len(text)
        contributors = index.overlapping(cat, s, e)
        for _, sp in contributors:
            if lo_lim <= sp.start < s:
                s = sp.start
            if e < sp.end <= hi_lim:
                e = sp.end
        score = max(decided[t].score for t in g)
        members = tuple(dict.fromkeys(n for n, _ in contributors))
        fines = [sp.fine for n in members for _, sp in [c for c in contributors if c[0] == n] if sp.fine != "OTHER"]
        src = decided[g[0]].member
        out.append(Span(s, e, cat, fines[0] if fines else "OTHER", score, source=src, members=members))
    return sort_spans(out)


class _SpanIndex:
    """The member spans by category, sorted by start, for the two questions ``rebuild_spans``
    asks of every group of words. Asking them of every member span in turn made a long
    document cost the product of its words and its spans (a 200 KB note: seconds)."""

    def __init__(self, by_member: dict[str, list[Span]]) -> None:
        rows: dict[Category, list[tuple[int, int, str, Span]]] = {}
        order = 0
        for n, spans in by_member.items():
            for sp in spans:
                rows.setdefault(sp.category, []).append((sp.start, order, n, sp))
                order += 1
        self._rows: dict[Category, list[tuple[int, int, str, Span]]] = {}
        self._starts: dict[Category, list[int]] = {}
        self._reach: dict[Category, list[int]] = {}  # the furthest end among spans up to here
        self._longest: dict[Category, int] = {}
        for cat, row in rows.items():
            row.sort(key=lambda r: (r[0], r[1]))
            self._rows[cat] = row
            self._starts[cat] = [r[0] for r in row]
            reach, far = [], -1
            for r in row:
                far = max(far, r[3].end)
                reach.append(far)
            self._reach[cat] = reach
            self._longest[cat] = max(r[3].end - r[3].start for r in row)

    def covers(self, category: Category, start: int, end: int) -> bool:
        """Whether one span of ``category`` reaches from ``start`` or before to ``end`` or after."""
        starts = self._starts.get(category)
        if not starts:
            return False
        i = bisect_right(starts, start)
        return i > 0 and self._reach[category][i - 1] >= end

    def overlapping(self, category: Category, start: int, end: int) -> list[tuple[str, Span]]:
        """(member, span) of ``category`` overlapping [start, end), in the members' order."""
        starts = self._starts.get(category)
        if not starts:
            return []
        row = self._rows[category]
        lo = bisect_left(starts, start - self._longest[category])
        hi = bisect_left(starts, end)
        hits = sorted((r for r in row[lo:hi] if r[3].end > start), key=lambda r: r[1])
        return [(r[2], r[3]) for r in hits]
