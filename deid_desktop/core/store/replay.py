"""Deriving a span's current state from its decision log.

The log is the truth; the state cached on the span row is only ever written by replaying the
whole log of that span through these functions, so the cache and a replay cannot disagree.

Decisions are deltas, not snapshots: RELABEL carries only the new category, RESIZE only the
new offsets. Replaying deltas is what makes undoing an older decision correct when later
decisions exist (undo a relabel that was followed by a resize: the resize stays, the label
goes back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol, TypeVar

from .rows import DecisionAction, SpanState

# A reviewer-added span whose ADD has been undone: it no longer exists for the user.
WITHDRAWN = SpanState.WITHDRAWN

_T = TypeVar("_T")


class LoggedDecision(Protocol):
    id: int
    action: str
    category: str | None
    fine: str | None
    start: int | None
    end: int | None
    undoes_id: int | None


@dataclass(frozen=True, slots=True)
class ReplayedSpan:
    """A span as its decisions in force leave it: state, extent and label."""

    state: SpanState
    start: int
    end: int
    category: str
    fine: str


def undone_ids(decisions: Iterable[LoggedDecision]) -> set[int]:
    """Ids of decisions reverted by an UNDO that is itself still in force.

    An UNDO can only target an earlier decision, so walking newest first settles whether each
    UNDO is in force before it is used (undoing an UNDO is a redo).
    """
    undone: set[int] = set()
    undos = [d for d in decisions if d.action == DecisionAction.UNDO.value]
    for d in sorted(undos, key=lambda d: d.id, reverse=True):
        if d.id not in undone and d.undoes_id is not None:
            undone.add(d.undoes_id)
    return undone


def initial_state(start: int, end: int, category: str, fine: str, *, added_by_reviewer: bool) -> ReplayedSpan:
    """A reviewer's span exists only while its ADD is in force, so it starts withdrawn."""
    return ReplayedSpan(
        state=WITHDRAWN if added_by_reviewer else SpanState.UNDECIDED,
        start=start,
        end=end,
        category=category,
        fine=fine,
    )


def replay(initial: ReplayedSpan, decisions: Iterable[LoggedDecision], undone: set[int]) -> ReplayedSpan:
    """Apply the decisions in force, oldest first, to the span as it was proposed."""
    state, start, end = SpanState(initial.state), initial.start, initial.end
    category, fine = initial.category, initial.fine
    for d in sorted(decisions, key=lambda d: d.id):
        if d.id in undone or d.action == DecisionAction.UNDO.value:
            continue
        action = DecisionAction(d.action)
        if state == WITHDRAWN and action is not DecisionAction.ADD:
            # Undoing the ADD removes the span, whatever was decided about it afterwards.
            continue
        if action is DecisionAction.ADD:
            state = SpanState.ADDED
            start, end = _require(d.start), _require(d.end)
            category, fine = _require(d.category), _require(d.fine)
        elif action is DecisionAction.REJECT:
            state = SpanState.REJECTED
        elif action is DecisionAction.ACCEPT:
            state = _judged_phi(state)
        elif action is DecisionAction.RELABEL:
            category, fine = _require(d.category), _require(d.fine)
            state = _judged_phi(state)
        elif action is DecisionAction.RESIZE:
            start, end = _require(d.start), _require(d.end)
            state = _judged_phi(state)
    return ReplayedSpan(state=state, start=start, end=end, category=category, fine=fine)


def _judged_phi(state: SpanState) -> SpanState:
    # Correcting a span's label or extent is a judgement that it is PHI; a reviewer's own
    # span stays "added" so reports can tell detector hits from reviewer additions.
    return SpanState.ADDED if state is SpanState.ADDED else SpanState.ACCEPTED


def _require(value: _T | None) -> _T:
    if value is None:
        raise ValueError("decision log is missing a value its action needs")
    return value
