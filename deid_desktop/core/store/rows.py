"""Plain frozen values the workspace hands out, so GUI code never holds a session or an ORM
object that could lazy-load on the wrong thread."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from ..categories import Category


class DocStatus(StrEnum):
    IMPORTED = "imported"
    DETECTED = "detected"
    IN_REVIEW = "in_review"
    REVIEWED = "reviewed"
    EXPORTED = "exported"
    ERROR = "error"


class DecisionAction(StrEnum):
    ACCEPT = "accept"
    REJECT = "reject"
    ADD = "add"
    RELABEL = "relabel"
    RESIZE = "resize"
    UNDO = "undo"


class SpanState(StrEnum):
    """A span's state, derived from its decision log (``replay``) and stored on its row.

    A StrEnum: the values are what the ``spans.state`` column holds, and a state still equals
    its string ("rejected"), so stored rows and older comparisons read the same.
    """

    UNDECIDED = "undecided"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    # A reviewer's own span (told apart from detector hits in reports).
    ADDED = "added"
    # A reviewer-added span whose ADD was undone: it no longer exists for the user, so no
    # ``SpanRow`` ever carries this state; only the stored row and the replay do.
    WITHDRAWN = "withdrawn"

    @property
    def is_phi(self) -> bool:
        """Judged PHI: what export replaces."""
        return self in (SpanState.ACCEPTED, SpanState.ADDED)


ImportStatus = Literal["new", "duplicate", "new_version"]


@dataclass(frozen=True, slots=True)
class ImportResult:
    document_id: int
    status: ImportStatus
    previous_id: int | None


@dataclass(frozen=True, slots=True)
class SubjectRow:
    id: int
    label: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class DocumentRow:
    id: int
    subject_id: int | None
    subject_label: str | None
    source_path: str | None
    name: str
    format: str | None
    content_hash: str | None
    version: int
    status: DocStatus
    error_code: str | None
    error_reason: str | None
    n_spans: int
    n_undecided: int
    created_at: datetime
    updated_at: datetime
    # The version this one replaced (same source path), if any.
    previous_id: int | None = None


@dataclass(frozen=True, slots=True)
class SpanRow:
    """A current span with its effective (decided) offsets and category."""

    id: int
    document_id: int
    start: int
    end: int
    category: Category
    fine: str
    score: float
    source: str
    members: tuple[str, ...]
    state: SpanState
    # The covered text is PHI: kept out of repr so logging a row never leaks it.
    text: str = field(repr=False)
    detection_run_id: int | None = None


@dataclass(frozen=True, slots=True)
class DecisionRow:
    id: int
    span_id: int
    document_id: int
    action: DecisionAction
    reviewer: str
    category: Category | None
    fine: str | None
    start: int | None
    end: int | None
    batch: str | None
    created_at: datetime
    undone: bool
    # For UNDO rows: the decision they revert.
    undoes: int | None = None


@dataclass(frozen=True, slots=True)
class ModelVersionRow:
    id: int
    name: str
    path: str
    metrics: dict[str, Any]
    parent: str | None
    active: bool
    created_at: datetime
    training_run_id: int | None = None


@dataclass(frozen=True, slots=True)
class TrainingRunRow:
    id: int
    settings: dict[str, Any]
    status: str
    metrics: dict[str, Any] | None
    started_at: datetime
    finished_at: datetime | None
